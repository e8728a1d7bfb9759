// What every GPU entry point shares, whatever its body: the PTX kernel
// calling convention and launch bounds, the thread's indices, and the host
// twin's unpacking of a launch's parameter array (see batch_codegen.hpp).
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <array>
#include <vector>

namespace polyrt::codegen {

// Makes `fn` a PTX kernel of at most kGpuBlockThreads threads per block, with
// kGpuMinBlocksPerSm blocks per SM asked of ptxas.
void mark_gpu_kernel(llvm::Module& module, llvm::Function* fn);

// The thread's block, block size, thread and grid size (ctaid, ntid, tid,
// nctaid: x only), as i32.
std::array<llvm::Value*, 4> gpu_thread_indices(llvm::IRBuilder<>& ir);

// A host twin's arguments from a launch's parameter array `params`
// (params[i] points at argument i, as cuLaunchKernel takes them), typed as
// `types`.
std::vector<llvm::Value*> launch_arguments(llvm::IRBuilder<>& ir, llvm::Value* params,
                                           const std::vector<llvm::Type*>& types);

}  // namespace polyrt::codegen
