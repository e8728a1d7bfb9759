// Runs one node's registry body on host Values: the single path every
// host-side evaluation takes, from a graph node (ir::run_node) or from a
// compile-time call (nodes::call_node).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "nodes/registry.hpp"

namespace polyrt::nodes {

// A sink for the side-channel text of evaluations that must not emit it
// (batch host steps, probes, compile-time calls).
inline const SideChannelSink& discarded_side_channel() {
  static const SideChannelSink sink = [](std::string_view) {};
  return sink;
}

// Runs `def` as every engine does: when an input is None and the node is not
// None-aware, every output is None and the body does not run; otherwise its
// body runs (side-channel nodes emit to `sink`). Returns the failure's
// message when the node fails (nothing is thrown), nullopt when it produced
// its outputs.
inline std::optional<std::string> run_call(const NodeDef& def, const Value* const* inputs,
                                           size_t input_count, const std::vector<Value>& params,
                                           const Prepared& prepared,
                                           std::span<const Type> out_types, Value* outputs,
                                           const SideChannelSink& sink) {
  if (!def.accepts_none) {
    for (size_t k = 0; k < input_count; ++k) {
      if (!inputs[k]->is_none()) continue;
      for (size_t p = 0; p < out_types.size(); ++p) outputs[p] = Value::none();
      return std::nullopt;
    }
  }
  Call call(inputs, input_count, params, &prepared, outputs, out_types.size());
  try {
    if (def.emit) {
      def.emit(call, sink);
    } else {
      def.eval(call);
    }
  } catch (const NodeFailure& f) {
    return f.message;
  }
  // A body that passes an input through (required, default_or, ...) keeps
  // that input's type; the output has the node's type, as the word engines
  // read it (a u8 passed to a u64 port comes out a u64).
  for (size_t p = 0; p < out_types.size(); ++p) {
    Value& v = outputs[p];
    if (v.is_none() || v.type() == out_types[p]) continue;
    if (is_payload(out_types[p])) {
      v = Value::of_payload(out_types[p], v.text());
      continue;
    }
    v = Value::of_word(out_types[p], word_of(v));
  }
  return std::nullopt;
}

}  // namespace polyrt::nodes
