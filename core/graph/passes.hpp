// Compiler passes over a lowered graph: lifecycle classification, constant
// folding, dead-code elimination, provenance and cones.
#pragma once

#include <string>
#include <vector>

#include "dsl/source.hpp"
#include "graph/graph.hpp"

namespace polyrt::ir {

// Runs every pass in order. `required_outputs` (when non-empty) restricts the
// outputs before dead-code elimination. Throws CompileError (a const reading a
// coordinate, an unknown required output) and ConstantFoldError.
void run_passes(Graph& graph, const dsl::SourceText& source,
                const std::vector<std::string>& required_outputs);

}  // namespace polyrt::ir
