// A host step of a batch plan over one chunk's columns: its node, row by row,
// through the registry body (ir::run_node), on every back end.
#pragma once

#include <cstdint>

#include "batch/chunk_buffers.hpp"

namespace polyrt::batch {

// Runs `step` (a Host step) over rows [0, min(first_failure, rows)) of the
// chunk whose row 0 has coordinate `first`; lowers `first_failure` to the
// first row where the node fails.
void run_host_step(const PreparedBatch& batch, const plan::BatchStep& step, ChunkBuffers& buffers,
                   uint64_t first, uint64_t& first_failure);

}  // namespace polyrt::batch
