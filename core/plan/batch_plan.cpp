#include "plan/batch_plan.hpp"

#include <algorithm>

#include "graph/evaluate_node.hpp"
#include "graph/passes.hpp"
#include "plan/native_limits.hpp"
#include "polyrt/error.hpp"

namespace polyrt::plan {

namespace {

Value placeholder(Type type) {
  if (type == Type::Json) return Value::json("null");
  return is_text(type) ? Value::of_text(type, "") : Value::of_word(type, 0);
}

// Which outputs of a None-aware node are None when the given inputs are. The
// registry's None-aware nodes decide that from which inputs are None, never
// from values, so one probe with placeholder values answers for every lane
// (the batch runner checks it on every lane all the same). A probe that
// fails means the node fails on every lane: its outputs are not None.
std::vector<uint8_t> probe_none(const ir::Node& n, const std::vector<uint8_t>& input_none,
                                const ir::Graph& g) {
  std::vector<Value> in(n.inputs.size());
  std::vector<const Value*> ptrs;
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    const ir::Wire w = n.inputs[k];
    if (!input_none[k]) in[k] = placeholder(g.nodes[w.node].out_types[w.port]);
    ptrs.push_back(&in[k]);
  }
  std::vector<Value> out(n.out_types.size());
  std::vector<uint8_t> none(n.out_types.size(), 0);
  if (ir::run_node(n, ptrs.data(), out.data(), ir::discarded_side_channel())) return none;
  for (size_t k = 0; k < out.size(); ++k) none[k] = out[k].is_none();
  return none;
}

}  // namespace

