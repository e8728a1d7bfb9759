// The seam between the batch evaluator and a target: a back end runs a
// prepared batch plan over chunks of rows into host column buffers. The CPU
// back end (cpu_backend/cpu_batch_backend.hpp) runs JIT kernels as vectorized
// loops; a GPU back end runs the same kernel bodies one lane per thread.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "batch/chunk_steps.hpp"
#include "polyrt/error.hpp"

namespace polyrt::batch {

class BatchBackend {
 public:
  virtual ~BatchBackend() = default;

  virtual const PreparedBatch& batch() const = 0;

  // Where it runs, for messages and `-v`: "cpu", "gpu 0 (NVIDIA H200, sm_90)".
  virtual std::string device_name() const = 0;

  // Rows per chunk when the caller does not choose (0: the evaluator's
  // default): a GPU wants super-chunks sized from its memory.
  virtual uint64_t preferred_chunk_rows() const { return 0; }

  // Chunks in flight at most (0: the evaluator's default), which bounds the
  // memory a back end holds per chunk.
  virtual size_t max_chunks_in_flight() const { return 0; }

  // Chunks it keeps buffers for at once, running or waiting for in-order
  // delivery (0: no limit): the count its memory budget is divided by.
  virtual size_t max_chunks_held() const { return 0; }

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
  // first row; nothing reaches the host but what host steps read. Returns
  // when the chunk's columns are complete there. Only a GPU back end can.
  virtual ChunkFailure run_to_device(ChunkBuffers&, uint64_t, std::span<const uint64_t* const>,
                                     std::span<const uint64_t>) const {
    throw WriteError("device-resident output needs a batch on a GPU; this one runs on " +
                     device_name());
  }
};

}  // namespace polyrt::batch
