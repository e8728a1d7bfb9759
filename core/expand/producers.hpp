// polydat's producers: `x := for COMPREHENSION` binds a comprehension as a
// value. polyrt resolves them when it parses: a derivation `y := for x
// where ... order ...` becomes its own comprehension (comprehension/
// derivation.hpp), a traversal over a producer (`for x { ... }`) takes the
// producer's comprehension, and the binding's value is the producer's text
// as polydat displays it ("for a in 0..3, tag in p, q"), a const str that a
// string may interpolate. Anything else that reads a producer is refused: a
// producer is not a plain value.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "comprehension/comprehension.hpp"
#include "syntax/ast.hpp"
#include "syntax/source.hpp"

namespace polyrt::expand {

// The producers bound so far: name -> comprehension.
using Producers = std::map<std::string, comprehension::Comprehension, std::less<>>;
// Throws the CompileError a comprehension's problem is (message, hint).
using ProducerFailure = std::function<void(const std::string&, const std::string&)>;

// The comprehension `text` (written in a tile's template), or `fail` with
// its syntax error.
comprehension::Comprehension parse_or_fail(const std::string& text, const ProducerFailure& fail);

// The comprehension a parsed `for` stands for: itself, or the producer it
// names derived by the where and order after the name (a traversal's, a
// tile projection's). Calls `fail` for a syntax error, an unknown producer
// or a source reading a producer; never returns then.
comprehension::Comprehension resolve_comprehension(const comprehension::Comprehension& written,
                                                   const Producers& producers,
                                                   const ProducerFailure& fail);

// Resolves the program's producers, derivations and traversals over
// producers in place. Throws CompileError naming the rule broken.
void resolve_producers(syntax::Ast& ast, const syntax::SourceText& source);

}  // namespace polyrt::expand