BatchPlan plan_batch(const ir::Graph& g, const BatchShape& shape) {
  BatchPlan p;
  const size_t n = g.nodes.size();
  p.port_base = g.port_base;
  p.values.assign(g.port_base.back(), BatchValue{});
  p.source_port.resize(g.port_base.back());
  for (uint32_t port = 0; port < p.source_port.size(); ++port) p.source_port[port] = port;
  p.coordinate_columns.assign(g.coordinates.size(), ~0u);

  std::vector<uint32_t> roots;
  for (uint32_t o : shape.outputs) roots.push_back(g.outputs[o].wire.node);
  const std::vector<uint8_t> needed = ir::cone_mask(g, roots, true);

  auto set_all = [&](uint32_t node, BatchValue v) {
    for (size_t k = 0; k < g.nodes[node].out_types.size(); ++k) p.values[p.port_base[node] + k] = v;
  };
  auto make_scalar = [&](uint32_t node) {
    p.scalar_nodes.push_back(node);
    for (size_t k = 0; k < g.nodes[node].out_types.size(); ++k) {
      p.values[p.port_base[node] + k] = {BatchValue::Scalar, (uint32_t)p.scalar_ports.size()};
      p.scalar_ports.push_back(p.port_base[node] + (uint32_t)k);
    }
  };
  auto new_column = [&](Type type) {
    p.column_types.push_back(type);
    return (uint32_t)p.column_types.size() - 1;
  };

  // None-ness when a state is created (externs at their defaults): what
  // `const` bindings see. One pass in topological order (a recursive walk
  // from each const would be as deep as the program).
  std::vector<uint8_t> default_none(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    const ir::Node& node = g.nodes[i];
    if (node.kind == ir::NodeKind::Extern) {
      default_none[i] = shape.extern_default_is_none[node.slot];
      continue;
    }
    if (node.kind != ir::NodeKind::Call) continue;
    std::vector<uint8_t> input_none;
    for (const ir::Wire& w : node.inputs) input_none.push_back(default_none[w.node]);
    if (std::find(input_none.begin(), input_none.end(), 1) == input_none.end()) continue;
    const std::vector<uint8_t> probed =
        node.def->accepts_none ? probe_none(node, input_none, g) : std::vector<uint8_t>{1};
    default_none[i] = std::all_of(probed.begin(), probed.end(), [](uint8_t b) { return b != 0; });
  }

  // Past the native size limit every node is a host step (no kernel to compile).
  size_t native_needed = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const ir::Node& node = g.nodes[i];
    native_needed += needed[i] && node.kind == ir::NodeKind::Call && node.def->native;
  }
  const bool kernels_allowed = native_needed <= kMaxNativeNodes;

  // Stages: kernel s runs, then the host nodes of stage s; a native node fed by
  // a host node of stage s belongs to kernel s + 1.
  std::vector<int> stage(n, -1);
  std::vector<uint8_t> is_host(n, 0);
  std::vector<uint32_t> varying;
  for (uint32_t i = 0; i < n; ++i) {
    if (!needed[i]) continue;
    const ir::Node& node = g.nodes[i];
    switch (node.kind) {
      case ir::NodeKind::Coordinate:
        switch (shape.coordinates[node.slot]) {
          case CoordinateSource::Lane:
            set_all(i, {BatchValue::Lane, 0});
            stage[i] = 0;
            break;
          case CoordinateSource::Column:
            p.coordinate_columns[node.slot] = new_column(Type::U64);
            set_all(i, {BatchValue::Column, p.coordinate_columns[node.slot]});
            stage[i] = 0;
            break;
          case CoordinateSource::Scalar:
            make_scalar(i);
            break;
        }
        continue;
      case ir::NodeKind::Extern:
        if (!shape.extern_is_none[node.slot]) make_scalar(i);
        continue;
      case ir::NodeKind::Constant:
        make_scalar(i);
        continue;
      case ir::NodeKind::Call:
        break;
    }
    if (node.lifecycle == ir::Lifecycle::SideChannel) {
      throw RefusedError("the batch tier does not run side-channel node '" + node.label +
                         "' (binding '" + node.binding +
                         "'): its lines would have no order across lanes; use a per-state "
                         "engine (--engine native)");
    }
    if (ir::is_frozen_const(node)) {
      if (!default_none[i]) make_scalar(i);
      continue;
    }
    if (ir::is_alias(node)) {
      // Its consumers read the aliased port (it has one output, port 0).
      const uint32_t source = p.source_of(node.inputs[0]);
      p.source_port[p.port_base[i]] = source;
      stage[i] = stage[node.inputs[0].node];
      is_host[i] = is_host[node.inputs[0].node];
      continue;
    }
    std::vector<uint8_t> input_none;
    bool any_none = false, any_varying = false;
    for (const ir::Wire& w : node.inputs) {
      const BatchValue& v = p.value_of(w);
      input_none.push_back(v.kind == BatchValue::None);
      any_none = any_none || v.kind == BatchValue::None;
      any_varying = any_varying || v.kind == BatchValue::Lane || v.kind == BatchValue::Column ||
                    v.kind == BatchValue::Register;
    }
    if (any_none && !node.def->accepts_none) continue;  // None without running
    if (any_none) {
      const std::vector<uint8_t> none = probe_none(node, input_none, g);
      if (std::all_of(none.begin(), none.end(), [](uint8_t b) { return b != 0; })) continue;
    }
    if (!any_varying && node.lifecycle != ir::Lifecycle::Volatile) {
      make_scalar(i);
      continue;
    }
    const bool native = kernels_allowed && node.def->native &&
                        node.lifecycle != ir::Lifecycle::Volatile && !any_none;
    int s = 0;
    for (const ir::Wire& w : node.inputs) {
      if (stage[w.node] < 0) continue;  // scalar
      s = std::max(s, stage[w.node] + (native && is_host[w.node] ? 1 : 0));
    }
    stage[i] = s;
    is_host[i] = !native;
    set_all(i, {BatchValue::Register, 0});
    varying.push_back(i);
  }

  // A stage's native nodes form one kernel, cut every kMaxFusedNodes nodes
  // (in topological order, so a piece reads only earlier pieces).
  int stages = 0;
  for (uint32_t i : varying) stages = std::max(stages, stage[i] + 1);
  std::vector<uint32_t> native_in_stage(stages, 0);
  std::vector<uint32_t> piece(n, 0);
  for (uint32_t i : varying) {
    if (!is_host[i]) piece[i] = (uint32_t)(native_in_stage[stage[i]]++ / kMaxFusedNodes);
  }

  // Ports read outside their step, or requested, get columns.
  auto same_step = [&](uint32_t producer, uint32_t consumer) {
    return !is_host[producer] && !is_host[consumer] && stage[producer] == stage[consumer] &&
           piece[producer] == piece[consumer];
  };
  // The node owning a port (aliases resolved: the port that computes it).
  std::vector<uint32_t> port_node(p.values.size());
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t k = p.port_base[i]; k < p.port_base[i + 1]; ++k) port_node[k] = i;
  }
  auto to_column = [&](ir::Wire w) {
    const uint32_t port = p.source_of(w);
    BatchValue& v = p.values[port];
    if (v.kind == BatchValue::Register) {
      v = {BatchValue::Column,
           new_column(g.nodes[port_node[port]].out_types[port - p.port_base[port_node[port]]])};
    }
  };
  for (uint32_t i : varying) {
    for (const ir::Wire& w : g.nodes[i].inputs) {
      if (p.value_of(w).kind == BatchValue::Register && !same_step(port_node[p.source_of(w)], i)) {
        to_column(w);
      }
    }
  }
  for (uint32_t o : shape.outputs) {
    to_column(g.outputs[o].wire);
    p.outputs.push_back(p.value_of(g.outputs[o].wire));
  }
  // What an alias carries, for whoever reads `values` directly.
  for (uint32_t port = 0; port < p.values.size(); ++port)
    p.values[port] = p.values[p.source_port[port]];

  // Steps: per stage its kernels, then its host nodes.
  std::vector<std::vector<uint32_t>> by_stage(stages);
  for (uint32_t i : varying) by_stage[stage[i]].push_back(i);
  for (const std::vector<uint32_t>& members : by_stage) {
    for (uint32_t i : members) {
      if (is_host[i]) continue;
      if (p.steps.empty() || p.steps.back().kind != BatchStep::Kernel ||
          stage[p.steps.back().nodes.front()] != stage[i] ||
          piece[p.steps.back().nodes.front()] != piece[i]) {
        p.steps.push_back({BatchStep::Kernel, {}, false});
      }
      BatchStep& kernel = p.steps.back();
      kernel.nodes.push_back(i);
      kernel.fallible = kernel.fallible || g.nodes[i].def->native->fallible;
    }
    for (uint32_t i : members) {
      if (is_host[i]) p.steps.push_back({BatchStep::Host, {i}, false});
    }
  }
  p.column_steps.assign(p.column_types.size(), kNoStep);
  for (uint32_t s = 0; s < p.steps.size(); ++s) {
    for (uint32_t node : p.steps[s].nodes) {
      for (uint32_t port = p.port_base[node]; port < p.port_base[node + 1]; ++port) {
        if (p.values[port].kind == BatchValue::Column) p.column_steps[p.values[port].index] = s;
      }
    }
  }
  return p;
}

