// The slot-buffer state shared by the closure (P2) and native (P3) tiers: one
// u64 word per port, a None mask, rounds (epochs), and one monomorphic runner
// per provenance mode, so the inner loop never branches on the mode.

#include <algorithm>
#include <span>

#include "engine/state_engine.hpp"
#include "graph/evaluate_node.hpp"
#include "graph/failure_message.hpp"
#include "slots/slot_program.hpp"

namespace polyrt::slots {

using plan::Step;
using plan::StepKind;

namespace {

// Where each native node's arguments come from: an input's slot, or a word
// of const_words (a constant argument, a prepared table's address or size).
void resolve_native_arguments(const ir::Graph& g, SlotProgram& sp) {
  auto constant = [&](uint64_t word) {
    sp.const_words.push_back(word);
    return WordRef{false, (uint32_t)sp.const_words.size() - 1};
  };
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node& n = g.nodes[i];
    if (n.kind != ir::NodeKind::Call || !n.def->native) continue;
    const nodes::NativeForm& form = *n.def->native;
    const nodes::Prepared* prep = n.prepared.get();
    for (size_t k = 0; k < form.args.size(); ++k) {
      const nodes::NativeArg a = form.args[k];
      WordRef& ref = sp.node_words[i][k];
      switch (a.kind) {
        case nodes::NativeArgKind::Input: {
          const ir::Wire w = n.inputs[a.index];
          ref = WordRef{true, sp.plan.node_slot[w.node] + w.port};
          break;
        }
        case nodes::NativeArgKind::Param: {
          const Value& v = n.params[a.index];
          ref = constant(v.type() == Type::F64 ? std::bit_cast<uint64_t>(v.as_f64()) : v.as_u64());
          break;
        }
        case nodes::NativeArgKind::F64Table:
          ref = constant((uint64_t)(uintptr_t)prep->f64s.data());
          break;
        case nodes::NativeArgKind::U64Table:
          ref = constant((uint64_t)(uintptr_t)prep->u64s.data());
          break;
        case nodes::NativeArgKind::F64Count:
          ref = constant(prep->f64s.size());
          break;
        case nodes::NativeArgKind::U64Count:
          ref = constant(prep->u64s.size());
          break;
        case nodes::NativeArgKind::Outputs:
          break;
      }
    }
  }
}

}  // namespace

std::shared_ptr<SlotProgram> build_slot_program(const ir::Graph& g, bool fuse, Provenance mode,
                                                const std::string& engine) {
  auto sp = std::make_shared<SlotProgram>();
  sp->plan = plan::plan_states(g, fuse);
  sp->mode = mode == Provenance::Auto ? plan::select_mode(g) : mode;
  sp->engine_name = engine + " (" + std::string(plan::mode_name(sp->mode)) + ")";
  sp->node_words.resize(g.nodes.size());
  const plan::StatePlan& p = sp->plan;
  for (const Step& st : p.steps) {
    HotStep& hot = sp->steps.emplace_back();
    hot.flags = (st.is_side_channel ? kSideChannel : 0) | (st.is_volatile ? kVolatile : 0);
    if (st.kind == StepKind::Kit) hot.kit = g.nodes[st.nodes[0]].def->native->kit;
  }
  sp->cones.attach(&sp->plan);
  sp->every_step_answers = std::make_unique<std::atomic<uint8_t>[]>(p.output_slot.size());
  sp->stale_steps = FlatLists(p.input_steps);
  sp->dirty_steps =
      FlatLists(sp->mode == Provenance::PushPull ? p.input_steps : p.input_side_steps);
  for (uint32_t slot : p.output_slot) {
    sp->output_word_mask.push_back(is_payload(p.slot_type[slot]) ? 0 : ~uint64_t{0});
  }
  sp->express = sp->mode == Provenance::Raw && g.externs.empty();
  for (size_t s = 0; s < p.steps.size(); ++s) {
    const bool native = p.steps[s].kind != StepKind::Host;
    sp->express = sp->express && (p.steps[s].is_frozen || (native && sp->steps[s].flags == 0));
  }
  for (size_t c = 0; c < p.coordinate_slots.size(); ++c) {
    sp->express = sp->express && p.coordinate_slots[c] == p.coordinate_slots[0] + c;
  }
  for (uint32_t s = 0; s < p.steps.size(); ++s) {
    if (!p.steps[s].is_frozen) sp->runnable_steps.push_back(s);
  }
  for (size_t c = 0; c < p.coordinate_slots.size(); ++c) {
    sp->coordinate_stales_every_step.push_back(sp->takes_every_runnable_step(sp->stale_steps[c]));
  }
  const uint32_t never = (uint32_t)p.steps.size();
  for (uint32_t o = 0; o < p.output_slot.size(); ++o) {
    const bool inline_word = p.output_step[o] != ~0u && sp->output_word_mask[o];
    sp->output_words.push_back({p.output_slot[o], inline_word ? p.output_step[o] : never});
  }
  resolve_native_arguments(g, *sp);
  return sp;
}

