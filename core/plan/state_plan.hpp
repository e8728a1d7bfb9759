// The per-state plan shared by the closure (P2) and native (P3) tiers: the
// slot layout, the steps in evaluation order (fusion units of native-capable
// nodes, host steps for the rest), per-input dirty lists, the step graph cones derive from and
// the input provenance the cone guard checks. Target-independent and LLVM-free.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "polyrt/plan_view.hpp"
#include "polyrt/provenance.hpp"

namespace polyrt::plan {

std::string_view mode_name(Provenance mode);
// The runtime reference's selector: small single-input graphs Raw, several
// inputs PushPull, else Pull.
Provenance select_mode(const ir::Graph& graph);

enum class StepKind : uint8_t {
  Kit,      // one node with a native form, run through its kit (closure tier)
  Segment,  // a fusion unit of native-capable nodes, compiled to one function
  Host,     // one node evaluated through its registry body over Values
};

struct Step {
  StepKind kind = StepKind::Host;
  std::vector<uint32_t> nodes;         // members, in topological order
  std::vector<uint32_t> input_slots;   // slots the step reads and does not write
  std::vector<uint32_t> output_slots;  // slots the step writes
  bool is_volatile = false;
  bool is_side_channel = false;
  bool is_init = false;       // of init lifecycle (fed only by const bindings)
  bool is_frozen = false;     // a const binding: runs only when a state is created
  bool accepts_none = false;  // a None input does not short-circuit it
};

struct StatePlan {
  uint32_t slot_count = 0;
  std::vector<uint32_t> node_slot;  // first slot of each node's outputs
  std::vector<Type> slot_type;
  std::vector<uint32_t> coordinate_slots;
  std::vector<uint32_t> extern_slots;
  std::vector<Step> steps;          // evaluation order (topological)
  std::vector<uint32_t> node_step;  // step of each call node (~0u otherwise)
  // Steps to mark stale when an input is written (coordinates, then externs):
  // every dependent step, and only the side-channel ones.
  std::vector<std::vector<uint32_t>> input_steps;
  std::vector<std::vector<uint32_t>> input_side_steps;
  std::vector<uint32_t> volatile_steps;
  std::vector<uint32_t> init_steps;
  std::vector<std::vector<uint32_t>> step_predecessors;  // per step: the steps it reads, sorted
  std::vector<uint32_t> output_slot;
  // The cone guard: per output, the inputs its value depends on, and whether
  // its cone holds a volatile step.
  std::vector<std::vector<uint32_t>> output_inputs;
  std::vector<uint8_t> output_volatile;
  // The step writing each output's slot (~0u: a coordinate, extern, literal
  // or const binding). Its outputs are current while no input it depends on
  // changed since it ran: the stamp State::pull_word reads inline.
  std::vector<uint32_t> output_step;
  // Steps with a volatile step in their cone: stale after every write.
  std::vector<uint32_t> volatile_fed_steps;

  size_t input_count() const { return coordinate_slots.size() + extern_slots.size(); }
};

// fuse = false: every node is its own step (Kit when it has a native form).
// fuse = true: native-capable nodes are fused into connected, convex units of
// one lifecycle class and one set of externs (Segment steps).
StatePlan plan_states(const ir::Graph& graph, bool fuse);

// The backward search every step cone comes from: from a root step through
// producer steps, skipping frozen consts (current from a state's creation)
// and the steps `stop` says need not run (their producers need not either).
// Reusable scratch; its marks are all clear between searches.
class ConeSearch {
 public:
  // Fills `cone` with the steps found, in evaluation order (nothing for
  // root ~0u or a stopped root). False, with `cone` unspecified, once more
  // than `limit` are found: the search stops there.
  template <typename Stop>
  bool collect(const StatePlan& p, uint32_t root, const Stop& stop, size_t limit,
               std::vector<uint32_t>& cone) {
    cone.clear();
    if (root == ~0u || stop(root)) return true;
    if (marks_.size() < p.steps.size()) marks_.resize(p.steps.size(), 0);
    stack_.assign(1, root);
    marks_[root] = 1;
    bool within = true;
    while (!stack_.empty() && within) {
      const uint32_t s = stack_.back();
      stack_.pop_back();
      cone.push_back(s);
      within = cone.size() <= limit;
      for (uint32_t from : p.step_predecessors[s]) {
        if (marks_[from] || p.steps[from].is_frozen || stop(from)) continue;
        marks_[from] = 1;
        stack_.push_back(from);
      }
    }
    for (uint32_t s : cone) marks_[s] = 0;
    for (uint32_t s : stack_) marks_[s] = 0;
    if (within) std::sort(cone.begin(), cone.end());
    return within;
  }

 private:
  std::vector<uint8_t> marks_;
  std::vector<uint32_t> stack_;
};

// The steps an output needs, in evaluation order (frozen consts excluded);
// nullopt when there are more than `limit` (the search stops there, so it
// costs at most `limit` steps).
std::optional<std::vector<uint32_t>> output_cone(const StatePlan& plan, size_t output,
                                                 size_t limit);

// Human-readable plan: steps, members, native or host, slot layout, mode.
StatePlanView view_plan(const ir::Graph& graph, const StatePlan& plan, Provenance mode);
// The text `polyrt plan` prints (the view's engine is not part of it).
std::string describe_plan(const StatePlanView& view);

}  // namespace polyrt::plan
