// What the slot-buffer tiers (closures P2, native P3) share across all states
// of a program: the plan, the mode, resolved kit arguments and, for P3, the
// compiled segment functions.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nodes/native_form.hpp"
#include "plan/state_plan.hpp"

namespace polyrt {
class Program;
class StateEngine;
}  // namespace polyrt

namespace polyrt::slots {

// A native segment: returns 0, or 1 + the index of the failing member.
using SegmentFn = int32_t (*)(uint64_t* slots);

// Where a native argument's word comes from: a slot of the state, or a word
// of the program's constants (parameters, table pointers, table sizes).
struct WordRef {
  bool is_slot = true;
  uint32_t index = 0;
};

struct SlotProgram {
  plan::StatePlan plan;
  plan::ProvenanceMode mode = plan::ProvenanceMode::Raw;
  std::string engine_name;  // what State::engine() reports, e.g. "native (PushPull)"
  std::vector<uint64_t> const_words;
  // Per node with a native form: the word of each argument (Outputs excluded).
  std::vector<std::array<WordRef, nodes::kMaxNativeArgs>> node_words;
  std::vector<SegmentFn> segment_fns;  // per step; null unless a Segment step
  std::shared_ptr<const void> code;    // keeps compiled segments alive
  // Hot per-step facts, flat so the runners touch one byte or pointer per step.
  std::vector<uint8_t> step_flags;   // kSideChannel | kVolatile
  std::vector<nodes::Kit> step_kit;  // Kit steps: the node's kit; else null
};

constexpr uint8_t kSideChannel = 1;
constexpr uint8_t kVolatile = 2;

// Plans the program and resolves kit arguments. fuse: native segments (P3).
std::shared_ptr<SlotProgram> build_slot_program(const ir::Graph& graph, bool fuse,
                                                plan::ProvenanceMode mode,
                                                const std::string& engine);

// P3: the fused plan with every native segment compiled by the JIT into one
// module. Defined by the CPU backend (cpu_backend/native_program.cpp).
std::shared_ptr<SlotProgram> build_native_program(const ir::Graph& graph,
                                                  plan::ProvenanceMode mode);

std::unique_ptr<StateEngine> make_slot_engine(std::shared_ptr<const Program> program,
                                              std::shared_ptr<const SlotProgram> slots);

}  // namespace polyrt::slots