bool SlotProgram::takes_every_runnable_step(std::span<const uint32_t> distinct_steps) const {
  const auto runnable = std::count_if(distinct_steps.begin(), distinct_steps.end(),
                                      [&](uint32_t s) { return !plan.steps[s].is_frozen; });
  return (size_t)runnable == runnable_steps.size();
}

bool SlotProgram::cone_takes_every_step(size_t o) const {
  std::atomic<uint8_t>& answer = every_step_answers[o];
  if (const uint8_t known = answer.load(std::memory_order_relaxed)) return known == 2;
  const std::vector<uint32_t>* cone = cones.kept(o);
  const bool every = cone && takes_every_runnable_step(*cone);
  answer.store(every ? 2 : 1, std::memory_order_relaxed);
  return every;
}

namespace {

class SlotStateBase : public StateEngine {
 public:
  SlotStateBase(std::shared_ptr<const Program> owner, const ir::Graph& graph,
                std::shared_ptr<const SlotProgram> sp)
      : StateEngine(graph.coordinates.size()),
        program_(std::move(owner)),
        sp_(std::move(sp)),
        g_(&graph),
        p_(&sp_->plan),
        mode_(sp_->mode) {
    slots_.assign(p_->slot_count + 1, 0);
    host_.resize(p_->slot_count);
    none_.assign(p_->slot_count, 0);
    ran_.assign(p_->steps.size(), 0);
    clean_.assign(p_->steps.size(), 0);
    word_stamp_.assign(p_->steps.size() + 1, 0);
    input_seq_.assign(p_->input_count(), 0);
    output_seq_.assign(p_->output_slot.size(), 0);
    lane_.generation = 1;
    for (size_t i = 0; i < g_->nodes.size(); ++i) {
      const ir::Node& n = g_->nodes[i];
      if (n.kind == ir::NodeKind::Constant) {
        for (size_t k = 0; k < n.constants.size(); ++k) store(p_->node_slot[i] + k, n.constants[k]);
      }
    }
    for (size_t e = 0; e < g_->externs.size(); ++e)
      store(p_->extern_slots[e], g_->externs[e].default_value);
    build_kit_args();
    point_lane();
    epoch_ = 1;
    for (uint32_t s : p_->init_steps) {
      run_step(s);
      ran_[s] = epoch_;
      clean_[s] = 1;
      stamp(s);
    }
  }

  SlotStateBase(const SlotStateBase& other) : StateEngine(other) {
    *this = other;
    build_kit_args();  // a clone points into its own buffers
    point_lane();
  }
  SlotStateBase& operator=(const SlotStateBase&) = default;

  void set_inputs(std::span<const uint64_t> coordinates) override {
    lane_.armed.generation = 0;
    write_coordinates(coordinates.data(), [&](size_t c) {
      slots_[p_->coordinate_slots[c]] = coordinates[c];
      input_changed(c);
    });
    begin_write();
  }

  void set_extern(size_t index, const Value& value) override {
    lane_.armed.generation = 0;
    ++write_seq_;
    store(p_->extern_slots[index], value);
    input_changed(p_->coordinate_slots.size() + index);
    begin_write();
  }

  void invalidate_all() override {
    for (size_t s = 0; s < clean_.size(); ++s) {
      if (!frozen(s)) clean_[s] = 0;
    }
    ++lane_.generation;
    std::fill(output_seq_.begin(), output_seq_.end(), 0);
    fused_seq_ = 0;
    stale_ = true;
  }

