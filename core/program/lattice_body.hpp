// A traversal's batch form. When its tuples are a lattice fixed by its text
// (a cartesian of ranges, literal lists and generators with literal
// arguments; no where; no order but lex) and its body reads nothing of the
// parent, every opening yields the same rows, each a function of its tuple's
// position alone. The lattice body is then one program over all of them:
// `input (row, cycle)`, each element computed from row mod the tuple count
// (its mixed-radix digit: a range's start + digit * step, a list's entry),
// the body after them, cycle held at 0. The batch tier runs it as any
// program: one launch for a million tuples, not a million activations.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "comprehension/comprehension.hpp"
#include "syntax/ast.hpp"

namespace polyrt {

// The most entries a list source may have in a lattice body: an entry is
// picked by a chain of selects, one per entry.
inline constexpr size_t kMaxLatticeListEntries = 16;

struct LatticeBodyAst {
  syntax::Ast ast;      // the program, before modules are inlined
  uint64_t tuples = 0;  // rows per opening
};

// The lattice body of `c` around `body` (the traversal's statements, its
// pragmas and the program's modules already in `ast`), or nullopt when the
// comprehension is not such a lattice. `element_types` are the body's.
std::optional<LatticeBodyAst> lattice_body_ast(const comprehension::Comprehension& c,
                                               syntax::Ast ast, syntax::SourcePos at);

}  // namespace polyrt
