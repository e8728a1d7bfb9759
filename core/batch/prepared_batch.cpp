#include "batch/prepared_batch.hpp"

#include <algorithm>

#include "graph/evaluate_node.hpp"
#include "graph/passes.hpp"
#include "program/program_internals.hpp"

namespace polyrt::batch {

using plan::BatchValue;

namespace {

// Evaluates a call node once on the host, as the interpreter does. False when
// the node fails (a failing scalar fails every row; the interpreter names it).
template <typename Input>
bool evaluate_once(const ir::Node& n, const Input& input, Value* out) {
  std::vector<Value> in;
  for (const ir::Wire& w : n.inputs) in.push_back(input(w));
  std::vector<const Value*> ptrs;
  for (const Value& v : in) ptrs.push_back(&v);
  return !ir::run_node(n, ptrs.data(), out, ir::discarded_side_channel());
}

// What a new state computes for the `const` bindings among the scalar nodes:
// their cones from the externs' defaults, per port.
std::vector<Value> frozen_const_values(const ir::Graph& g, const plan::BatchPlan& p, bool& failed) {
  std::vector<Value> values(p.values.size());
  std::vector<uint32_t> consts;
  for (uint32_t node : p.scalar_nodes) {
    if (ir::is_frozen_const(g.nodes[node])) consts.push_back(node);
  }
  if (consts.empty()) return values;
  const std::vector<uint8_t> wanted = ir::cone_mask(g, consts, true);
  const auto input = [&](ir::Wire w) { return values[p.port_base[w.node] + w.port]; };
  for (uint32_t i = 0; i < g.nodes.size() && !failed; ++i) {
    if (!wanted[i]) continue;
    const ir::Node& n = g.nodes[i];
    Value* out = &values[p.port_base[i]];
    if (n.kind == ir::NodeKind::Extern) {
      out[0] = g.externs[n.slot].default_value;
    } else if (n.kind == ir::NodeKind::Constant) {
      std::copy(n.constants.begin(), n.constants.end(), out);
    } else if (n.kind == ir::NodeKind::Call) {
      failed = !evaluate_once(n, input, out);
    }
  }
  return values;
}

}  // namespace

PreparedBatch prepare_batch(std::shared_ptr<const Program> program, const plan::BatchShape& shape,
                            std::span<const uint64_t> coordinates, std::span<const Value> externs) {
  PreparedBatch b;
  b.program = std::move(program);
  const ir::Graph& g = ProgramInternals::graph(*b.program);
  b.plan = plan::plan_batch(g, shape);
  const plan::BatchPlan& p = b.plan;
  b.scalars.resize(p.scalar_ports.size());
  const std::vector<Value> frozen = frozen_const_values(g, p, b.scalars_failed);
  std::vector<Value> node_out;
  for (uint32_t node : p.scalar_nodes) {
    if (b.scalars_failed) break;
    const ir::Node& n = g.nodes[node];
    const uint32_t first_scalar = p.values[p.port_base[node]].index;
    node_out.assign(n.out_types.size(), Value::none());
    if (ir::is_frozen_const(n)) {
      std::copy_n(&frozen[p.port_base[node]], node_out.size(), &b.scalars[first_scalar]);
      continue;
    }
    switch (n.kind) {
      case ir::NodeKind::Coordinate:
        node_out[0] = Value::u64(coordinates[n.slot]);
        break;
      case ir::NodeKind::Extern:
        node_out[0] = externs[n.slot];
        break;
      case ir::NodeKind::Constant:
        node_out = n.constants;
        break;
      case ir::NodeKind::Call: {
        const auto input = [&](ir::Wire w) {
          const BatchValue& v = p.value_of(w);
          return v.kind == BatchValue::Scalar ? b.scalars[v.index] : Value::none();
        };
        b.scalars_failed = !evaluate_once(n, input, node_out.data());
        break;
      }
    }
    std::copy(node_out.begin(), node_out.end(), &b.scalars[first_scalar]);
  }
  for (const Value& v : b.scalars) b.scalar_words.push_back(v.is_none() ? 0 : word_of(v));
  return b;
}

}  // namespace polyrt::batch