  std::string engine_name() const override { return sp_->engine_name; }
  const Program& program() const override { return *program_; }

 protected:
  // The steps of output o's cone to visit, in evaluation order: the kept cone,
  // or for a cone too long to keep (ConeTable) the steps that are not
  // `current`. A current step's producers are current (a cone always runs in
  // order), so that search stops at current steps and costs what is stale.
  template <typename Current>
  std::span<const uint32_t> cone_to_run(size_t o, const Current& current) {
    if (const std::vector<uint32_t>* cone = sp_->cones.kept(o)) [[likely]]
      return *cone;
    stale_search_.collect(*p_, p_->output_step[o], current, ~size_t{0}, stale_cone_);
    return stale_cone_;
  }

  bool frozen(size_t s) const { return p_->steps[s].is_frozen; }

  void begin_round() {
    if (!stale_) return;
    ++epoch_;
    for (uint32_t v : p_->volatile_steps) clean_[v] = 0;
    stale_ = false;
  }

  // A step's outputs may be read inline while its stamp equals the lane
  // generation: a change voids the stamps of the steps depending on it (every
  // stamp at once in Raw mode, by a new generation).
  void input_changed(size_t input) {
    input_seq_[input] = write_seq_;
    // Steps a write makes stale: every dependent step in PushPull, only the
    // side channels otherwise (pure steps run again once per round anyway).
    for (uint32_t s : sp_->dirty_steps[input]) clean_[s] = 0;
    if (mode_ == Provenance::Raw) {
      ++lane_.generation;
    } else {
      for (uint32_t s : sp_->stale_steps[input]) word_stamp_[s] = 0;
    }
  }

  // A write of every coordinate: `changed(c)` for each one whose value
  // changes (only those count as written, as on every engine).
  // (A coordinate's slot holds its last write: set_inputs and the fused
  // entry both store it there.)
  template <typename Changed>
  void write_coordinates(const uint64_t* coordinates, const Changed& changed) {
    ++write_seq_;
    for (size_t c = 0; c < p_->coordinate_slots.size(); ++c) {
      if (slots_[p_->coordinate_slots[c]] == coordinates[c] && written_) continue;
      changed(c);
    }
    written_ = true;
  }

  // Every write starts a new round, in which volatile steps run again.
  void begin_write() {
    for (uint32_t s : p_->volatile_fed_steps) word_stamp_[s] = 0;
    stale_ = true;
  }

  // Whether the fused entry serves `outputs`, as decided for the last list
  // asked (a request loop asks for the same outputs every time). A loop,
  // not std::equal: that is a call of memcmp, a tenth of a request.
  bool fused_serves(std::span<const size_t> outputs) {
    if (outputs.size() != fused_outputs_.size()) return decide_fused(outputs);
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (outputs[i] != fused_outputs_[i]) return decide_fused(outputs);
    }
    return fused_serves_;
  }

  // The requested outputs' words, once the fused entry ran (the slots of
  // the list fused_serves accepted).
  void copy_words(uint64_t* words) const {
    const uint64_t* slots = slots_.data();
    const uint32_t* at = fused_slots_.data();
    for (size_t i = 0; i < fused_slots_.size(); ++i) words[i] = slots[at[i]];
  }

  // Lets State::request run the fused entry for the list just served, as
  // long as the lane's generation stays and nothing is written.
  void arm_request() {
    lane_.armed =
        detail::ArmedRequest{sp_->request,        slots_.data(),       fused_outputs_.data(),
                             fused_slots_.data(), fused_slots_.size(), lane_.generation};
  }

  // Points the lane's request at Engine::request (the fused entry), when
  // the program has one.
  template <typename Engine>
  void point_request_lane() {
    if (!sp_->request) return;
    lane_.request = [](StateEngine* engine, const uint64_t* coordinates, const size_t* outputs,
                       size_t count, uint64_t* words) {
      return static_cast<Engine*>(engine)->request(coordinates, {outputs, count}, words);
    };
  }

