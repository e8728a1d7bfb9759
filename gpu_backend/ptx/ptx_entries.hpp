// CUDA's kernel entries (codegen/gpu_kernel_target.hpp): a ptx_kernel of at
// most kGpuBlockThreads threads per block, with kGpuMinBlocksPerSm blocks
// per SM asked of ptxas, reading its thread's indices from the special
// registers, over the NVPTX build of the runtime library.
#pragma once

#include "codegen/gpu_kernel_target.hpp"

namespace polyrt::gpu {

const codegen::GpuKernelTarget& ptx_entries();

}  // namespace polyrt::gpu
