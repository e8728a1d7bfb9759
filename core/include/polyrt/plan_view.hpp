// A compiled program's plans as data (polyrt/introspect.hpp returns them;
// `polyrt plan` prints the text made from them): the per-state plan's slots
// and steps, and the batch plan's steps with, on a GPU, the columns copied
// between the device and the host.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace polyrt {

// A node of a step: its node (`hash`, `+`) and the binding it computes
// (hidden bindings of inlined modules and interpolations carry "__").
struct PlanNode {
  std::string node;
  std::string binding;
};

struct PlanSlot {
  uint32_t slot = 0;
  std::string binding;
  std::string type;       // "u64", "str", ...
  std::string lifecycle;  // "dynamic", "const", "volatile", ...
};

struct PlanStep {
  // State plans: "native segment", "kit" or "host step". Batch plans:
  // "native kernel" or "host" on the CPU, "GPU kernel" or "host, on a CPU
  // worker" on a GPU.
  std::string kind;
  std::vector<PlanNode> nodes;  // in evaluation order
  // State plans: "volatile", "side channel", "init"; the slots it reads
  // (and does not write) and writes.
  std::vector<std::string> flags;
  std::vector<uint32_t> reads, writes;
  // Batch plans on a GPU: the columns copied before the step (to the GPU
  // before a kernel, to the host before a host step), by binding.
  std::vector<std::string> copied_before;
  // Batch plans on a GPU: why a host step's node is no kernel member, and
  // the most bytes of text a kernel writes per row (its members' bounds).
  std::string why_host;
  uint64_t text_bytes_per_row = 0;
};

struct StatePlanView {
  std::string engine;  // "closures (Raw)", "native (PushPull)"
  std::string mode;    // "Raw", "Pull", "PushPull"
  uint32_t slot_count = 0;
  std::vector<PlanSlot> slots;  // the named bindings' first slots
  std::vector<PlanStep> steps;  // in evaluation order
};

struct BatchPlanView {
  bool gpu = false;  // kernels on a GPU
  size_t columns = 0, scalars = 0;
  std::vector<PlanStep> steps;
  std::vector<std::string> copied_to_host_last;  // GPU: outputs copied back after the last step
  // GPU: whether text rows (CSV, TSV, JSON Lines) are encoded on the device
  // (then only their bytes are copied back), and why not.
  bool rows_on_device = false;
  std::string why_rows_on_host;
};

}  // namespace polyrt