  // Whether the fused entry serves `outputs`: scalar outputs whose cones
  // cover every step it runs. Remembered for the list, out of the hot path.
  [[gnu::noinline, gnu::cold]] bool decide_fused(std::span<const size_t> outputs) {
    lane_.armed.generation = 0;  // its list and slots are these vectors, about to change
    fused_outputs_.assign(outputs.begin(), outputs.end());
    fused_slots_.clear();
    fused_serves_ = false;
    if (!sp_->request) return false;
    std::vector<uint8_t> covered(p_->steps.size(), 0);
    for (size_t o : outputs) {
      if (o >= p_->output_slot.size() || !sp_->output_word_mask[o]) return false;
      const std::vector<uint32_t>* cone = sp_->cones.kept(o);
      if (!cone) return false;
      for (uint32_t s : *cone) covered[s] = 1;
    }
    for (uint32_t s : sp_->runnable_steps) {
      if (!covered[s]) return false;
    }
    for (size_t o : outputs) fused_slots_.push_back(p_->output_slot[o]);
    fused_serves_ = true;
    return true;
  }

  // Raises the error a pull_word of a str, None or unknown output gets.
  [[gnu::noinline, gnu::cold]] uint64_t refuse_word(size_t o) {
    check_word_output(o);
    return StateEngine::pull_word(o);
  }

  // The cone guard, exact per output (a fused step may mix provenance): no
  // input of the output changed since its cone last ran.
  bool cone_is_current(size_t o) const {
    const uint64_t at = std::max(output_seq_[o], fused_seq_);
    if (at == 0) return false;
    if (p_->output_volatile[o] && write_seq_ > at) return false;
    for (uint32_t i : p_->output_inputs[o]) {
      if (input_seq_[i] > at) return false;
    }
    return true;
  }

  // After step s ran: its outputs are current (its producers ran before it);
  // the inline lane may read them unless one is None.
  void stamp(uint32_t s) {
    bool has_none = false;
    if (none_count_ != 0) {
      for (uint32_t slot : p_->steps[s].output_slots) has_none = has_none || none_[slot];
    }
    word_stamp_[s] = has_none ? 0 : lane_.generation;
  }

  Value read_slot(uint32_t slot) const {
    if (none_[slot]) return Value::none();
    if (is_payload(p_->slot_type[slot])) return host_[slot];
    return value_of_word(p_->slot_type[slot], slots_[slot]);
  }

  // A slot's value by reference: a str slot's stored Value, else one built
  // in pulled_ (valid until the next call on this state).
  const Value& slot_ref(uint32_t slot) {
    if (!none_[slot] && is_payload(p_->slot_type[slot])) return host_[slot];
    pulled_ = read_slot(slot);
    return pulled_;
  }

  void set_none(uint32_t slot, bool is_none) {
    if (none_[slot] == is_none) return;
    none_[slot] = is_none;
    none_count_ += is_none ? 1 : -1;
  }

  void store(uint32_t slot, const Value& v) {
    set_none(slot, v.is_none());
    if (v.is_none()) return;
    if (is_payload(v.type())) {
      host_[slot] = v;
    } else {
      slots_[slot] = word_of(v);
    }
  }

  void run_step(size_t s) {
    if (none_count_ != 0) {
      run_step_with_nones(s);
      return;
    }
    // The hot path: no slot holds None, so no mask is consulted.
    const HotStep& hot = sp_->steps[s];
    if (hot.segment) {
      const int32_t status = hot.segment(slots_.data());
      if (status != 0) fail(p_->steps[s].nodes[status - 1]);
    } else if (hot.kit) {
      if (hot.kit(kit_args_[s]) != 0) fail(p_->steps[s].nodes[0]);
    } else {
      run_host(p_->steps[s].nodes[0]);
    }
  }

  [[gnu::noinline]] void run_step_with_nones(size_t s) {
    const Step& st = p_->steps[s];
    if (!st.accepts_none) {
      for (uint32_t in : st.input_slots) {
        if (none_[in]) {
          for (uint32_t out : st.output_slots) set_none(out, true);
          return;
        }
      }
    }
    switch (st.kind) {
      case StepKind::Kit:
        if (sp_->steps[s].kit(kit_args_[s]) != 0) fail(st.nodes[0]);
        break;
      case StepKind::Segment: {
        const int32_t status = sp_->steps[s].segment(slots_.data());
        if (status != 0) fail(st.nodes[status - 1]);
        break;
      }
      case StepKind::Host:
        run_host(st.nodes[0]);
        return;  // stores its outputs' None bits itself
    }
    for (uint32_t out : st.output_slots) set_none(out, false);
  }

