// Runs one call node on host Values: the single path every host-side
// evaluation takes (the interpreter, the slot engines' host steps and failure
// messages, the batch tier's host steps and scalars, None probes).
#pragma once

#include <optional>
#include <string>

#include "graph/graph.hpp"

namespace polyrt::ir {

// A sink for the side-channel text of evaluations that must not emit it
// (batch host steps, probes).
inline const nodes::SideChannelSink& discarded_side_channel() {
  static const nodes::SideChannelSink sink = [](std::string_view) {};
  return sink;
}

// Runs the node as every engine does: when an input is None and the node is
// not None-aware, every output is None and the body does not run; otherwise
// its registry body runs (side-channel nodes emit to `sink`). Returns the
// failure's message when the node fails (nothing is thrown), nullopt when it
// produced its outputs.
inline std::optional<std::string> run_node(const Node& n, const Value* const* inputs,
                                           Value* outputs, const nodes::SideChannelSink& sink) {
  if (!n.def->accepts_none) {
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      if (!inputs[k]->is_none()) continue;
      for (size_t p = 0; p < n.out_types.size(); ++p) outputs[p] = Value::none();
      return std::nullopt;
    }
  }
  nodes::Call call(inputs, n.inputs.size(), n.params, &prepared_of(n), outputs, n.out_types.size());
  try {
    if (n.def->emit) {
      n.def->emit(call, sink);
    } else {
      n.def->eval(call);
    }
  } catch (const nodes::NodeFailure& f) {
    return f.message;
  }
  // A body that passes an input through (required, default_or, ...) keeps
  // that input's type; the output has the node's type, as the word engines
  // read it (a u8 passed to a u64 port comes out a u64).
  for (size_t p = 0; p < n.out_types.size(); ++p) {
    Value& v = outputs[p];
    if (v.is_none() || v.type() == n.out_types[p]) continue;
    if (is_payload(n.out_types[p])) {
      v = Value::of_payload(n.out_types[p], v.text());
      continue;
    }
    v = Value::of_word(n.out_types[p], word_of(v));
  }
  return std::nullopt;
}

}  // namespace polyrt::ir
