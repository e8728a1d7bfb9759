// The checker: resolves names, checks types and arity, lowers operators and
// sugar to registry nodes, and builds the graph (before the passes run).
#pragma once

#include "graph/graph.hpp"
#include "polyrt/polyrt.hpp"
#include "syntax/ast.hpp"
#include "syntax/sources.hpp"

namespace polyrt::ir {

// `ast` has its module calls inlined (syntax::inline_modules). Throws
// CompileError pointing at the offending source.
// The options' seed re-keys the hashed inputs; strict_inputs refuses
// inferred inputs; params give externs their values (CompileOptions).
Graph lower(const syntax::Sources& sources, const syntax::Ast& ast, const CompileOptions& options);

}  // namespace polyrt::ir
