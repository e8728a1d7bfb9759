#include "plan/state_plan.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <queue>
#include <tuple>

#include "plan/native_limits.hpp"

namespace polyrt::plan {

std::string_view mode_name(Provenance mode) {
  switch (mode) {
    case Provenance::Auto:
      return "Auto";
    case Provenance::Raw:
      return "Raw";
    case Provenance::Pull:
      return "Pull";
    case Provenance::PushPull:
      return "PushPull";
  }
  return "?";
}

Provenance select_mode(const ir::Graph& g) {
  size_t calls = 0;
  for (const ir::Node& n : g.nodes) calls += n.kind == ir::NodeKind::Call;
  const size_t inputs = g.coordinates.size() + g.externs.size();
  if (calls < 15 && inputs <= 1) return Provenance::Raw;
  if (inputs >= 2) return Provenance::PushPull;
  return Provenance::Pull;
}

namespace {

using Bits = std::vector<uint64_t>;

// A unit runs whole, so a pull may run members outside its own cone: only
// nodes that cannot fail may share a unit, or a pull could fail on a node it
// does not need. A fallible node is a segment of its own.
bool infallible(const ir::Node& n) {
  return !n.def->can_fail;
}

bool fusible(const ir::Node& n) {
  return n.kind == ir::NodeKind::Call && n.def->native && !n.def->accepts_none &&
         n.def->purity == nodes::Purity::Pure && n.lifecycle == ir::Lifecycle::Dynamic &&
         !n.is_const_binding;
}

struct UnionFind {
  std::vector<uint32_t> parent;
  explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  uint32_t find(uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// Each node's hazards, as bits: the None sources a None can reach it from
// (externs, None-aware nodes, consts) and the observable nodes upstream
// (fallible ones and side channels). A unit runs whole and its None guard
// covers every member, so members must share their hazards, or a pull could
// see a None, a failure or a log line from a node its output does not depend
// on. A None-aware node stops the None sources behind it (it absorbs their
// None) but not the others.
std::vector<Bits> node_hazards(const ir::Graph& g) {
  const size_t n = g.nodes.size();
  std::vector<uint32_t> hazard_bit(n, ~0u);
  std::vector<uint8_t> observable(n, 0);
  size_t hazard_count = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const ir::Node& node = g.nodes[i];
    const bool call = node.kind == ir::NodeKind::Call;
    observable[i] = call && (!infallible(node) || node.def->purity == nodes::Purity::SideChannel);
    const bool none_source = node.kind == ir::NodeKind::Extern || ir::is_frozen_const(node) ||
                             (call && node.def->accepts_none);
    if (observable[i] || none_source) hazard_bit[i] = (uint32_t)hazard_count++;
  }
  const size_t words = (hazard_count + 63) / 64;
  Bits observable_mask(words, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (observable[i]) observable_mask[hazard_bit[i] / 64] |= 1ULL << (hazard_bit[i] % 64);
  }
  std::vector<Bits> hazards(n, Bits(words, 0));
  for (uint32_t i = 0; i < n; ++i) {
    for (const ir::Wire& w : g.nodes[i].inputs) {
      const ir::Node& producer = g.nodes[w.node];
      const bool absorbs = ir::is_frozen_const(producer) ||
                           (producer.kind == ir::NodeKind::Call && producer.def->accepts_none);
      for (size_t k = 0; k < words; ++k) {
        hazards[i][k] |= absorbs ? hazards[w.node][k] & observable_mask[k] : hazards[w.node][k];
      }
      const uint32_t bit = hazard_bit[w.node];
      if (bit != ~0u) hazards[i][bit / 64] |= 1ULL << (bit % 64);
    }
  }
  return hazards;
}

// Connected groups of fusible, infallible nodes of the same hazards (every
// other fusible node alone), each in topological order.
std::vector<std::vector<uint32_t>> fusible_groups(const ir::Graph& g,
                                                  const std::vector<Bits>& hazards) {
  const size_t n = g.nodes.size();
  UnionFind uf(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (!fusible(g.nodes[i]) || !infallible(g.nodes[i])) continue;
    for (const ir::Wire& w : g.nodes[i].inputs) {
      const ir::Node& producer = g.nodes[w.node];
      if (fusible(producer) && infallible(producer) && hazards[w.node] == hazards[i]) {
        uf.join(i, w.node);
      }
    }
  }
  std::map<uint32_t, std::vector<uint32_t>> groups;
  for (uint32_t i = 0; i < n; ++i) {
    if (fusible(g.nodes[i])) groups[uf.find(i)].push_back(i);
  }
  std::vector<std::vector<uint32_t>> out;
  for (auto& group : groups) out.push_back(std::move(group.second));
  return out;
}

// Splits groups into convex pieces: a member reached from its group through
// a non-member goes to a later stage, so no path leaves a piece and re-enters
// it. Its buffers are sized once for the graph and cleared per group, so
// that many small groups cost their own size.
class ConvexSplitter {
 public:
  ConvexSplitter(const ir::Graph& g, const std::vector<Bits>& hazards)
      : g_(g),
        hazards_(hazards),
        consumers_(g.nodes.size()),
        member_(g.nodes.size(), 0),
        reached_(g.nodes.size(), 0),
        stage_(g.nodes.size(), 0),
        pieces_(g.nodes.size()) {
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
      for (const ir::Wire& w : g.nodes[i].inputs) consumers_[w.node].push_back(i);
    }
  }

