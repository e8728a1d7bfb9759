#include "cpu_backend/batch_kernels.hpp"

#include "codegen/batch_codegen.hpp"
#include "codegen/jit/jit_module.hpp"
#include "codegen/pipeline/optimize.hpp"

namespace polyrt::cpu {

BatchKernels compile_batch_kernels(const ir::Graph& graph, const plan::BatchPlan& plan) {
  jit::JitEngine& jit = jit::JitEngine::instance();
  jit::JitModule m("polyrt_batch", jit);
  const std::vector<std::string> symbols = codegen::emit_cpu_batch_kernels(*m.module, graph, plan);
  jit::CompiledSteps compiled = jit::compile_steps(jit, std::move(m), symbols);
  BatchKernels kernels;
  for (void* address : compiled.addresses) {
    kernels.per_step.push_back(reinterpret_cast<BatchKernelFn>(address));
  }
  kernels.code = compiled.code;
  return kernels;
}

std::string batch_kernels_text(const ir::Graph& graph, const plan::BatchPlan& plan,
                               jit::CodeText form) {
  jit::JitEngine& jit = jit::JitEngine::instance();
  jit::JitModule m("polyrt_batch", jit);
  codegen::emit_cpu_batch_kernels(*m.module, graph, plan);
  return jit.code_text(*m.module, form);
}

}  // namespace polyrt::cpu
