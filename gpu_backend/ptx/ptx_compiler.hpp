// The batch kernels of a plan as PTX (DESIGN.md section 5): the per-lane
// bodies wrapped in GPU entry points (codegen/batch_codegen.hpp), the nvptx64
// rtlib linked, O2, LLVM's NVPTX back end. No GPU and no driver needed.
// Cached like host objects: in memory and on disk (codegen/pipeline), keyed
// by our IR, the LLVM version, the target (sm, PTX ISA) and the nvptx64 rtlib.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/compiled_cache.hpp"
#include "gpu_backend/ptx/nvptx_target.hpp"
#include "plan/batch_plan.hpp"

namespace llvm {
class TargetMachine;
}

namespace polyrt::gpu {

struct EmittedModule;

struct PtxKernels {
  std::string ptx;
  std::string key;  // its cache key (our IR, LLVM, target, rtlib)
  // Per plan step, its kernel's entry ("" for host steps); for the shared
  // kernels, theirs in codegen::SharedKernel order.
  std::vector<std::string> entries;
  ResolvedNvptxTarget target;
};

using PtxStats = cache::CacheStats;

class PtxCompiler {
 public:
  // The process-wide compiler (disk cache from cache::default_cache_dir()).
  static PtxCompiler& instance();
  explicit PtxCompiler(std::optional<std::string> cache_dir);
  ~PtxCompiler();

  // Throws polyrt::Error for a target LLVM cannot generate code for.
  PtxKernels compile(const ir::Graph& graph, const plan::BatchPlan& plan,
                     const NvptxTarget& target);

  // The kernels no plan shapes (codegen/shared_kernels.hpp), in a module of
  // their own, cached like a plan's.
  PtxKernels compile_shared_kernels(const NvptxTarget& target);

  // The kernels' module as LLVM IR: as emitted (before the rtlib is linked)
  // or after linking and O2 (`polyrt plan --emit-llvm`).
  std::string module_ir(const ir::Graph& graph, const plan::BatchPlan& plan,
                        const NvptxTarget& target, bool optimized);

  PtxStats stats() const;

  struct Impl;  // defined in ptx_compiler.cpp, where the LLVM types live

 private:
  // A module's PTX, from the cache or linked, optimized and assembled.
  PtxKernels assemble(EmittedModule&& module, llvm::TargetMachine& tm,
                      const ResolvedNvptxTarget& target);

  std::unique_ptr<Impl> impl_;
};

}  // namespace polyrt::gpu