  // Appends the pieces of `nodes` (a group, in topological order) to `units`,
  // none larger than kMaxFusedNodes.
  void split(const std::vector<uint32_t>& nodes, std::vector<std::vector<uint32_t>>& units) {
    if (nodes.size() == 1) {  // a single node is convex
      units.push_back(nodes);
      return;
    }
    for (uint32_t m : nodes) member_[m] = 1;
    reach_from(nodes);
    assign_stages();
    std::map<uint32_t, std::vector<uint32_t>> split;
    for (uint32_t m : join_same_stage(nodes)) split[pieces_.find(m)].push_back(m);
    for (auto& piece : split) {
      const std::vector<uint32_t>& members = piece.second;  // in topological order
      for (size_t at = 0; at < members.size(); at += kMaxFusedNodes) {
        const size_t end = std::min(members.size(), at + kMaxFusedNodes);
        units.emplace_back(members.begin() + (ptrdiff_t)at, members.begin() + (ptrdiff_t)end);
      }
    }
    for (uint32_t m : nodes) member_[m] = 0;
    for (uint32_t i : visited_) reached_[i] = stage_[i] = 0;
  }

 private:
  // Only nodes reached from the group up to its last member can put a
  // member on a later stage: walk those, not the whole graph.
  void reach_from(const std::vector<uint32_t>& nodes) {
    const uint32_t last = nodes.back();
    visited_.clear();
    for (uint32_t m : nodes) {
      reached_[m] = 1;
      visited_.push_back(m);
      stack_.push_back(m);
    }
    while (!stack_.empty()) {
      const uint32_t i = stack_.back();
      stack_.pop_back();
      for (uint32_t c : consumers_[i]) {
        if (c > last || reached_[c]) continue;
        reached_[c] = 1;
        visited_.push_back(c);
        stack_.push_back(c);
      }
    }
    std::sort(visited_.begin(), visited_.end());
  }

  // A member's stage: how many times a path from the group to it left the
  // group and came back.
  void assign_stages() {
    for (uint32_t i : visited_) {
      for (const ir::Wire& w : g_.nodes[i].inputs) {
        if (!reached_[w.node]) continue;
        const uint32_t step_up = member_[i] && !member_[w.node] ? 1 : 0;
        stage_[i] = std::max(stage_[i], stage_[w.node] + step_up);
      }
    }
  }

