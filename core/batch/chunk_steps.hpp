// The steps of a batch plan over one chunk, on every back end: the generated
// outputs, the caller's columns, then each step in order, kernels by the back
// end and host steps through the nodes' columnar forms or, row by row, their
// registry bodies (ir::run_node).
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "batch/chunk_buffers.hpp"

namespace polyrt::batch {

// A kernel step's first failing row (then its first failing member).
struct KernelFailure {
  uint64_t row = plan::kNoFailingRow;
  uint32_t member = 0;
};

// A chunk's first failure: the smallest failing row; of the steps failing
// there, the first; its failing member (0 for a host step).
struct ChunkFailure {
  uint64_t row = plan::kNoFailingRow;
  uint32_t step = 0;
  uint32_t member = 0;

  bool failed() const { return row != plan::kNoFailingRow; }
  bool operator==(const ChunkFailure&) const = default;
};

// Runs Host step `step` over rows [0, min(limit, buffers.rows)) of the chunk
// whose row 0 has coordinate `first`, reading and writing the columns through
// column_pointers (str columns through texts): the node's columnar form over
// the whole chunk when it has one, else its registry body row by row. Returns
// the first failing row, or kNoFailingRow; its str outputs always get
// buffers.rows rows.
uint64_t run_host_step(const PreparedBatch& batch, const plan::BatchStep& step,
                       ChunkBuffers& buffers, uint64_t first, uint64_t limit);

// run_host_step with its rows in consecutive parts of `part_rows` rows that
// `for_each_part` may run at once (each part's str rows in a column of its
// own, appended in order): the host steps of a GPU's large chunk on every
// core. Same result as run_host_step.
uint64_t run_host_step_in_parts(const PreparedBatch& batch, const plan::BatchStep& step,
                                ChunkBuffers& buffers, uint64_t first, uint64_t limit,
                                uint64_t part_rows, const ForEachPart& for_each_part);

// Folds the step results of a chunk, in step order, into its first failure:
// the smallest row; of equal rows, the earlier step.
inline void fold_failure(ChunkFailure& failure, uint32_t step, const KernelFailure& f) {
  if (f.row < failure.row) failure = ChunkFailure{f.row, step, f.member};
}

// Evaluates rows [0, buffers.rows) whose row 0 has coordinate `first` (see
// BatchBackend::run); `run_kernel(step)` runs a kernel step over the chunk's
// column pointers. Host steps stop at the first failure found so far.
ChunkFailure run_chunk(const PreparedBatch& batch, ChunkBuffers& buffers, uint64_t first,
                       std::span<const uint64_t* const> coordinate_columns,
                       std::span<uint64_t* const> targets,
                       const std::function<KernelFailure(uint32_t step)>& run_kernel);

}  // namespace polyrt::batch
