// The checker: resolves names, checks types and arity, lowers operators and
// sugar to registry nodes, and builds the graph (before the passes run).
#pragma once

#include "dsl/ast.hpp"
#include "graph/graph.hpp"

namespace polyrt::ir {

// Throws CompileError pointing at the offending source.
Graph lower(const dsl::SourceText& source, const dsl::Ast& ast);

}  // namespace polyrt::ir
