// Walks over a syntax tree's expressions, the one loop the passes share:
// an explicit stack (a left spine may be as long as the file), each node
// before its arguments, in source order (depth first, arguments first to
// last). A visit may rewrite the
// node it is given (Halide's IRMutator: the walk goes on by default); it
// returns whether to go on into the node's arguments as they are after it.
#pragma once

#include <functional>

#include "syntax/ast.hpp"

namespace polyrt::syntax {

// Every expression of `root`.
void walk(const Expr& root, const std::function<void(const Expr&)>& visit);
void walk(Expr& root, const std::function<void(Expr&)>& visit);

// Every expression's owning pointer, so that a visit may replace the node;
// `visit` returns whether to go into the (new) node's arguments.
void walk_slots(ExprPtr& root, const std::function<bool(ExprPtr&)>& visit);

}  // namespace polyrt::syntax
