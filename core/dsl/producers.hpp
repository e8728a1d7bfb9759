// polydat's producers: `x := for COMPREHENSION` binds a comprehension as a
// value. polyrt resolves them when it parses: a derivation `y := for x
// where ... order ...` becomes its own comprehension (comprehension/
// derivation.hpp), a traversal over a producer (`for x { ... }`) takes the
// producer's comprehension, and the binding's value is the producer's text
// as polydat displays it ("for a in 0..3, tag in p, q"), a const str that a
// string may interpolate. Anything else that reads a producer is refused: a
// producer is not a plain value.
#pragma once

#include <string_view>

#include "dsl/ast.hpp"
#include "dsl/source.hpp"

namespace polyrt::dsl {

// Whether a `for` text names a producer (`sweep`, `sweep where {a} > 1`,
// `sweep order halton/4`) rather than writing a comprehension.
bool is_producer_reference(std::string_view text);

// Resolves the program's producers, derivations and traversals over
// producers in place. Throws CompileError naming the rule broken.
void resolve_producers(Ast& ast, const SourceText& source);

}  // namespace polyrt::dsl
