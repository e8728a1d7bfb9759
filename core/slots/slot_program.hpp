// What the slot-buffer tiers (closures P2, native P3) share across all states
// of a program: the plan, the mode, resolved kit arguments and, for P3, the
// compiled segment functions.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nodes/native_form.hpp"
#include "plan/state_plan.hpp"
#include "polyrt/polyrt.hpp"
#include "slots/cone_table.hpp"
#include "slots/flat_lists.hpp"

namespace polyrt {
class Program;
class StateEngine;
}  // namespace polyrt

namespace polyrt::slots {

// A native segment: returns 0, or 1 + the index of the failing member.
using SegmentFn = int32_t (*)(uint64_t* slots);
// A native request entry (codegen::emit_request_entry): stores the
// coordinates and runs every step; 0, or nonzero when a member failed.
using RequestFn = int32_t (*)(uint64_t* slots, const uint64_t* coordinates);

// Where a native argument's word comes from: a slot of the state, or a word
// of the program's constants (parameters, table pointers, table sizes).
struct WordRef {
  bool is_slot = true;
  uint32_t index = 0;
};

constexpr uint8_t kSideChannel = 1;
constexpr uint8_t kVolatile = 2;

// What a runner needs of a step on every run, in one record.
struct HotStep {
  SegmentFn segment = nullptr;  // Segment steps (set by the CPU backend)
  nodes::Kit kit = nullptr;     // Kit steps
  uint8_t flags = 0;            // kSideChannel | kVolatile
};

struct SlotProgram {
  plan::StatePlan plan;
  Provenance mode = Provenance::Raw;
  std::string engine_name;  // what State::engine() reports, e.g. "native (PushPull)"
  std::vector<uint64_t> const_words;
  // Per node with a native form: the word of each argument (Outputs excluded).
  std::vector<std::array<WordRef, nodes::kMaxNativeArgs>> node_words;
  std::shared_ptr<const void> code;  // keeps compiled segments alive
  // The plan's lists the runners walk, flattened; dirty_steps is the mode's
  // choice of the plan's input_steps (PushPull) or input_side_steps.
  std::vector<HotStep> steps;
  ConeTable cones;  // over `plan`, which must not move once set
  FlatLists dirty_steps;
  FlatLists stale_steps;                   // per input: the steps whose stamps a change voids
  std::vector<uint64_t> output_word_mask;  // ~0 for scalar outputs, 0 for str
  // The lane's per-output words: the stamp of the producing step for scalar
  // outputs; for str outputs and outputs without a step, steps.size(), a
  // stamp that is never current.
  std::vector<detail::OutputWord> output_words;
  // Raw mode over a plan of native steps only (segments or kits): no extern
  // (so no None), no host step, no side channel, no volatile step, coordinate
  // slots contiguous. Such a state takes writes inline in State::set_inputs
  // and runs its cones with no round bookkeeping (the runtime reference's
  // "pure native" realisation).
  bool express = false;
  // For native programs whose steps to run are all segments, none volatile
  // or a side channel: one compiled call that serves a request for every
  // output (State::request), running runnable_steps (those not frozen).
  RequestFn request = nullptr;
  std::vector<uint32_t> runnable_steps;

  // Whether `distinct_steps` (no step twice) holds every runnable step.
  bool takes_every_runnable_step(std::span<const uint32_t> distinct_steps) const;
  // Per coordinate: whether a change of it makes every runnable step stale
  // (every one depends on it), so that PushPull would run them all again.
  std::vector<uint8_t> coordinate_stales_every_step;
  // Whether output o's cone takes every runnable step (so that evaluating
  // it is running the request entry); false when its cone is not kept.
  // Found at its first call for o, from the cone a pull derives anyway
  // (deriving every cone up front would spend the cone table's budget on
  // outputs never pulled). Safe from any thread.
  bool cone_takes_every_step(size_t o) const;
  // Per output: 0 not found yet, else 1 + the answer.
  std::unique_ptr<std::atomic<uint8_t>[]> every_step_answers;
};

// Plans the program and resolves kit arguments. fuse: native segments (P3).
std::shared_ptr<SlotProgram> build_slot_program(const ir::Graph& graph, bool fuse, Provenance mode,
                                                const std::string& engine);

// Runs `graph` (which `owner` keeps alive; State::program() returns it) with
// the plan and code built from it.
std::unique_ptr<StateEngine> make_slot_engine(std::shared_ptr<const Program> owner,
                                              const ir::Graph& graph,
                                              std::shared_ptr<const SlotProgram> slots);

}  // namespace polyrt::slots
