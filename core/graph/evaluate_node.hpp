// Runs one call node's body: the single path every host-side evaluation takes.
#pragma once

#include "graph/graph.hpp"

namespace polyrt::ir {

// Throws nodes::NodeFailure when the node fails. Side-channel nodes emit to `sink`.
inline void evaluate_node(const Node& n, const Value* const* inputs, Value* outputs,
                          const nodes::SideChannelSink& sink) {
  static const nodes::Prepared kNothing;
  nodes::Call call(inputs, n.inputs.size(), n.params, n.prepared ? n.prepared.get() : &kNothing,
                   outputs, n.out_types.size());
  if (n.def->emit) {
    n.def->emit(call, sink);
  } else {
    n.def->eval(call);
  }
}

}  // namespace polyrt::ir
