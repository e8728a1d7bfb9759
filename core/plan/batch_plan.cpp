#include "plan/batch_plan.hpp"

#include <algorithm>

#include "graph/evaluate_node.hpp"
#include "graph/passes.hpp"
#include "graph/vector_dimensions.hpp"
#include "plan/native_limits.hpp"
#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/string_ops.hpp"
#include "rtlib/text.hpp"

namespace polyrt::plan {

namespace {

Value placeholder(Type type) {
  if (type == Type::Json) return Value::json("null");
  return is_payload(type) ? Value::of_payload(type, "") : Value::of_word(type, 0);
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

bool all_set(const std::vector<uint8_t>& bits) {
  return std::all_of(bits.begin(), bits.end(), [](uint8_t b) { return b != 0; });
}

// plan_batch's phases over shared state: where each needed node's value
// lives (scalar, lane, column or register), which stage and kernel computes
// it, which ports need columns, and the steps in order.
class BatchPlanner {
 public:
  BatchPlanner(const ir::Graph& g, const BatchShape& shape)
      : g_(g),
        shape_(shape),
        n_(g.nodes.size()),
        stage_(n_, -1),
        is_host_(n_, 0),
        piece_(n_, 0),
        text_bound_(n_, 0),
        why_host_(n_),
        dims_(ir::vector_dimensions(g)) {
    p_.placement = shape.placement;
    p_.port_base = g.port_base;
    p_.values.assign(g.port_base.back(), BatchValue{});
    p_.source_port.resize(g.port_base.back());
    for (uint32_t port = 0; port < p_.source_port.size(); ++port) p_.source_port[port] = port;
    p_.coordinate_columns.assign(g.coordinates.size(), ~0u);
    std::vector<uint32_t> roots;
    for (uint32_t o : shape.outputs) roots.push_back(g.outputs[o].wire.node);
    needed_ = ir::cone_mask(g, roots, true);
  }

  BatchPlan run() {
    find_default_none();
    allow_kernels();
    for (uint32_t i = 0; i < n_; ++i) {
      if (needed_[i]) place(i);
    }
    cut_kernels();
    assign_columns();
    emit_steps();
    if (p_.placement == PlanPlacement::Gpu) p_.why_rows_on_host = why_rows_on_host();
    return std::move(p_);
  }

 private:
  void set_all(uint32_t node, BatchValue v) {
    for (size_t k = 0; k < g_.nodes[node].out_types.size(); ++k) {
      p_.values[p_.port_base[node] + k] = v;
    }
  }
  void make_scalar(uint32_t node) {
    p_.scalar_nodes.push_back(node);
    for (size_t k = 0; k < g_.nodes[node].out_types.size(); ++k) {
      p_.values[p_.port_base[node] + k] = {BatchValue::Scalar, (uint32_t)p_.scalar_ports.size()};
      p_.scalar_ports.push_back(p_.port_base[node] + (uint32_t)k);
    }
  }
  uint32_t new_column(Type type) {
    p_.column_types.push_back(type);
    return (uint32_t)p_.column_types.size() - 1;
  }

  // None-ness when a state is created (externs at their defaults): what
  // `const` bindings see. One pass in topological order (a recursive walk
  // from each const would be as deep as the program).
  void find_default_none() {
    default_none_.assign(n_, 0);
    for (uint32_t i = 0; i < n_; ++i) {
      const ir::Node& node = g_.nodes[i];
      if (node.kind == ir::NodeKind::Extern) {
        default_none_[i] = shape_.extern_default_is_none[node.slot];
        continue;
      }
      if (node.kind != ir::NodeKind::Call) continue;
      std::vector<uint8_t> input_none;
      for (const ir::Wire& w : node.inputs) input_none.push_back(default_none_[w.node]);
      if (std::find(input_none.begin(), input_none.end(), 1) == input_none.end()) continue;
      default_none_[i] = all_set(node.def->accepts_none ? probe_none(node, input_none, g_)
                                                        : std::vector<uint8_t>{1});
    }
  }

  // Past the native size limit every node is a host step (no kernel to compile).
  void allow_kernels() {
    size_t native_needed = 0;
    for (uint32_t i = 0; i < n_; ++i) {
      const ir::Node& node = g_.nodes[i];
      native_needed += needed_[i] && node.kind == ir::NodeKind::Call && node.def->native;
    }
    kernels_allowed_ = native_needed <= kMaxNativeNodes;
  }

  void place(uint32_t i) {
    const ir::Node& node = g_.nodes[i];
    switch (node.kind) {
      case ir::NodeKind::Coordinate:
        return place_coordinate(i);
      case ir::NodeKind::Extern:
        if (!shape_.extern_is_none[node.slot]) make_scalar(i);
        return;
      case ir::NodeKind::Constant:
        return make_scalar(i);
      case ir::NodeKind::Call:
        return place_call(i);
    }
  }

  void place_coordinate(uint32_t i) {
    const uint32_t slot = g_.nodes[i].slot;
    switch (shape_.coordinates[slot]) {
      case CoordinateSource::Lane:
        set_all(i, {BatchValue::Lane, 0});
        stage_[i] = 0;
        break;
      case CoordinateSource::Column:
        p_.coordinate_columns[slot] = new_column(Type::U64);
        set_all(i, {BatchValue::Column, p_.coordinate_columns[slot]});
        stage_[i] = 0;
        break;
      case CoordinateSource::Scalar:
        make_scalar(i);
        break;
    }
  }

  // Stages: kernel s runs, then the host nodes of stage s; a native node fed
  // by a host node of stage s belongs to kernel s + 1.
  void place_call(uint32_t i) {
    const ir::Node& node = g_.nodes[i];
    if (node.lifecycle == ir::Lifecycle::SideChannel) {
      throw RefusedError("the batch tier does not run side-channel node '" + node.label +
                         "' (binding '" + node.binding +
                         "'): its lines would have no order across lanes; use a per-state "
                         "engine (--engine native; Engine::Native, Python engine=\"native\")");
    }
    if (!node.def->batch_refusal.empty()) {
      throw RefusedError("the batch tier does not run '" + node.label + "' (binding '" +
                         node.binding + "'): " + std::string(node.def->batch_refusal) +
                         "; use a per-state engine (--engine native; Engine::Native, Python "
                         "engine=\"native\")");
    }
    if (ir::is_frozen_const(node)) {
      if (!default_none_[i]) make_scalar(i);
      return;
    }
    if (ir::is_alias(node)) {
      // Its consumers read the aliased port (it has one output, port 0).
      p_.source_port[p_.port_base[i]] = p_.source_of(node.inputs[0]);
      stage_[i] = stage_[node.inputs[0].node];
      is_host_[i] = is_host_[node.inputs[0].node];
      text_bound_[i] = text_bound_[node.inputs[0].node];
      return;
    }
    std::vector<uint8_t> input_none;
    bool any_varying = false;
    for (const ir::Wire& w : node.inputs) {
      const BatchValue& v = p_.value_of(w);
      input_none.push_back(v.kind == BatchValue::None);
      any_varying = any_varying || v.kind == BatchValue::Lane || v.kind == BatchValue::Column ||
                    v.kind == BatchValue::Register;
    }
    const bool any_none = std::find(input_none.begin(), input_none.end(), 1) != input_none.end();
    if (any_none && !node.def->accepts_none) return;  // None without running
    if (any_none && all_set(probe_none(node, input_none, g_))) return;
    if (!any_varying && node.lifecycle != ir::Lifecycle::Volatile) return make_scalar(i);
    const bool native = in_kernel(i, any_none);
    int s = 0;
    for (const ir::Wire& w : node.inputs) {
      if (stage_[w.node] < 0) continue;  // scalar
      s = std::max(s, stage_[w.node] + (native && is_host_[w.node] ? 1 : 0));
    }
    stage_[i] = s;
    is_host_[i] = !native;
    set_all(i, {BatchValue::Register, 0});
    varying_.push_back(i);
  }

  // Whether call i (whose inputs are placed) is a kernel member: a native
  // node, or on a GPU a device text (its bound kept); on a GPU a node that
  // is neither keeps why.
  bool in_kernel(uint32_t i, bool any_none) {
    const ir::Node& node = g_.nodes[i];
    const bool volatile_node = node.lifecycle == ir::Lifecycle::Volatile;
    const bool kernel_node = kernels_allowed_ && !volatile_node && !any_none;
    if (kernel_node && node.def->native) return true;
    if (shape_.placement != PlanPlacement::Gpu) return false;
    if (!kernel_node) {
      why_host_[i] = !kernels_allowed_ ? "the program is past the native size limit"
                     : volatile_node   ? "it is volatile"
                                       : "an input is None";
      return false;
    }
    text_bound_[i] = device_text_bound(i, why_host_[i]);
    return text_bound_[i] > 0;
  }

  // The bound of the text a GPU kernel can write for node i: its device
  // form's (at least 1, so that 0 means none), with every str input a
  // constant or a device-made text. Returns 0 and says why when it cannot.
  uint32_t device_text_bound(uint32_t i, std::string& why) const {
    const ir::Node& node = g_.nodes[i];
    if (!node.def->device_text) {
      why = node.out_types.size() == 1 && is_payload(node.out_types[0])
                ? "no GPU form of '" + std::string(node.def->name) + "'"
                : "'" + std::string(node.def->name) + "' has no native form on any tier";
      return 0;
    }
    const nodes::DeviceTextForm& form = *node.def->device_text;
    std::vector<size_t> input_bounds(node.inputs.size(), 0);
    const auto each_input = [&](const auto& bound_of) {
      for (size_t k = 0; k < node.inputs.size() && why.empty(); ++k) {
        input_bounds[k] = bound_of(node.inputs[k]);
      }
    };
    switch (form.kind) {
      case nodes::DeviceTextKind::Concat:
        each_input([&](ir::Wire w) { return display_bound(w, false, why); });
        break;
      case nodes::DeviceTextKind::Format:
        each_input([&](ir::Wire w) { return display_bound(w, true, why); });
        break;
      case nodes::DeviceTextKind::JsonObject:
      case nodes::DeviceTextKind::JsonArray:
        each_input([&](ir::Wire w) { return json_value_bound(w, why); });
        break;
      case nodes::DeviceTextKind::Call:
      case nodes::DeviceTextKind::Word:
        for (const nodes::DeviceTextArg a : form.args) {
          if (a.kind == nodes::DeviceTextArg::InputText && why.empty()) {
            input_bounds[a.index] = text_bound(node.inputs[a.index], why);
          }
        }
        break;
    }
    if (why.empty() && form.refused) why = form.refused(node.params, node.prepared.get());
    if (why.empty() && form.same_fixed_dimension) why = unequal_dimensions(node, form);
    if (!why.empty()) return 0;
    if (form.kind == nodes::DeviceTextKind::Word) return 1;  // a word: no text to bound
    const uint64_t bound = form.bound(node.params, node.prepared.get(), input_bounds);
    const bool vector = is_vector(node.out_types[0]);
    const uint32_t most = vector ? kMaxDeviceVectorBytes : kMaxDeviceTextBytes;
    if (bound > most) {
      why = std::string(vector ? "its vector takes " : "its text may take ") +
            std::to_string(bound) + " bytes, more than the " + std::to_string(most) +
            " a GPU kernel reserves per row";
      return 0;
    }
    return (uint32_t)std::max<uint64_t>(bound, 1);
  }

  // Why the vector inputs of a form that needs them of one fixed dimension
  // are not, or "".
  std::string unequal_dimensions(const ir::Node& node, const nodes::DeviceTextForm& form) const {
    std::optional<uint64_t> first;
    for (const nodes::DeviceTextArg a : form.args) {
      if (a.kind != nodes::DeviceTextArg::InputText) continue;
      const ir::Wire w = node.inputs[a.index];
      const std::optional<uint64_t> dim = w.port == 0 ? dims_[w.node] : std::nullopt;
      if (!dim) return "the dimension of its input '" + g_.nodes[w.node].label + "' varies";
      if (first && *first != *dim) {
        return "its inputs' dimensions differ (" + std::to_string(*first) + " and " +
               std::to_string(*dim) + ")";
      }
      first = dim;
    }
    return "";
  }

  // The most bytes of an input's text in a device concatenation (Display)
  // or format (`debug`: an f64 in Debug form), or `why` it has none a
  // kernel writes.
  uint64_t display_bound(ir::Wire w, bool debug, std::string& why) const {
    const Type t = g_.nodes[w.node].out_types[w.port];
    if (is_integer(t)) return 21;  // a sign and 20 digits
    if (t == Type::Bool) return 5;
    if (t == Type::F64) return debug ? rt::kF64DebugText : rt::kF64DisplayText;
    if (t == Type::F32) return debug ? rt::kF64DebugText : rt::kF32DisplayText;
    if (t == Type::Str || is_json_text(t)) return text_bound(w, why);  // the text itself
    why = std::string(type_name(t)) + " text is not written on the GPU";
    return 0;
  }

  // The most bytes of an input's JSON value in a device JSON object, or `why`
  // it has none a kernel writes.
  uint64_t json_value_bound(ir::Wire w, std::string& why) const {
    const Type t = g_.nodes[w.node].out_types[w.port];
    if (is_integer(t)) return 21;
    if (t == Type::Bool) return 5;
    if (is_float(t)) return rt::kF64DebugText;  // or null
    if (t == Type::Str) return 2 + rt::kJsonEscapedBytesPerByte * text_bound(w, why);
    if (t == Type::Bytes) return 2 + rt::encoded_group_chars(text_bound(w, why), 3, 4);
    why = "a JSON member of a " + std::string(type_name(t)) + " is not written on the GPU";
    return 0;
  }

  // The most bytes of a text input (str, bytes or json): a constant or a
  // device-made text; or `why` a kernel cannot read it.
  uint64_t text_bound(ir::Wire w, std::string& why) const {
    const Type t = g_.nodes[w.node].out_types[w.port];
    if (!is_payload(t)) {
      why = "its input is a " + std::string(type_name(t)) + ", which it reads on the host only";
      return 0;
    }
    const ir::Node& source = g_.nodes[p_.node_of(p_.source_of(w))];
    if (const Value* constant = constant_at(g_, p_, p_.source_of(w))) {
      return constant->text().size();
    }
    if (p_.value_of(w).kind != BatchValue::Scalar && text_bound_[w.node] > 0) {
      return text_bound_[w.node];
    }
    why = p_.value_of(w).kind == BatchValue::Scalar
              ? "it reads a " + std::string(type_name(t)) + " that is set per batch ('" +
                    source.binding + "')"
              : "it reads a " + std::string(type_name(t)) + " made on the host ('" + source.label +
                    "' of binding '" + source.binding + "')";
    return 0;
  }

  // A stage's native nodes form one kernel, cut every kMaxFusedNodes nodes
  // (in topological order, so a piece reads only earlier pieces).
  void cut_kernels() {
    for (uint32_t i : varying_) stages_ = std::max(stages_, stage_[i] + 1);
    std::vector<uint32_t> native_in_stage(stages_, 0);
    for (uint32_t i : varying_) {
      if (!is_host_[i]) piece_[i] = (uint32_t)(native_in_stage[stage_[i]]++ / kMaxFusedNodes);
    }
  }

  bool same_step(uint32_t producer, uint32_t consumer) const {
    return !is_host_[producer] && !is_host_[consumer] && stage_[producer] == stage_[consumer] &&
           piece_[producer] == piece_[consumer];
  }

  // Ports read outside their step, or requested, get columns.
  void assign_columns() {
    // The node owning a port (aliases resolved: the port that computes it).
    std::vector<uint32_t> port_node(p_.values.size());
    for (uint32_t i = 0; i < n_; ++i) {
      for (uint32_t k = p_.port_base[i]; k < p_.port_base[i + 1]; ++k) port_node[k] = i;
    }
    auto to_column = [&](ir::Wire w) {
      const uint32_t port = p_.source_of(w);
      BatchValue& v = p_.values[port];
      if (v.kind == BatchValue::Register) {
        const uint32_t node = port_node[port];
        v = {BatchValue::Column, new_column(g_.nodes[node].out_types[port - p_.port_base[node]])};
      }
    };
    for (uint32_t i : varying_) {
      for (const ir::Wire& w : g_.nodes[i].inputs) {
        if (p_.value_of(w).kind == BatchValue::Register &&
            !same_step(port_node[p_.source_of(w)], i)) {
          to_column(w);
        }
      }
    }
    // A device-made text always has its column: the slots it is written to.
    for (uint32_t i : varying_) {
      if (is_host_[i] || !is_payload(g_.nodes[i].out_types[0]) || ir::is_alias(g_.nodes[i]))
        continue;
      to_column({i, 0});
    }
    for (uint32_t o : shape_.outputs) {
      to_column(g_.outputs[o].wire);
      p_.outputs.push_back(p_.value_of(g_.outputs[o].wire));
    }
    // What an alias carries, for whoever reads `values` directly.
    for (uint32_t port = 0; port < p_.values.size(); ++port) {
      p_.values[port] = p_.values[p_.source_port[port]];
    }
    p_.text_bounds.assign(p_.column_types.size(), 0);
    for (uint32_t i : varying_) {
      const BatchValue& v = p_.values[p_.port_base[i]];
      if (!is_host_[i] && v.kind == BatchValue::Column && is_payload(p_.column_types[v.index])) {
        p_.text_bounds[v.index] = text_bound_[i];
      }
    }
  }

  // Steps: per stage its kernels, then its host nodes; and the step that
  // writes each column.
  void emit_steps() {
    std::vector<std::vector<uint32_t>> by_stage(stages_);
    for (uint32_t i : varying_) by_stage[stage_[i]].push_back(i);
    for (const std::vector<uint32_t>& members : by_stage) {
      for (uint32_t i : members) {
        if (!is_host_[i]) add_to_kernel(i);
      }
      for (uint32_t i : members) {
        if (is_host_[i]) p_.steps.push_back({BatchStep::Host, {i}, false, why_host_[i]});
      }
    }
    p_.column_steps.assign(p_.column_types.size(), kNoStep);
    for (uint32_t s = 0; s < p_.steps.size(); ++s) {
      for (uint32_t node : p_.steps[s].nodes) {
        for (uint32_t port = p_.port_base[node]; port < p_.port_base[node + 1]; ++port) {
          if (p_.values[port].kind == BatchValue::Column)
            p_.column_steps[p_.values[port].index] = s;
        }
      }
    }
  }

  // Why a GPU cannot encode the outputs' rows, or "" (BatchPlan::why_rows_on_host).
  std::string why_rows_on_host() const {
    for (size_t k = 0; k < p_.outputs.size(); ++k) {
      const BatchValue& v = p_.outputs[k];
      if (v.kind != BatchValue::Column) continue;  // None, a scalar or the lane
      const std::string output = "output '" + g_.outputs[shape_.outputs[k]].name + "'";
      const uint32_t step = p_.column_steps[v.index];
      if (step == kNoStep) return output + " is a caller's coordinate column";
      if (p_.steps[step].kind == BatchStep::Host) return output + " is made by a host step";
      const Type type = p_.column_types[v.index];
      if (is_payload(type) && !p_.text_bounds[v.index]) {
        return output + " is a " + std::string(type_name(type)) + " with no GPU form";
      }
      if (is_vector(type)) {
        return output + " is a " + std::string(type_name(type)) +
               ", whose text the GPU's row encoder does not write (its elements are made on "
               "the GPU and copied)";
      }
    }
    return "";
  }

  void add_to_kernel(uint32_t i) {
    if (p_.steps.empty() || p_.steps.back().kind != BatchStep::Kernel ||
        stage_[p_.steps.back().nodes.front()] != stage_[i] ||
        piece_[p_.steps.back().nodes.front()] != piece_[i]) {
      p_.steps.push_back({BatchStep::Kernel, {}, false});
    }
    BatchStep& kernel = p_.steps.back();
    kernel.nodes.push_back(i);
    const ir::Node& node = g_.nodes[i];
    kernel.fallible = kernel.fallible || (node.def->native && node.def->native->fallible);
  }

  const ir::Graph& g_;
  const BatchShape& shape_;
  const size_t n_;
  BatchPlan p_;
  std::vector<uint8_t> needed_, default_none_;
  bool kernels_allowed_ = true;
  std::vector<int> stage_;
  std::vector<uint8_t> is_host_;
  std::vector<uint32_t> piece_;
  std::vector<uint32_t> text_bound_;   // a device-made text's bound (PlanPlacement::Gpu)
  std::vector<std::string> why_host_;  // PlanPlacement::Gpu: why a node is a host step
  const std::vector<std::optional<uint64_t>> dims_;  // vector dimensions the program fixes
  std::vector<uint32_t> varying_;                    // the needed nodes computed per lane, in order
  int stages_ = 0;
};

}  // namespace

uint32_t BatchPlan::node_of(uint32_t port) const {
  return (uint32_t)(std::upper_bound(port_base.begin(), port_base.end(), port) - port_base.begin() -
                    1);
}

const Value* constant_at(const ir::Graph& g, const BatchPlan& plan, uint32_t port) {
  const uint32_t node = plan.node_of(port);
  const ir::Node& n = g.nodes[node];
  return n.kind == ir::NodeKind::Constant ? &n.constants[port - plan.port_base[node]] : nullptr;
}

BatchPlan plan_batch(const ir::Graph& g, const BatchShape& shape) {
  return BatchPlanner(g, shape).run();
}

BatchPlanView view_batch_plan(const ir::Graph& g, const BatchPlan& plan) {
  BatchPlanView view;
  view.gpu = plan.placement == PlanPlacement::Gpu;
  view.columns = plan.column_types.size();
  view.scalars = plan.scalar_ports.size();
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
  auto copy = [&](std::vector<std::string>& names, const BatchValue& v, bool to_host) {
    if (v.kind != BatchValue::Column || on_gpu(v.index) != to_host || copied[v.index]) return;
    copied[v.index] = 1;
    names.push_back(column_name[v.index]);
  };
  for (const BatchStep& step : plan.steps) {
    const bool kernel = step.kind == BatchStep::Kernel;
    PlanStep s;
    s.kind = kernel ? (view.gpu ? "GPU kernel" : "native kernel")
                    : (view.gpu ? "host, on a CPU worker" : "host");
    s.why_host = step.why_host;
    for (uint32_t node : step.nodes) {
      s.nodes.push_back(PlanNode{g.nodes[node].label, g.nodes[node].name});
      const BatchValue& v = plan.values[plan.port_base[node]];
      if (kernel && v.kind == BatchValue::Column) s.text_bytes_per_row += plan.text_bounds[v.index];
      if (!view.gpu || (!kernel && node != step.nodes[0])) continue;
      for (const ir::Wire& w : g.nodes[node].inputs)
        copy(s.copied_before, plan.value_of(w), !kernel);
    }
    view.steps.push_back(std::move(s));
  }
  if (view.gpu) {
    for (const BatchValue& v : plan.outputs) copy(view.copied_to_host_last, v, true);
    view.rows_on_device = plan.rows_on_device();
    view.why_rows_on_host = plan.why_rows_on_host;
  }
  return view;
}

std::string describe_batch_plan(const BatchPlanView& view) {
  std::string out = "batch plan: " + std::to_string(view.steps.size()) + " step(s), " +
                    std::to_string(view.columns) + " column(s), " + std::to_string(view.scalars) +
                    " scalar(s)" + (view.gpu ? ", kernels on the GPU" : "") + "\n";
  const auto copies = [](const std::vector<std::string>& names, bool to_host) {
    if (names.empty()) return std::string();
    std::string out = to_host ? "  copy to the host: " : "  copy to the GPU: ";
    for (size_t k = 0; k < names.size(); ++k) out += (k ? ", " : "") + names[k];
    return out + "\n";
  };
  for (size_t s = 0; s < view.steps.size(); ++s) {
    const PlanStep& step = view.steps[s];
    out += copies(step.copied_before, step.kind.starts_with("host"));
    out += "step " + std::to_string(s) + ": " + step.kind + " [";
    for (size_t k = 0; k < step.nodes.size(); ++k) {
      out += (k ? ", " : "") + step.nodes[k].node + " -> " + step.nodes[k].binding;
    }
    out += "]";
    if (!step.why_host.empty()) out += ": " + step.why_host;
    if (step.text_bytes_per_row) {
      out += "; text at most " + std::to_string(step.text_bytes_per_row) + " bytes per row";
    }
    out += "\n";
  }
  out += copies(view.copied_to_host_last, true);
  if (view.gpu) {
    out +=
        view.rows_on_device
            ? "text rows (csv, tsv, jsonl): encoded on the GPU, only their bytes copied\n"
            : "text rows (csv, tsv, jsonl): encoded on the host: " + view.why_rows_on_host + "\n";
  }
  return out;
}

std::string describe_batch_plan(const ir::Graph& g, const BatchPlan& plan) {
  return describe_batch_plan(view_batch_plan(g, plan));
}

}  // namespace polyrt::plan
