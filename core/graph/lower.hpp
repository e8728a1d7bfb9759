// The checker: resolves names, checks types and arity, lowers operators and
// sugar to registry nodes, and builds the graph (before the passes run).
#pragma once

#include "dsl/ast.hpp"
#include "dsl/sources.hpp"
#include "graph/graph.hpp"
#include "polyrt/polyrt.hpp"

namespace polyrt::ir {

// `ast` has its module calls inlined (dsl::inline_modules). Throws
// CompileError pointing at the offending source.
// The options' seed re-keys the hashed inputs; strict_inputs refuses
// inferred inputs; params give externs their values (CompileOptions).
Graph lower(const dsl::Sources& sources, const dsl::Ast& ast, const CompileOptions& options);

}  // namespace polyrt::ir
