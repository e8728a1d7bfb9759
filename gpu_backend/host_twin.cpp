#include "gpu_backend/host_twin.hpp"

#include "codegen/batch_codegen.hpp"
#include "codegen/jit/jit_module.hpp"
#include "codegen/shared_kernels.hpp"

namespace polyrt::gpu {

namespace {

// The twins of the entries `emit` adds to a module.
template <typename Emit>
HostTwinKernels compile_twins(const Emit& emit) {
  jit::JitEngine& jit = jit::JitEngine::instance();
  jit::JitModule m("polyrt_gpu_twin", jit);
  const std::vector<std::string> symbols = emit(*m.module);
  jit::CompiledSteps compiled = jit::compile_steps(jit, std::move(m), symbols);
  HostTwinKernels twins;
  for (void* address : compiled.addresses) {
    twins.per_step.push_back(reinterpret_cast<HostTwinFn>(address));
  }
  twins.code = compiled.code;
  return twins;
}

}  // namespace

HostTwinKernels compile_host_twins(const ir::Graph& graph, const plan::BatchPlan& plan) {
  return compile_twins([&](llvm::Module& module) {
    return codegen::emit_batch_kernels(module, graph, plan, codegen::BatchTarget::HostTwin);
  });
}

HostTwinKernels compile_shared_host_twins() {
  return compile_twins([](llvm::Module& module) {
    return codegen::emit_shared_kernels(module, codegen::BatchTarget::HostTwin);
  });
}

void run_on_simulated_grid(HostTwinFn kernel, void* const* params, GridShape grid) {
  for (uint32_t block = 0; block < grid.blocks; ++block) {
    for (uint32_t thread = 0; thread < grid.threads_per_block; ++thread) {
      kernel(params, block, grid.threads_per_block, thread, grid.blocks);
    }
  }
}

}  // namespace polyrt::gpu
