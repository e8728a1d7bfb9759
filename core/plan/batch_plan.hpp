// The batch plan: how the cones of requested outputs are evaluated over a
// range of coordinates, column by column. Target-independent and LLVM-free:
// the CPU tier runs its kernels as vectorized loops, a GPU tier would run the
// same kernel bodies one lane per thread.
//
// Per node port, a batch value is None (an unset extern reaches it), a Scalar
// (the same for every lane: constants, fixed coordinates, externs and what
// only they feed; evaluated once per batch on the host), the Lane (the
// iterated coordinate, generated from the lane index), a Column (one word or
// string per lane) or a Register (inside one kernel, never stored).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "polyrt/plan_view.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::plan {

// "No row failed", wherever a batch reports its first failing row (CPU
// kernels, chunk runners, the evaluator).
inline constexpr uint64_t kNoFailingRow = ~uint64_t{0};

// "No step", where a step index is expected.
inline constexpr uint32_t kNoStep = ~uint32_t{0};

enum class CoordinateSource : uint8_t {
  Lane,    // the lane's coordinate: first + lane index
  Scalar,  // one value for the batch
  Column,  // one caller-supplied value per lane
};

// Where a plan's kernels run: a GPU's kernels also write the text of string
// nodes that have a device form (nodes::DeviceTextForm).
enum class PlanPlacement : uint8_t { Cpu, Gpu };

// The most bytes a device-made str column reserves per row for one text; a
// node whose text may be longer stays a host step.
inline constexpr uint32_t kMaxDeviceTextBytes = 4096;
// The same for a vector, whose bound is its exact size (4 * dim bytes, no
// slot reserved beyond what every row fills): 16,384 f32 elements, past the
// widest embeddings models make (4,096).
inline constexpr uint32_t kMaxDeviceVectorBytes = 65536;

// A device-made str column (PlanPlacement::Gpu) holds per row a slot of
// device_text_slot(bound) bytes: the text's length (a u32), its bytes, and
// the bytes past them that the rtlib's digit writers may overwrite, rounded
// up to 8 bytes (the layout rtlib.h defines).
inline uint64_t device_text_slot(uint32_t bound) {
  return (PD_DEVICE_TEXT_LENGTH + (uint64_t)bound + PD_DEVICE_TEXT_SLACK + 7) / 8 * 8;
}

// What a batch plan depends on besides the program: which coordinate varies
// how, which externs are unset for the batch, which outputs are wanted.
struct BatchShape {
  std::vector<CoordinateSource> coordinates;  // per coordinate
  std::vector<uint8_t> extern_is_none;        // per extern
  // Per extern: no default. `const` bindings are evaluated when a state is
  // created, from the defaults, and keep those values whatever the batch sets.
  std::vector<uint8_t> extern_default_is_none;
  std::vector<uint32_t> outputs;  // indexes into graph.outputs, in column order
  PlanPlacement placement = PlanPlacement::Cpu;
};

struct BatchValue {
  enum Kind : uint8_t { None, Scalar, Lane, Column, Register } kind = None;
  uint32_t index = 0;  // Scalar: scalar index; Column: column index
};

struct BatchStep {
  enum Kind : uint8_t {
    Kernel,  // native nodes fused into one loop over the lanes
    Host,    // one node evaluated lane by lane through its registry body
  } kind = Host;
  std::vector<uint32_t> nodes;  // Kernel: members in topological order; Host: the node
  bool fallible = false;        // Kernel: a member can fail
  std::string why_host;         // Host on a GPU: why the node is no kernel member
};

struct BatchPlan {
  std::vector<uint32_t> port_base;  // the graph's: per node, its first port in `values`
  std::vector<BatchValue> values;   // per node port
  // Per node port, the port whose value it carries: itself, or for an alias
  // binding (`b := a`) the port it passes through. An alias is no step and
  // splits no kernel: it costs nothing.
  std::vector<uint32_t> source_port;
  // Nodes evaluated once per batch on the host, in topological order; scalar
  // i is port scalar_ports[i].
  std::vector<uint32_t> scalar_nodes;
  std::vector<uint32_t> scalar_ports;
  std::vector<BatchStep> steps;  // in execution order
  PlanPlacement placement = PlanPlacement::Cpu;
  std::vector<Type> column_types;  // per column
  // Per column: the bound in bytes of a str column a GPU kernel writes
  // (device_text_slot), 0 for every other column.
  std::vector<uint32_t> text_bounds;
  // Per column, the step that writes it (kNoStep: a caller's coordinate column).
  std::vector<uint32_t> column_steps;
  // Column fed by each coordinate of source Column (else ~0u).
  std::vector<uint32_t> coordinate_columns;
  std::vector<BatchValue> outputs;  // per requested output
  // On a GPU: why the outputs' text rows (CSV, TSV, JSON Lines) cannot be
  // encoded on the device, or "" when they can: every output is a kernel's
  // word or text column, a scalar (its field encoded once on the host) or
  // the lane's coordinate.
  std::string why_rows_on_host;

  uint32_t source_of(ir::Wire w) const { return source_port[port_base[w.node] + w.port]; }
  // The node whose output `port` is.
  uint32_t node_of(uint32_t port) const;
  const BatchValue& value_of(ir::Wire w) const { return values[source_of(w)]; }
  bool rows_on_device() const {
    return placement == PlanPlacement::Gpu && why_rows_on_host.empty();
  }
  // Whether a GPU runs the kernels no plan shapes for it (text compaction,
  // row encoding): the plan has device text or rows on the device.
  bool uses_text_kernels() const {
    return rows_on_device() ||
           std::any_of(text_bounds.begin(), text_bounds.end(), [](uint32_t b) { return b != 0; });
  }
};

// The value a constant node gives at `port`, or null when another kind of
// node computes it.
const Value* constant_at(const ir::Graph& graph, const BatchPlan& plan, uint32_t port);

// Plans a batch. Throws RefusedError when a requested output's cone holds a
// side-channel node (its lines would have no defined order across lanes).
BatchPlan plan_batch(const ir::Graph& graph, const BatchShape& shape);

// The plan as data: its steps (kernels and host steps, with their nodes),
// columns and scalars; on the GPU also the columns copied between the
// device and the host before each step and at the end.
BatchPlanView view_batch_plan(const ir::Graph& graph, const BatchPlan& plan);
// The view as `polyrt plan --engine batch` prints it.
std::string describe_batch_plan(const BatchPlanView& view);
std::string describe_batch_plan(const ir::Graph& graph, const BatchPlan& plan);

}  // namespace polyrt::plan
