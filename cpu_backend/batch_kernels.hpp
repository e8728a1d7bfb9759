// The CPU batch kernels of a batch plan, compiled by the process JIT into one
// module (codegen/batch_codegen.hpp describes their ABI).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "codegen/jit/code_text.hpp"
#include "plan/batch_plan.hpp"

namespace polyrt::cpu {

using BatchKernelFn = uint64_t (*)(uint64_t first, uint64_t count, uint64_t* const* columns,
                                   const uint64_t* scalars, uint32_t* failed_member);

struct BatchKernels {
  std::vector<BatchKernelFn> per_step;  // null for host steps
  std::shared_ptr<const void> code;     // keeps the compiled code alive
};

BatchKernels compile_batch_kernels(const ir::Graph& graph, const plan::BatchPlan& plan);

// The plan's CPU kernels as `polyrt plan --engine batch --emit-llvm
// [--before-o2]` or `--emit-asm` prints them.
std::string batch_kernels_text(const ir::Graph& graph, const plan::BatchPlan& plan,
                               jit::CodeText form);

}  // namespace polyrt::cpu
