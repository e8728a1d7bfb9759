// Emits the kernels of a batch plan (DESIGN.md section 5). Per kernel step k:
//
//   i32 polyrt_batch_body_k(i64 coordinate, i64 row, ptr scalars, ptr col...)
//     one lane: reads its inputs (the lane coordinate, scalars[i], col[row]),
//     runs every member, writes the kernel's column outputs at `row`; returns
//     0, or 1 + the first failing member. Branch-free, so the loop around it
//     vectorizes; a GPU entry point wraps the same body, one lane per thread.
//     Its column parameters are the kernel's columns (kernel_columns order).
//
//   i64 polyrt_batch_kernel_k(i64 first, i64 count, ptr columns, ptr scalars,
//                             ptr failed_member)            (CPU)
//     rows [0, count) with coordinate first + row; `columns` holds every
//     column of the plan (row 0 of the chunk). Returns the first failing row
//     and stores its member, or returns UINT64_MAX.
#pragma once

#include <string>
#include <vector>

#include "plan/batch_plan.hpp"

namespace llvm {
class Module;
}

namespace polyrt::codegen {

std::string batch_kernel_symbol(uint32_t step);

// The plan columns kernel step `step` reads or writes, in the order of the
// body's column parameters.
std::vector<uint32_t> kernel_columns(const ir::Graph& graph, const plan::BatchPlan& plan,
                                     uint32_t step);

// Adds the body and the CPU kernel of every kernel step to `module` (triple
// and data layout set); returns the kernel symbols indexed like plan.steps
// ("" for host steps).
std::vector<std::string> emit_batch_kernels(llvm::Module& module, const ir::Graph& graph,
                                            const plan::BatchPlan& plan);

}  // namespace polyrt::codegen