  // Joins members wired to each other on the same stage with the same
  // hazards; returns `nodes` for the caller to read the pieces from.
  const std::vector<uint32_t>& join_same_stage(const std::vector<uint32_t>& nodes) {
    for (uint32_t m : nodes) pieces_.parent[m] = m;
    for (uint32_t m : nodes) {
      for (const ir::Wire& w : g_.nodes[m].inputs) {
        if (member_[w.node] && stage_[w.node] == stage_[m] && hazards_[w.node] == hazards_[m]) {
          pieces_.join(m, w.node);
        }
      }
    }
    return nodes;
  }

  const ir::Graph& g_;
  const std::vector<Bits>& hazards_;
  std::vector<std::vector<uint32_t>> consumers_;
  std::vector<uint8_t> member_, reached_;
  std::vector<uint32_t> stage_;
  std::vector<uint32_t> visited_, stack_;
  UnionFind pieces_;
};

// Connected groups of fusible nodes of one extern class, each split into
// convex pieces.
std::vector<std::vector<uint32_t>> fusion_units(const ir::Graph& g) {
  const std::vector<Bits> hazards = node_hazards(g);
  ConvexSplitter splitter(g, hazards);
  std::vector<std::vector<uint32_t>> units;
  for (const std::vector<uint32_t>& group : fusible_groups(g, hazards)) {
    splitter.split(group, units);
  }
  return units;
}

using Units = std::vector<std::vector<uint32_t>>;

// Units: fused groups (when fusing), then every other call node alone;
// `in_unit` marks the fused nodes.
Units collect_units(const ir::Graph& g, bool fuse, std::vector<uint8_t>& in_unit) {
  const size_t n = g.nodes.size();
  Units units;
  in_unit.assign(n, 0);
  if (fuse) {
    units = fusion_units(g);
    for (const auto& u : units) {
      for (uint32_t m : u) in_unit[m] = 1;
    }
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (g.nodes[i].kind == ir::NodeKind::Call && !in_unit[i]) units.push_back({i});
  }
  return units;
}

// The units' dependency graph and one topological order of it.
struct UnitGraph {
  std::vector<uint32_t> unit_of;                 // per node; ~0u when in none
  std::vector<std::vector<uint32_t>> consumers;  // per unit
  std::vector<uint32_t> pending;                 // per unit: its producer units
  std::vector<uint32_t> topo;                    // every unit once, when sortable
};

UnitGraph unit_graph(const ir::Graph& g, const Units& units) {
  UnitGraph ug;
  ug.unit_of.assign(g.nodes.size(), ~0u);
  for (uint32_t u = 0; u < units.size(); ++u) {
    for (uint32_t m : units[u]) ug.unit_of[m] = u;
  }
  ug.consumers.assign(units.size(), {});
  ug.pending.assign(units.size(), 0);
  for (uint32_t u = 0; u < units.size(); ++u) {
    std::vector<uint32_t> deps;
    for (uint32_t m : units[u]) {
      for (const ir::Wire& w : g.nodes[m].inputs) {
        const uint32_t d = ug.unit_of[w.node];
        if (d != ~0u && d != u) deps.push_back(d);
      }
    }
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    ug.pending[u] = (uint32_t)deps.size();
    for (uint32_t d : deps) ug.consumers[d].push_back(u);
  }
  std::vector<uint32_t> waiting = ug.pending;
  std::vector<uint32_t> queue;
  for (uint32_t u = 0; u < units.size(); ++u) {
    if (waiting[u] == 0) queue.push_back(u);
  }
  while (!queue.empty()) {
    const uint32_t u = queue.back();
    queue.pop_back();
    ug.topo.push_back(u);
    for (uint32_t c : ug.consumers[u]) {
      if (--waiting[c] == 0) queue.push_back(c);
    }
  }
  return ug;
}

// Orders units topologically. Convex units can still depend on each other
// both ways (a1 -> b2 and b1 -> a2 with a1 -> a2, b1 -> b2); when Kahn's
// algorithm stalls, the stalled units are split into single nodes, which
// the graph's own order always sorts.
UnitGraph sort_units(const ir::Graph& g, Units& units) {
  while (true) {
    UnitGraph ug = unit_graph(g, units);
    if (ug.topo.size() == units.size()) return ug;
    std::vector<uint8_t> sorted(units.size(), 0);
    for (uint32_t u : ug.topo) sorted[u] = 1;
    Units split;
    for (uint32_t u = 0; u < units.size(); ++u) {
      if (sorted[u] || units[u].size() == 1) {
        split.push_back(std::move(units[u]));
      } else {
        for (uint32_t m : units[u]) split.push_back({m});
      }
    }
    units = std::move(split);
  }
}

// Observable steps (failures, side channels) must run in the interpreter's
// node order, so that the same failure and the same log lines come first.
// Each unit gets the index of the earliest observable node that needs it
// (its urgency).
std::vector<uint32_t> unit_urgency(const ir::Graph& g, const Units& units, const UnitGraph& ug) {
  auto is_observable = [&](uint32_t u) {
    const ir::Node& node = g.nodes[units[u].front()];
    return units[u].size() == 1 &&
           (!infallible(node) || node.def->purity == nodes::Purity::SideChannel);
  };
  std::vector<uint32_t> urgency(units.size(), ~0u);
  for (size_t k = ug.topo.size(); k-- > 0;) {
    const uint32_t u = ug.topo[k];
    if (is_observable(u)) urgency[u] = units[u].front();
    for (uint32_t c : ug.consumers[u]) urgency[u] = std::min(urgency[u], urgency[c]);
  }
  return urgency;
}

// The step of unit `u`: its kind, flags, output slots and the slots it
// reads from other units.
Step unit_step(const ir::Graph& g, const StatePlan& p, const std::vector<uint32_t>& unit,
               uint32_t u, const UnitGraph& ug, bool fused) {
  Step s;
  s.nodes = unit;
  const ir::Node& head = g.nodes[s.nodes.front()];
  if (fused) {  // a fusion unit, or a piece of one split apart
    s.kind = StepKind::Segment;
  } else {
    s.kind = head.def->native && !head.def->accepts_none ? StepKind::Kit : StepKind::Host;
  }
  s.accepts_none = head.def->accepts_none;
  for (uint32_t m : s.nodes) {
    const ir::Node& node = g.nodes[m];
    s.is_volatile = s.is_volatile || node.lifecycle == ir::Lifecycle::Volatile;
    s.is_side_channel = s.is_side_channel || node.def->purity == nodes::Purity::SideChannel;
    s.is_init = s.is_init || node.lifecycle == ir::Lifecycle::Init;
    s.is_frozen = s.is_frozen || ir::is_frozen_const(node);
    for (uint32_t k = 0; k < node.out_types.size(); ++k)
      s.output_slots.push_back(p.node_slot[m] + k);
  }
  for (uint32_t m : s.nodes) {
    for (const ir::Wire& w : g.nodes[m].inputs) {
      if (ug.unit_of[w.node] == u) continue;
      const uint32_t slot = p.node_slot[w.node] + w.port;
      if (std::find(s.input_slots.begin(), s.input_slots.end(), slot) == s.input_slots.end()) {
        s.input_slots.push_back(slot);
      }
    }
  }
  return s;
}

// The steps, in the order Kahn's algorithm pops the ready unit of least
// urgency, then of least first member.
void emit_steps(const ir::Graph& g, const Units& units, UnitGraph& ug,
                const std::vector<uint8_t>& in_unit, StatePlan& p) {
  const std::vector<uint32_t> urgency = unit_urgency(g, units, ug);
  using Entry = std::tuple<uint32_t, uint32_t, uint32_t>;  // (urgency, first member, unit)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
  for (uint32_t u = 0; u < units.size(); ++u) {
    if (ug.pending[u] == 0) ready.push({urgency[u], units[u].front(), u});
  }
  p.node_step.assign(g.nodes.size(), ~0u);
  while (!ready.empty()) {
    const uint32_t u = std::get<2>(ready.top());
    ready.pop();
    for (uint32_t m : units[u]) p.node_step[m] = (uint32_t)p.steps.size();
    p.steps.push_back(unit_step(g, p, units[u], u, ug, in_unit[units[u].front()]));
    for (uint32_t c : ug.consumers[u]) {
      if (--ug.pending[c] == 0) ready.push({urgency[c], units[c].front(), c});
    }
  }
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].kind == ir::NodeKind::Call && p.node_step[i] == ~0u) {
      internal_error("the planner left node '" + g.nodes[i].name + "' without a step");
    }
  }
}

