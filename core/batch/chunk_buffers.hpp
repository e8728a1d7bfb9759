// The host-side columns of one chunk of a batch, and the target-independent
// parts of filling them: sizing, the generated outputs (lane and scalar
// columns), and pointing the plan's columns at caller arrays.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "batch/prepared_batch.hpp"

namespace polyrt::batch {

struct ChunkBuffers {
  uint64_t rows = 0;
  std::vector<std::vector<uint64_t>> words;       // per plan column (empty for str)
  std::vector<std::vector<Value>> values;         // per plan column (str only)
  std::vector<uint64_t*> column_pointers;         // where each column is read and written
  std::vector<std::vector<uint64_t>> filled;      // per output: lane or scalar outputs
  std::vector<std::vector<Value>> filled_values;  // per output: scalar str outputs
};

// Sizes the buffers for `rows` rows and points every column at its buffer
// (a recycled chunk keeps its capacity).
void size_chunk(const PreparedBatch& batch, ChunkBuffers& buffers, uint64_t rows);

// Writes the outputs no step computes: the lane's coordinates and the scalars
// repeated, for rows [0, buffers.rows) from coordinate `first`.
void fill_generated_outputs(const PreparedBatch& batch, ChunkBuffers& buffers, uint64_t first);

// Points the plan's columns at the caller's arrays, at this chunk's first row:
// one per Column coordinate (read only) and, when `targets` is not empty, one
// per output (null: none) that the steps then write straight into.
void bind_caller_columns(const PreparedBatch& batch, ChunkBuffers& buffers,
                         std::span<const uint64_t* const> coordinate_columns,
                         std::span<uint64_t* const> targets);

}  // namespace polyrt::batch
