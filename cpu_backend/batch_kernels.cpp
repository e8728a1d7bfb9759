#include "cpu_backend/batch_kernels.hpp"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "codegen/batch_codegen.hpp"
#include "cpu_backend/jit/jit_engine.hpp"

namespace polyrt::cpu {

namespace {

struct KernelModule {
  std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;
  std::vector<std::string> symbols;
};

KernelModule build_module(const ir::Graph& graph, const plan::BatchPlan& plan, JitEngine& jit) {
  KernelModule km;
  km.module = std::make_unique<llvm::Module>("polyrt_batch", *km.context);
  km.module->setTargetTriple(jit.triple());
  km.module->setDataLayout(jit.data_layout());
  km.symbols = codegen::emit_batch_kernels(*km.module, graph, plan);
  return km;
}

}  // namespace

BatchKernels compile_batch_kernels(const ir::Graph& graph, const plan::BatchPlan& plan) {
  JitEngine& jit = JitEngine::instance();
  KernelModule km = build_module(graph, plan, jit);
  BatchKernels kernels;
  kernels.per_step.assign(plan.steps.size(), nullptr);
  std::vector<std::string> wanted;
  std::vector<size_t> steps;
  for (size_t s = 0; s < km.symbols.size(); ++s) {
    if (km.symbols[s].empty()) continue;
    wanted.push_back(km.symbols[s]);
    steps.push_back(s);
  }
  if (wanted.empty()) return kernels;
  auto code = jit.compile(std::move(km.context), std::move(km.module), wanted);
  for (size_t k = 0; k < steps.size(); ++k) {
    kernels.per_step[steps[k]] = reinterpret_cast<BatchKernelFn>(code->address(k));
  }
  kernels.code = code;
  return kernels;
}

std::string batch_kernels_ir(const ir::Graph& graph, const plan::BatchPlan& plan) {
  JitEngine& jit = JitEngine::instance();
  KernelModule km = build_module(graph, plan, jit);
  return jit.optimized_ir(*km.module);
}

}  // namespace polyrt::cpu
