// The host twins of a plan's GPU kernels (codegen/batch_codegen.hpp): the
// GPU entry's wrapper and body compiled for this CPU by the process JIT, so
// the GPU kernels' indexing, grid-stride loop and failure word run and are
// tested on machines without a GPU.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "plan/batch_plan.hpp"

namespace polyrt::gpu {

// params[i] points at the GPU entry's i-th argument, as a launch passes them.
using HostTwinFn = void (*)(void* const* params, uint32_t block, uint32_t block_dim,
                            uint32_t thread, uint32_t grid_dim);

struct HostTwinKernels {
  // Per entry of emit_gpu_batch_kernels (null for host steps), or of
  // emit_shared_kernels.
  std::vector<HostTwinFn> per_step;
  std::shared_ptr<const void> code;  // keeps the compiled code alive
};

HostTwinKernels compile_host_twins(const ir::Graph& graph, const plan::BatchPlan& plan);
// The twins of the kernels no plan shapes (codegen/shared_kernels.hpp).
HostTwinKernels compile_shared_host_twins();

struct GridShape {
  uint32_t blocks = 1;
  uint32_t threads_per_block = 1;
};

// Runs every thread of the grid, block by block and thread by thread: what a
// launch computes, without its concurrency.
void run_on_simulated_grid(HostTwinFn kernel, void* const* params, GridShape grid);

}  // namespace polyrt::gpu
