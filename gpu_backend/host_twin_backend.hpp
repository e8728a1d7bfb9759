// A batch back end that runs the plan's GPU kernels as their host twins over
// a simulated grid: the GPU tier's kernel logic (lane indexing, grid-stride
// rows, the failure word) checked against the CPU tier on any machine. The
// differential test runs it for every seed.
#pragma once

#include <memory>

#include "batch/batch_backend.hpp"
#include "gpu_backend/host_twin.hpp"

namespace polyrt::gpu {

std::unique_ptr<batch::BatchBackend> make_host_twin_backend(batch::PreparedBatch batch,
                                                            GridShape grid);

}  // namespace polyrt::gpu
