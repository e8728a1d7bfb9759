// The top-level traversals of a program, compiled after the program itself
// (the parent: its outputs type what the bodies read from it). Each body is
// a program of its own over the same source, so its diagnostics point at
// the body's lines: an implicit `input cycle`, one extern per comprehension
// element (typed by its source) and one per parent value the body reads
// (the cascade), the parent's pragmas and modules, then the body.
#pragma once

#include <memory>
#include <vector>

#include "expand/expansions.hpp"
#include "program/traversal_def.hpp"
#include "syntax/ast.hpp"
#include "syntax/sources.hpp"

namespace polyrt {

// Moves the traversal statements out of `ast` (the parent compiles without
// them) and returns them in source order.
std::vector<syntax::Stmt> take_traversals(syntax::Ast& ast);

// What every traversal body compiles from besides its own statements:
// copies of the parsed program's modules and pragmas, its parse warnings.
// Taken before the program's own compile consumes the tree.
syntax::Ast traversal_frame(const syntax::Ast& parsed);

// Compiles traversal `statement` (as take_traversals gave it, its body's
// cursor bounds resolved: program/cursor_bounds.hpp) against the compiled
// parent, each body from a copy of `frame` through the program expansions.
// Throws CompileError.
std::shared_ptr<const TraversalDef> compile_traversal(const syntax::Ast& frame,
                                                      const expand::Context& context,
                                                      const Program& parent, syntax::Stmt statement,
                                                      slots::NativeBuilder native);

}  // namespace polyrt
