// The checker: resolves names, checks types and arity, lowers operators and
// sugar to registry nodes, and builds the graph (before the passes run).
#pragma once

#include "dsl/ast.hpp"
#include "dsl/sources.hpp"
#include "graph/graph.hpp"

namespace polyrt::ir {

// `ast` has its module calls inlined (dsl::inline_modules). Throws
// CompileError pointing at the offending source.
// `seed` re-keys the hashed inputs (CompileOptions::seed).
Graph lower(const dsl::Sources& sources, const dsl::Ast& ast, std::optional<uint64_t> seed,
            bool strict_inputs);

}  // namespace polyrt::ir