  std::shared_ptr<const Program> program_;
  std::shared_ptr<const SlotProgram> sp_;
  const ir::Graph* g_;
  const plan::StatePlan* p_;
  std::vector<uint64_t> slots_;
  std::vector<Value> host_;  // values of str slots
  std::vector<uint8_t> none_;
  int64_t none_count_ = 0;
  std::vector<uint64_t> ran_;
  std::vector<uint8_t> clean_;
  uint64_t epoch_ = 0;
  bool stale_ = true;
  Provenance mode_;
  // Per step (plus a last one never current): the lane generation its outputs
  // are current in when none of them is None, else 0 (the lane's stamps).
  std::vector<uint64_t> word_stamp_;
  uint64_t write_seq_ = 0;
  std::vector<uint64_t> input_seq_;   // per input: the write that last changed it
  std::vector<uint64_t> output_seq_;  // per output: the write its cone last ran after
  // The write after which a fused request last ran every step: every
  // output's cone ran then (one store instead of one per output).
  uint64_t fused_seq_ = 0;
  bool written_ = false;
  std::vector<nodes::KitArgs> kit_args_;  // per Kit step
  // State::request's fused entry (SlotProgram::request): whether it serves
  // the last list of outputs asked.
  std::vector<size_t> fused_outputs_;
  std::vector<uint32_t> fused_slots_;  // their slots, when the entry serves them
  bool fused_serves_ = false;

 private:
  void point_lane() {
    lane_.armed = {};  // a clone's would point into the original's buffers
    lane_.words = slots_.data();
    lane_.output_words = sp_->output_words.data();
    lane_.stamps = word_stamp_.data();
    lane_.outputs = p_->output_slot.size();
  }

  void build_kit_args() {
    kit_args_.assign(p_->steps.size(), nodes::KitArgs{});
    for (size_t s = 0; s < p_->steps.size(); ++s) {
      if (p_->steps[s].kind != StepKind::Kit) continue;
      const uint32_t node = p_->steps[s].nodes[0];
      nodes::KitArgs& a = kit_args_[s];
      for (size_t k = 0; k < g_->nodes[node].def->native->args.size(); ++k) {
        const WordRef ref = sp_->node_words[node][k];
        a.words[k] = ref.is_slot ? &slots_[ref.index] : &sp_->const_words[ref.index];
      }
      a.out = &slots_[p_->node_slot[node]];
    }
  }

