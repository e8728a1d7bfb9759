#include "gpu_backend/host_twin.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "codegen/batch_codegen.hpp"
#include "codegen/gpu_kernel_target.hpp"
#include "codegen/jit/jit_module.hpp"
#include "codegen/shared_kernels.hpp"

namespace polyrt::gpu {

namespace {

// A GPU kernel's entry compiled for the host: it takes a launch's
// parameter array (params[i] points at the GPU entry's i-th argument, as
// cuLaunchKernel takes them) and the thread's indices as arguments:
//   void NAME_twin(ptr params, i32 block, i32 block_dim, i32 thread, i32 grid_dim)
class HostTwinEntries final : public codegen::GpuKernelTarget {
 public:
  codegen::RtlibTarget rtlib() const override { return codegen::RtlibTarget::Host; }

  std::string entry_symbol(std::string_view kernel) const override {
    return std::string(kernel) + "_twin";
  }

  void emit_entry(llvm::Module& module, llvm::Function* lanes, const std::string& symbol,
                  unsigned) const override {
    llvm::IRBuilder<> ir(module.getContext());
    llvm::Type* i32 = ir.getInt32Ty();
    auto* type =
        llvm::FunctionType::get(ir.getVoidTy(), {ir.getPtrTy(), i32, i32, i32, i32}, false);
    auto* fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol, module);
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    ir.SetInsertPoint(llvm::BasicBlock::Create(module.getContext(), "entry", fn));
    std::vector<llvm::Value*> args;
    for (unsigned a = 0; a + 4 < lanes->arg_size(); ++a) {
      llvm::Value* slot = ir.CreateAlignedLoad(
          ir.getPtrTy(), ir.CreateConstInBoundsGEP1_64(ir.getPtrTy(), fn->getArg(0), a),
          llvm::Align(8));
      args.push_back(ir.CreateAlignedLoad(lanes->getArg(a)->getType(), slot, llvm::Align(8)));
    }
    for (unsigned a = 1; a <= 4; ++a) args.push_back(fn->getArg(a));
    ir.CreateCall(lanes, args);
    ir.CreateRetVoid();
  }
};

const HostTwinEntries kTwinEntries;

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
    return codegen::emit_gpu_batch_kernels(module, graph, plan, kTwinEntries);
  });
}

HostTwinKernels compile_shared_host_twins() {
  return compile_twins(
      [](llvm::Module& module) { return codegen::emit_shared_kernels(module, kTwinEntries); });
}

void run_on_simulated_grid(HostTwinFn kernel, void* const* params, GridShape grid) {
  for (uint32_t block = 0; block < grid.blocks; ++block) {
    for (uint32_t thread = 0; thread < grid.threads_per_block; ++thread) {
      kernel(params, block, grid.threads_per_block, thread, grid.blocks);
    }
  }
}

}  // namespace polyrt::gpu
