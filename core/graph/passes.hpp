// Compiler passes over a lowered graph: lifecycle classification, constant
// folding, dead-code elimination, provenance and cones.
#pragma once

#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "syntax/sources.hpp"

namespace polyrt::ir {

// Runs every pass in order. `required_outputs` (when non-empty) restricts the
// outputs before dead-code elimination. Throws CompileError (a const reading a
// coordinate, an unknown required output) and ConstantFoldError.
void run_passes(Graph& graph, const syntax::Sources& source,
                const std::vector<std::string>& required_outputs);

// Call nodes (not folded) that `roots` need, in topological order. Linear in
// the graph: for one output's cone on demand, never for every output.
// enter_consts = false stops at frozen consts, whose value never changes
// after a state's init.
std::vector<uint32_t> cone_of(const Graph& graph, const std::vector<uint32_t>& roots,
                              bool enter_consts);

// Per node, whether `roots` need it (every kind: coordinates, externs,
// constants and calls); what cone_of lists the calls of.
std::vector<uint8_t> cone_mask(const Graph& graph, const std::vector<uint32_t>& roots,
                               bool enter_consts);

}  // namespace polyrt::ir