  // Points scratch_ptrs_ at the node's inputs: str slots in place (no copy),
  // scalars decoded into scratch_in_, None as a shared None.
  void gather_inputs(const ir::Node& n) {
    static const Value kNone;
    scratch_in_.resize(n.inputs.size());
    scratch_ptrs_.resize(n.inputs.size());
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const uint32_t slot = p_->node_slot[n.inputs[k].node] + n.inputs[k].port;
      if (none_[slot]) {
        scratch_ptrs_[k] = &kNone;
      } else if (is_payload(p_->slot_type[slot])) {
        scratch_ptrs_[k] = &host_[slot];
      } else {
        scratch_in_[k] = read_slot(slot);
        scratch_ptrs_[k] = &scratch_in_[k];
      }
    }
    scratch_out_.resize(n.out_types.size());
  }

  // The coordinates as written, for failure messages (every state keeps them
  // in their slots).
  std::vector<uint64_t> written_coordinates() const {
    std::vector<uint64_t> values;
    for (uint32_t slot : p_->coordinate_slots) values.push_back(slots_[slot]);
    return values;
  }

  [[gnu::noinline]] void run_host(uint32_t node) {
    const ir::Node& n = g_->nodes[node];
    gather_inputs(n);
    if (auto failure = ir::run_node(n, scratch_ptrs_.data(), scratch_out_.data(), sink_)) {
      const std::vector<uint64_t> written = written_coordinates();
      throw EvalError(ir::failure_message(*g_, node, *failure, scratch_ptrs_, &written), n.label);
    }
    for (size_t k = 0; k < scratch_out_.size(); ++k) {
      const uint32_t slot = p_->node_slot[node] + k;
      if (!scratch_out_[k].is_none() && is_payload(scratch_out_[k].type())) {
        set_none(slot, false);
        host_[slot] = std::move(scratch_out_[k]);
      } else {
        store(slot, scratch_out_[k]);
      }
    }
  }

  // Native code reported a failure: rebuild the exact message the
  // interpreter gives by re-running the node's registry body on its inputs.
  [[noreturn, gnu::noinline, gnu::cold]] void fail(uint32_t node) {
    const ir::Node& n = g_->nodes[node];
    gather_inputs(n);
    const std::optional<std::string> reason =
        ir::run_node(n, scratch_ptrs_.data(), scratch_out_.data(), sink_);
    if (!reason) {
      internal_error("native code of node '" + n.label +
                     "' reported a failure its registry body does not reproduce");
    }
    const std::vector<uint64_t> written = written_coordinates();
    throw EvalError(ir::failure_message(*g_, node, *reason, scratch_ptrs_, &written), n.label);
  }

  // Scratch of cone_to_run.
  plan::ConeSearch stale_search_;
  std::vector<uint32_t> stale_cone_;

  // Reused by every host step (a clone gets its own; their contents never outlive a step).
  std::vector<Value> scratch_in_;
  std::vector<const Value*> scratch_ptrs_;
  std::vector<Value> scratch_out_;
};

template <Provenance M>
class SlotState final : public SlotStateBase {
 public:
  SlotState(std::shared_ptr<const Program> owner, const ir::Graph& graph,
            std::shared_ptr<const SlotProgram> sp)
      : SlotStateBase(std::move(owner), graph, std::move(sp)),
        pending_coordinates_(p_->coordinate_slots.size()) {
    point_request_lane<SlotState>();
  }
  SlotState(const SlotState& other)
      : SlotStateBase(other),
        pending_(other.pending_),
        pending_coordinates_(other.pending_coordinates_),
        needs_every_step_(other.needs_every_step_) {
    point_request_lane<SlotState>();
  }

  // One call of the fused entry when it serves the outputs and no slot is
  // None (its segments know no None); every step is then current in a new
  // round. The write before it only records which coordinates changed (the
  // cone guard's sequence numbers): the entry stores them into their slots
  // and runs every step, so none needs marking stale (that marking was half
  // of a PushPull request). A failing member forgets every step's state and
  // leaves the request to State's usual way, which raises it.
  //
  // It then arms the lane's request: until the next write, State::request
  // runs the entry itself, which leaves every mark as this one does. (Its
  // write needs no new sequence number: every output's cone ran after the
  // latest one, and later writes compare the coordinates with their slots,
  // which the entry stores.)
  bool request(const uint64_t* coordinates, std::span<const size_t> outputs, uint64_t* words) {
    if (none_count_ != 0 || !fused_serves(outputs)) return false;
    pending_ = false;  // this write comes after it, and every step runs
    write_coordinates(coordinates, [&](size_t c) { input_seq_[c] = write_seq_; });
    if (!run_every_step(coordinates)) return false;
    needs_every_step_ = true;
    copy_words(words);
    arm_request();
    return true;
  }

  // A write after a round that needed every step (it pulled an output whose
  // cone takes them all, or evaluated them) is deferred: the coordinates
  // are stored, and the next pull, eval or extern write runs the request
  // entry once, as a request would, instead of marking the steps the write
  // makes stale and then running the pulled cone step by step (what made a
  // PushPull write and pull twice as slow as a request). A round that then
  // pulls only smaller cones writes the usual way again next time.
  void set_inputs(std::span<const uint64_t> coordinates) override {
    const bool defer = sp_->request && none_count_ == 0 &&
                       (pending_ || (needs_every_step_ && reruns_every_step(coordinates)));
    needs_every_step_ = false;
    if (!defer) {
      SlotStateBase::set_inputs(coordinates);
      return;
    }
    ++write_seq_;
    written_ = true;
    for (size_t c = 0; c < coordinates.size(); ++c) {
      slots_[p_->coordinate_slots[c]] = coordinates[c];
    }
    std::copy(coordinates.begin(), coordinates.end(), pending_coordinates_.begin());
    ++lane_.generation;  // inline pulls miss until it runs; the armed request is disarmed
    pending_ = true;
  }