// One slot per port, and where the coordinates and externs are written.
void assign_slots(const ir::Graph& g, StatePlan& p) {
  p.node_slot.assign(g.port_base.begin(), g.port_base.end() - 1);
  p.slot_count = g.port_base.back();
  for (const ir::Node& node : g.nodes) {
    p.slot_type.insert(p.slot_type.end(), node.out_types.begin(), node.out_types.end());
  }
  for (uint32_t c : g.coordinates) p.coordinate_slots.push_back(p.node_slot[c]);
  for (const ir::Extern& e : g.externs) p.extern_slots.push_back(p.node_slot[e.node]);
}

// Dirty lists (the steps each input's write makes stale), volatile steps, and
// the const bindings' cones, run when a state is created.
void list_dirty_steps(const ir::Graph& g, StatePlan& p) {
  const size_t inputs = p.input_count();
  p.input_steps.assign(inputs, {});
  p.input_side_steps.assign(inputs, {});
  for (uint32_t s = 0; s < p.steps.size(); ++s) {
    const Step& step = p.steps[s];
    if (step.is_volatile) p.volatile_steps.push_back(s);
    if (step.is_frozen) continue;
    for (size_t bit = 0; bit < inputs; ++bit) {
      bool depends = false;
      for (uint32_t m : step.nodes) depends = depends || g.depends_on(m, bit);
      if (!depends) continue;
      p.input_steps[bit].push_back(s);
      if (step.is_side_channel) p.input_side_steps[bit].push_back(s);
    }
  }
  std::vector<uint8_t> init_step(p.steps.size(), 0);
  for (uint32_t node : g.init_nodes) init_step[p.node_step[node]] = 1;
  for (uint32_t s = 0; s < p.steps.size(); ++s) {
    if (init_step[s]) p.init_steps.push_back(s);
  }
}