std::string describe_batch_plan(const ir::Graph& g, const BatchPlan& plan,
                                PlanPlacement placement) {
  const bool gpu = placement == PlanPlacement::Gpu;
  // Per column: the binding that produces it.
  std::vector<std::string> column_name(plan.column_types.size(), "?");
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    for (size_t k = 0; k < g.nodes[i].out_types.size(); ++k) {
      const BatchValue& v = plan.values[plan.port_base[i] + k];
      const uint32_t port = plan.port_base[i] + (uint32_t)k;
      if (v.kind == BatchValue::Column && plan.source_port[port] == port) {
        column_name[v.index] = g.nodes[i].name;
      }
    }
  }
  auto on_gpu = [&](uint32_t column) {  // a caller's coordinate column starts on the host
    const uint32_t step = plan.column_steps[column];
    return step != kNoStep && plan.steps[step].kind == BatchStep::Kernel;
  };
  std::vector<uint8_t> copied(plan.column_types.size(), 0);  // already on the other side
  auto first_copy = [&](std::vector<uint32_t>& columns, uint32_t c) {
    if (!copied[c]) columns.push_back(c);
    copied[c] = 1;
  };
  auto names = [&](const std::vector<uint32_t>& columns) {
    std::string out;
    for (uint32_t c : columns) out += (out.empty() ? "" : ", ") + column_name[c];
    return out;
  };

  std::string out = "batch plan: " + std::to_string(plan.steps.size()) + " step(s), " +
                    std::to_string(plan.column_types.size()) + " column(s), " +
                    std::to_string(plan.scalar_ports.size()) + " scalar(s)" +
                    (gpu ? ", kernels on the GPU" : "") + "\n";
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const BatchStep& step = plan.steps[s];
    const bool kernel = step.kind == BatchStep::Kernel;
    if (gpu && !kernel) {
      std::vector<uint32_t> down;
      for (const ir::Wire& w : g.nodes[step.nodes[0]].inputs) {
        const BatchValue& v = plan.value_of(w);
        if (v.kind == BatchValue::Column && on_gpu(v.index)) first_copy(down, v.index);
      }
      if (!down.empty()) out += "  copy to the host: " + names(down) + "\n";
    }
    if (gpu && kernel) {
      std::vector<uint32_t> up;
      for (uint32_t node : step.nodes) {
        for (const ir::Wire& w : g.nodes[node].inputs) {
          const BatchValue& v = plan.value_of(w);
          if (v.kind == BatchValue::Column && !on_gpu(v.index)) first_copy(up, v.index);
        }
      }
      if (!up.empty()) out += "  copy to the GPU: " + names(up) + "\n";
    }
    out += "step " + std::to_string(s) + ": " +
           (kernel ? (gpu ? "GPU kernel [" : "native kernel [")
                   : (gpu ? "host, on a CPU worker [" : "host ["));
    for (size_t k = 0; k < step.nodes.size(); ++k) {
      const ir::Node& n = g.nodes[step.nodes[k]];
      out += (k ? ", " : "") + n.label + " -> " + n.name;
    }
    out += "]\n";
  }
  if (gpu) {
    std::vector<uint32_t> down;
    for (const BatchValue& v : plan.outputs) {
      if (v.kind == BatchValue::Column && on_gpu(v.index)) first_copy(down, v.index);
    }
    if (!down.empty()) out += "  copy to the host: " + names(down) + "\n";
  }
  return out;
}

}  // namespace polyrt::plan