  void set_extern(size_t index, const Value& value) override {
    settle();
    SlotStateBase::set_extern(index, value);
  }

  void invalidate_all() override {
    pending_ = false;  // its coordinates are in their slots, and every step is stale
    SlotStateBase::invalidate_all();
  }

  std::unique_ptr<StateEngine> clone() const override { return std::make_unique<SlotState>(*this); }

  Value pull_at(size_t o) override { return pull_ref(o); }

  const Value& pull_ref(size_t o) override {
    bring_up_to_date(o);
    return slot_ref(p_->output_slot[o]);
  }

  uint64_t pull_word(size_t o) override {
    if (o < p_->output_slot.size() && sp_->output_word_mask[o]) [[likely]] {
      bring_up_to_date(o);
      const uint32_t slot = p_->output_slot[o];
      if (!none_[slot]) [[likely]]
        return slots_[slot];
    }
    return refuse_word(o);
  }

  void eval() override {
    settle();
    needs_every_step_ = true;
    begin_round();
    for (uint32_t s = 0; s < p_->steps.size(); ++s) {
      if (ran_[s] != epoch_ && !frozen(s)) step(s);
    }
  }

 private:
  // Runs the request entry for a write, in a new round, and marks every
  // step current. A failing member forgets every step's state instead
  // (false): pulls then run their cones and raise what they meet.
  bool run_every_step(const uint64_t* coordinates) {
    ++epoch_;  // a new round: no step the entry runs is volatile
    stale_ = false;
    if (sp_->request(slots_.data(), coordinates) != 0) [[unlikely]] {
      invalidate_all();
      return false;
    }
    const uint64_t generation = lane_.generation;
    for (uint32_t s : sp_->runnable_steps) {
      ran_[s] = epoch_;
      clean_[s] = 1;
      word_stamp_[s] = generation;  // no slot is None
    }
    fused_seq_ = write_seq_;
    return true;
  }

  // Whether the write would make every step run again anyway: always in
  // Raw and Pull (pure steps run once a round); in PushPull only when a
  // coordinate that every step depends on changes (else the steps that do
  // not depend on the changed ones stay clean, which running the entry
  // would waste).
  bool reruns_every_step(std::span<const uint64_t> coordinates) const {
    if constexpr (M != Provenance::PushPull) return true;
    for (size_t c = 0; c < coordinates.size(); ++c) {
      if (sp_->coordinate_stales_every_step[c] &&
          slots_[p_->coordinate_slots[c]] != coordinates[c]) {
        return true;
      }
    }
    return false;
  }

  // Runs a deferred write (see set_inputs), if any: whether every step is
  // now current.
  bool settle() {
    if (!pending_) return false;
    pending_ = false;
    return run_every_step(pending_coordinates_.data());
  }

  void bring_up_to_date(size_t o) {
    if (sp_->request && !needs_every_step_) needs_every_step_ = sp_->cone_takes_every_step(o);
    if (settle()) return;
    begin_round();
    if constexpr (M != Provenance::Raw) {
      if (cone_is_current(o)) return;
    }
    for (uint32_t s : cone_to_run(o, [&](uint32_t s) { return ran_[s] == epoch_; })) {
      if (ran_[s] != epoch_) step(s);
    }
    output_seq_[o] = write_seq_;
  }

  void step(uint32_t s) {
    if constexpr (M == Provenance::PushPull) {
      if (clean_[s]) {
        ran_[s] = epoch_;
        return;
      }
    } else {
      if ((sp_->steps[s].flags & kSideChannel) &&
          clean_[s]) {  // a side channel never re-fires while current
        ran_[s] = epoch_;
        return;
      }
    }
    run_step(s);
    ran_[s] = epoch_;
    clean_[s] = !(sp_->steps[s].flags & kVolatile);
    stamp(s);
  }