// Each step's producer steps, once; the cone of an output is derived from
// them on demand (output_cone), as storing every output's cone costs the
// square of a chain's length. Steps are in topological order, so the same
// forward pass spreads volatility: volatile_fed through every producer
// (stale after every write), volatile_cone through the cone an output runs,
// which stops at frozen consts. Returns volatile_cone per step.
std::vector<uint8_t> link_steps(const ir::Graph& g, StatePlan& p) {
  p.step_predecessors.assign(p.steps.size(), {});
  std::vector<uint8_t> volatile_fed(p.steps.size(), 0), volatile_cone(p.steps.size(), 0);
  for (uint32_t s = 0; s < p.steps.size(); ++s) {
    std::vector<uint32_t>& preds = p.step_predecessors[s];
    for (uint32_t m : p.steps[s].nodes) {
      for (const ir::Wire& w : g.nodes[m].inputs) {
        const uint32_t from = p.node_step[w.node];
        if (from != ~0u && from != s) preds.push_back(from);
      }
    }
    std::sort(preds.begin(), preds.end());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    bool fed = p.steps[s].is_volatile, in_cone = fed;
    for (uint32_t from : preds) {
      fed = fed || volatile_fed[from];
      in_cone = in_cone || (!p.steps[from].is_frozen && volatile_cone[from]);
    }
    volatile_fed[s] = fed;
    if (fed) p.volatile_fed_steps.push_back(s);
    volatile_cone[s] = !p.steps[s].is_frozen && in_cone;
  }
  return volatile_cone;
}

