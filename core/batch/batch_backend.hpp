// The seam between the batch evaluator and a target: a back end runs a
// prepared batch plan over chunks of rows into host column buffers. The CPU
// back end (cpu_backend/cpu_batch_backend.hpp) runs JIT kernels as vectorized
// loops; a GPU back end runs the same kernel bodies one lane per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "batch/chunk_steps.hpp"
#include "polyrt/device_kind.hpp"
#include "polyrt/error.hpp"

namespace polyrt::batch {

using polyrt::DeviceKind;

// The device a back end runs on.
struct BackendDevice {
  DeviceKind kind = DeviceKind::Cpu;
  int index = 0;  // among the devices of its kind (a GPU's CUDA ordinal)
  std::string name;
};

// Device memory a back end allocated for the caller: its address on the
// device and an owner that frees it with its last copy.
struct DeviceMemory {
  uint64_t address = 0;
  std::shared_ptr<const void> owner;
};

// A back end's scheduling policy, as the batch evaluator applies it.
struct SchedulingLimits {
  // Chunks it runs at once (0: one per worker thread the caller allows).
  size_t slots = 0;
  // Rows per chunk when the caller does not choose (0: kDefaultChunkRows).
  uint64_t preferred_chunk_rows = 0;
  // The same for a run whose outputs go to the caller's device memory
  // (0: preferred_chunk_rows): a GPU holds no staging nor output columns
  // for it, so its chunks can be larger.
  uint64_t resident_chunk_rows = 0;
  // Chunks in flight at most on its own (0: the pipeline's default): bounds
  // what it holds per chunk.
  size_t max_chunks_in_flight = 0;
  // Among several devices: chunks per slot it may finish ahead of in-order
  // delivery, and chunks it can hold at once (0: no limit beyond that), the
  // count its memory budget is divided by.
  size_t chunks_ahead_per_slot = 1;
  size_t max_chunks_held = 0;
  // Among several devices: the frontier takes the lowest untaken rows in
  // chunks of up to `pieces_per_chunk` pieces of its chunk rows, aiming at
  // `chunk_seconds` of one slot's work (exactly one back end is the
  // frontier: the one that can take rows over from a faulted device).
  bool frontier = false;
  uint64_t pieces_per_chunk = 1;
  double chunk_seconds = 0.01;
};

// A text output (str, json, bytes) that evaluate_to_device writes to device
// memory in Arrow's large layout, the chunks appended in order: `rows` + 1
// int64 offsets at `offsets`, and `size` bytes so far in `bytes` (room for
// `capacity`), grown as chunks arrive.
struct DeviceText {
  uint64_t rows = 0;  // of the whole call
  DeviceMemory offsets;
  DeviceMemory bytes;
  uint64_t capacity = 0;
  uint64_t size = 0;
};

// A chunk's rows of a text output, on the host where it has them (a host
// step's or a scalar's text; null where only the device has them).
struct HostText {
  const int64_t* offsets = nullptr;
  const char* bytes = nullptr;
};

class BatchBackend {
 public:
  virtual ~BatchBackend() = default;

  virtual const PreparedBatch& batch() const = 0;

  // Where it runs: the device's kind and its name for messages and `-v`
  // ("cpu", "gpu 0 (NVIDIA H200, sm_90, 132 SMs)").
  virtual BackendDevice device() const = 0;
  std::string device_name() const { return device().name; }

  // How the evaluator schedules its chunks (the back end's own policy: the
  // evaluator never tells devices apart by kind or position).
  virtual SchedulingLimits scheduling() const = 0;

  // Readies `buffers` (recycled between chunks) for a chunk of `rows` rows.
  virtual void prepare(ChunkBuffers& buffers, uint64_t rows) const = 0;

  // Evaluates rows [0, buffers.rows) with coordinate first + row.
  // `coordinate_columns` holds one pointer per Column coordinate, at this
  // chunk's first row; `targets` (empty, or one per output, null to skip) are
  // caller arrays at this chunk's first row that scalar column outputs may be
  // written to directly (buffers.column_pointers then point at them).
  // Returns the chunk's first failure (batch::run_chunk's rule).
  virtual ChunkFailure run(ChunkBuffers& buffers, uint64_t first,
                           std::span<const uint64_t* const> coordinate_columns,
                           std::span<uint64_t* const> targets) const = 0;

  // Like run(), but every output's words go to the caller's device memory:
  // `device_targets` holds one device address per output at this chunk's
  // first row (0 for a text output: append_text_to_device writes it);
  // nothing reaches the host but what host steps read. Returns when the
  // chunk's word columns are complete there. Only a GPU back end can.
  virtual ChunkFailure run_to_device(ChunkBuffers&, uint64_t, std::span<const uint64_t* const>,
                                     std::span<const uint64_t>) const {
    refuse_device_output();
  }

  // After run_to_device of the chunk in `buffers` (whose first row is row
  // `row` of the call), appends its rows of text output `output` to
  // `text`: in call order, one chunk at a time. `host` is the chunk's text
  // where the host has it. Returns when the rows are in device memory.
  virtual void append_text_to_device(ChunkBuffers&, size_t, uint64_t, HostText, DeviceText&) const {
    refuse_device_output();
  }

  // Copies `bytes` bytes at `address` in its device memory to `out`, and
  // from `in` to `address`.
  virtual void copy_to_host(uint64_t, void*, uint64_t) const { refuse_device_output(); }
  virtual void copy_to_device(const void*, uint64_t, uint64_t) const { refuse_device_output(); }

  // `bytes` of memory on its device for output the caller keeps
  // (evaluate_to_device), in a context that lives as long as the memory.
  // Only a back end with device memory can.
  virtual DeviceMemory allocate_device_memory(uint64_t) const { refuse_device_output(); }

 private:
  [[noreturn]] void refuse_device_output() const {
    throw WriteError("device-resident output needs a batch on a GPU; this one runs on " +
                     device_name());
  }
};

}  // namespace polyrt::batch
