// The one builder of node-failure messages, shared by constant folding and
// every engine, so the same failure reads the same everywhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace polyrt::ir {

// `coordinates` is null while folding constants (there are none yet).
std::string failure_message(const Graph& graph, uint32_t node, const std::string& reason,
                            const std::vector<const Value*>& inputs,
                            const std::vector<uint64_t>* coordinates);

}  // namespace polyrt::ir
