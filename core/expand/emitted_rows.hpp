// polydat's emit_row: `NAME := emit_row(format, names, values...)` is the
// number of values (its registry node), and the row it renders becomes the
// program's str output `NAME.row`, added here as a binding of its own
// right after NAME (nodes/nodes_emit.cpp renders it). Nothing renders the
// row unless that output is read.
#pragma once

#include "syntax/ast.hpp"

namespace polyrt::expand {

// Adds NAME.row after each emit_row binding of the program and its
// traversal bodies.
void add_emitted_rows(syntax::Ast& ast);

}  // namespace polyrt::expand
