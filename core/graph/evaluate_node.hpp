// Runs one graph call node on host Values (nodes::run_call with the node's
// constants and preparation): what the interpreter, the slot engines' host
// steps and failure messages, the batch tier's host steps and scalars, and
// None probes run.
#pragma once

#include <optional>
#include <string>

#include "graph/graph.hpp"
#include "nodes/run_call.hpp"

namespace polyrt::ir {

using nodes::discarded_side_channel;

inline std::optional<std::string> run_node(const Node& n, const Value* const* inputs,
                                           Value* outputs, const nodes::SideChannelSink& sink) {
  return nodes::run_call(*n.def, inputs, n.inputs.size(), n.params, prepared_of(n), n.out_types,
                         outputs, sink);
}

}  // namespace polyrt::ir