  // A write whose run is deferred (see set_inputs), and its coordinates.
  bool pending_ = false;
  std::vector<uint64_t> pending_coordinates_;
  // Whether this round pulled an output whose cone takes every step, or
  // evaluated them all: the next write is then deferred.
  bool needs_every_step_ = false;
};

// A write is the inline copy in State::set_inputs plus a new lane generation;
// a pull runs the steps of its cone that did not run in this generation. A
// step's stamp is also its run mark: express states keep no rounds.
class ExpressState final : public SlotStateBase {
 public:
  ExpressState(std::shared_ptr<const Program> owner, const ir::Graph& graph,
               std::shared_ptr<const SlotProgram> sp)
      : SlotStateBase(std::move(owner), graph, std::move(sp)) {
    point_express_lane();
  }
  ExpressState(const ExpressState& other) : SlotStateBase(other) { point_express_lane(); }

  std::unique_ptr<StateEngine> clone() const override {
    return std::make_unique<ExpressState>(*this);
  }

  void set_inputs(std::span<const uint64_t> coordinates) override {
    std::copy(coordinates.begin(), coordinates.end(), lane_.express_coordinates);
    ++lane_.generation;
  }

  Value pull_at(size_t o) override { return pull_ref(o); }

  const Value& pull_ref(size_t o) override {
    run_cone(o);
    return slot_ref(p_->output_slot[o]);
  }

  uint64_t pull_word(size_t o) override {
    if (o < p_->output_slot.size() && sp_->output_word_mask[o]) [[likely]] {
      run_cone(o);
      return slots_[p_->output_slot[o]];
    }
    return refuse_word(o);
  }

  void eval() override {
    const uint64_t generation = lane_.generation;
    for (uint32_t s = 0; s < p_->steps.size(); ++s) {
      if (word_stamp_[s] == generation || frozen(s)) continue;
      run_step(s);
      word_stamp_[s] = generation;
    }
  }

  // One call of the fused entry when the outputs' cones take every step it
  // runs (else running all of it would do more than asked). A failing
  // member leaves the request to State's usual way, which raises it.
  // It then arms the lane's request, for State::request to run the entry
  // itself until the generation changes.
  bool request(const uint64_t* coordinates, std::span<const size_t> outputs, uint64_t* words) {
    if (!fused_serves(outputs)) return false;
    ++lane_.generation;
    if (sp_->request(slots_.data(), coordinates) != 0) [[unlikely]] {
      return false;
    }
    const uint64_t generation = lane_.generation;
    for (uint32_t s : sp_->runnable_steps) word_stamp_[s] = generation;
    copy_words(words);
    arm_request();
    return true;
  }

 private:
  void point_express_lane() {
    lane_.pull_miss = [](StateEngine* engine, size_t output) {
      return static_cast<ExpressState*>(engine)->pull_word(output);
    };
    point_request_lane<ExpressState>();
    lane_.express_coordinates =
        slots_.data() + (p_->coordinate_slots.empty() ? 0 : p_->coordinate_slots[0]);
  }

  void run_cone(size_t o) {
    const uint64_t generation = lane_.generation;
    for (uint32_t s : cone_to_run(o, [&](uint32_t s) { return word_stamp_[s] == generation; })) {
      if (word_stamp_[s] == generation) continue;
      run_step(s);
      word_stamp_[s] = generation;
    }
  }
};

}  // namespace

std::unique_ptr<StateEngine> make_slot_engine(std::shared_ptr<const Program> owner,
                                              const ir::Graph& graph,
                                              std::shared_ptr<const SlotProgram> sp) {
  if (sp->express) return std::make_unique<ExpressState>(owner, graph, sp);
  switch (sp->mode) {
    case Provenance::Raw:
      return std::make_unique<SlotState<Provenance::Raw>>(owner, graph, sp);
    case Provenance::Pull:
      return std::make_unique<SlotState<Provenance::Pull>>(owner, graph, sp);
    case Provenance::PushPull:
    case Provenance::Auto:
      return std::make_unique<SlotState<Provenance::PushPull>>(owner, graph, sp);
  }
  return nullptr;
}

}  // namespace polyrt::slots
