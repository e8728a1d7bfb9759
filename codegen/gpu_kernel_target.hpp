// What a GPU back end's kernels differ in, and nothing else (as Halide's
// CodeGen_GPU_Dev): the runtime library's build, the entry points' names
// and how an entry hands its thread's indices to the grid-stride lanes every
// GPU kernel shares. A batch step's lanes (batch_codegen.hpp) and a
// segment kernel's (segment_kernel.hpp) are emitted once for every target;
// a target wraps them. CUDA's is gpu_backend/ptx/ptx_entries.hpp; the host
// twin's, which runs the same lanes on the CPU for the driver's test double,
// is in gpu_backend/host_twin.cpp.
#pragma once

#include <string>
#include <string_view>

#include "codegen/rtlib_bitcode.hpp"

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace polyrt::codegen {

class GpuKernelTarget {
 public:
  virtual ~GpuKernelTarget() = default;

  // The runtime library the kernels link.
  virtual RtlibTarget rtlib() const = 0;

  // The entry point's symbol for the kernel named `kernel`.
  virtual std::string entry_symbol(std::string_view kernel) const = 0;

  // Adds to `module` the entry `symbol` that calls `lanes`, a function of
  // (its parameters..., i32 block, i32 block_dim, i32 thread, i32 grid_dim),
  // once per thread with the thread's indices. Pointer parameters from
  // `first_noalias` on alias nothing else.
  virtual void emit_entry(llvm::Module& module, llvm::Function* lanes, const std::string& symbol,
                          unsigned first_noalias) const = 0;
};

}  // namespace polyrt::codegen