// Per-output guards: the output's slot, the inputs it depends on, its step
// and whether that step's cone is volatile.
void guard_outputs(const ir::Graph& g, const std::vector<uint8_t>& volatile_cone, StatePlan& p) {
  const size_t inputs = p.input_count();
  for (const ir::Output& o : g.outputs) {
    p.output_slot.push_back(p.node_slot[o.wire.node] + o.wire.port);
    std::vector<uint32_t> deps;
    for (size_t bit = 0; bit < inputs; ++bit) {
      if (g.depends_on(o.wire.node, bit)) deps.push_back((uint32_t)bit);
    }
    p.output_inputs.push_back(std::move(deps));
    const uint32_t producer = p.node_step[o.wire.node];
    const bool has_step = producer != ~0u && !p.steps[producer].is_frozen;
    p.output_volatile.push_back(has_step && volatile_cone[producer]);
    p.output_step.push_back(has_step ? producer : ~0u);
  }
}

}  // namespace

StatePlan plan_states(const ir::Graph& g, bool fuse) {
  StatePlan p;
  assign_slots(g, p);
  std::vector<uint8_t> in_unit;
  Units units = collect_units(g, fuse, in_unit);
  UnitGraph ug = sort_units(g, units);
  emit_steps(g, units, ug, in_unit, p);
  list_dirty_steps(g, p);
  guard_outputs(g, link_steps(g, p), p);
  return p;
}

std::optional<std::vector<uint32_t>> output_cone(const StatePlan& p, size_t output, size_t limit) {
  // Marks in a per-thread buffer: one cone costs its own size, not the plan's.
  thread_local ConeSearch search;
  std::vector<uint32_t> cone;
  if (!search.collect(
          p, p.output_step[output], [](uint32_t) { return false; }, limit, cone))
    return std::nullopt;
  return cone;
}

StatePlanView view_plan(const ir::Graph& g, const StatePlan& p, Provenance mode) {
  StatePlanView view;
  view.mode = mode_name(mode);
  view.slot_count = p.slot_count;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node& n = g.nodes[i];
    if (n.kind == ir::NodeKind::Call && n.name.find("__") != std::string::npos) continue;
    view.slots.push_back(PlanSlot{p.node_slot[i], n.name, std::string(type_name(n.out_types[0])),
                                  std::string(ir::lifecycle_name(n.lifecycle))});
  }
  for (const Step& step : p.steps) {
    PlanStep s;
    s.kind = step.kind == StepKind::Segment ? "native segment"
             : step.kind == StepKind::Kit   ? "kit"
                                            : "host step";
    if (step.is_volatile) s.flags.push_back("volatile");
    if (step.is_side_channel) s.flags.push_back("side channel");
    if (step.is_init) s.flags.push_back("init");
    for (uint32_t m : step.nodes) s.nodes.push_back(PlanNode{g.nodes[m].label, g.nodes[m].name});
    s.reads = step.input_slots;
    s.writes = step.output_slots;
    view.steps.push_back(std::move(s));
  }
  return view;
}

std::string describe_plan(const StatePlanView& view) {
  std::string out = "mode: " + view.mode + "\n";
  out += "slots: " + std::to_string(view.slot_count) + "\n";
  for (const PlanSlot& slot : view.slots) {
    out += "  slot " + std::to_string(slot.slot) + ": " + slot.binding + " (" + slot.type + ", " +
           slot.lifecycle + ")\n";
  }
  size_t native = 0, host = 0;
  for (size_t s = 0; s < view.steps.size(); ++s) {
    const PlanStep& step = view.steps[s];
    (step.kind == "host step" ? host : native) += step.nodes.size();
    out += "step " + std::to_string(s) + ": " + step.kind;
    for (const std::string& flag : step.flags) out += " (" + flag + ")";
    out += " [";
    for (size_t k = 0; k < step.nodes.size(); ++k) {
      out += (k ? ", " : "") + step.nodes[k].node + " -> " + step.nodes[k].binding;
    }
    out += "] reads";
    for (uint32_t slot : step.reads) out += " " + std::to_string(slot);
    out += ", writes";
    for (uint32_t slot : step.writes) out += " " + std::to_string(slot);
    out += "\n";
  }
  out +=
      "nodes: " + std::to_string(native) + " native-capable, " + std::to_string(host) + " host\n";
  return out;
}

}  // namespace polyrt::plan
