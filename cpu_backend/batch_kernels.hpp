// The CPU batch kernels of a batch plan, compiled by the process JIT into one
// module (codegen/batch_codegen.hpp describes their ABI).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "plan/batch_plan.hpp"

namespace polyrt::cpu {

using BatchKernelFn = uint64_t (*)(uint64_t first, uint64_t count, uint64_t* const* columns,
                                   const uint64_t* scalars, uint32_t* failed_member);

struct BatchKernels {
  std::vector<BatchKernelFn> per_step;  // null for host steps
  std::shared_ptr<const void> code;     // keeps the compiled code alive
};

BatchKernels compile_batch_kernels(const ir::Graph& graph, const plan::BatchPlan& plan);

// The IR of the plan's CPU kernels, after the rtlib is linked and O2, or as
// emitted (`polyrt plan --engine batch --emit-llvm [--before-o2]`).
std::string batch_kernels_ir(const ir::Graph& graph, const plan::BatchPlan& plan, bool optimized);

}  // namespace polyrt::cpu
