#include "graph/vector_dimensions.hpp"

#include "value/vector_values.hpp"

namespace polyrt::ir {

std::vector<std::optional<uint64_t>> vector_dimensions(const Graph& g) {
  std::vector<std::optional<uint64_t>> dims(g.nodes.size());
  // The dimension a node's input wire carries (first outputs only).
  const auto of_input = [&](const Node& n, size_t k) -> std::optional<uint64_t> {
    if (k >= n.inputs.size() || n.inputs[k].port != 0) return std::nullopt;
    return dims[n.inputs[k].node];
  };
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.out_types.empty() || !is_vector(n.out_types[0])) continue;
    if (n.kind == NodeKind::Constant) {
      const Value& v = n.constants[0];
      if (!v.is_none()) dims[i] = vector_size(n.out_types[0], v.as_vector());
      continue;
    }
    if (n.kind != NodeKind::Call) continue;  // an extern may be set to any length
    if (is_alias(n)) {
      dims[i] = of_input(n, 0);
      continue;
    }
    switch (n.def->vector_dimension) {
      case nodes::VectorDimension::Varies:
        break;
      case nodes::VectorDimension::OfFirstInput:
        dims[i] = of_input(n, 0);
        break;
      case nodes::VectorDimension::FirstParamValue:
        if (!n.params.empty()) dims[i] = n.params[0].as_u64();
        break;
      case nodes::VectorDimension::SecondInputValue: {
        if (n.inputs.size() < 2) break;
        const Node& source = g.nodes[n.inputs[1].node];
        if (source.kind == NodeKind::Constant) {
          const Value& v = source.constants[n.inputs[1].port];
          if (!v.is_none()) dims[i] = v.as_u64();
        }
        break;
      }
    }
  }
  return dims;
}

}  // namespace polyrt::ir
