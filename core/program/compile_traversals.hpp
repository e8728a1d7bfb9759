// The top-level traversals of a program, compiled after the program itself
// (the parent: its outputs type what the bodies read from it). Each body is
// a program of its own over the same source, so its diagnostics point at
// the body's lines: an implicit `input cycle`, one extern per comprehension
// element (typed by its source) and one per parent value the body reads
// (the cascade), the parent's pragmas and modules, then the body.
#pragma once

#include <memory>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/sources.hpp"
#include "modules/module_library.hpp"
#include "program/traversal_def.hpp"

namespace polyrt {

// Moves the traversal statements out of `ast` (the parent compiles without
// them) and returns them in source order.
std::vector<dsl::Stmt> take_traversals(dsl::Ast& ast);

// Compiles traversal `index` of `parsed` (the program as parsed, traversals
// included), `statement` (as take_traversals gave it, its body's cursor
// bounds resolved: program/cursor_bounds.hpp), against the compiled parent.
// Throws CompileError.
std::shared_ptr<const TraversalDef> compile_traversal(const dsl::Ast& parsed, dsl::Sources& sources,
                                                      modules::ModuleLibrary& library,
                                                      const Program& parent, size_t index,
                                                      dsl::Stmt statement,
                                                      slots::NativeBuilder native);

}  // namespace polyrt
