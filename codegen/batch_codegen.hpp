// Emits the kernels of a batch plan (DESIGN.md section 5). Per kernel step k:
//
//   i32 polyrt_batch_body_k(i64 coordinate, i64 row, ptr scalars, ptr col...)
//     one lane: reads its inputs (the lane coordinate, scalars[i], col[row]),
//     runs every member, writes the kernel's column outputs at `row`; returns
//     0, or 1 + the first failing member. Branch-free, so the loop around it
//     vectorizes; a GPU entry point wraps the same body, one lane per thread.
//     Its column parameters are the kernel's columns (kernel_columns order).
//
// The body is emitted once per kernel and wrapped per target:
//
//   i64 polyrt_batch_kernel_k(i64 first, i64 count, ptr columns, ptr scalars,
//                             ptr failed_member)            (BatchTarget::Cpu)
//     rows [0, count) with coordinate first + row; `columns` holds every
//     column of the plan (row 0 of the chunk). Returns the first failing row
//     and stores its member, or returns UINT64_MAX.
//
//   ptx_kernel void polyrt_gpu_kernel_k(i64 first, i64 count, ptr scalars,
//                                       ptr c0, .., ptr err)  (BatchTarget::Nvptx)
//     one lane per thread, grid-stride over rows [0, count) (count < 2^32),
//     at most kGpuBlockThreads threads per block (.maxntid, .minnctapersm 1); the columns are the
//     kernel's (kernel_columns order). A failing lane does an atomic minimum
//     of (row << 32) | member into *err, which the caller set to UINT64_MAX.
//
//   void polyrt_gpu_twin_k(ptr params, i32 block, i32 block_dim, i32 thread,
//                          i32 grid_dim)                  (BatchTarget::HostTwin)
//     the GPU entry's wrapper and body compiled for the host: `params` is a
//     launch's parameter array (params[i] points at the GPU entry's i-th
//     argument, as cuLaunchKernel takes them), the thread's indices are
//     arguments. Running it for every block and thread of a grid does what
//     the GPU kernel does.
#pragma once

#include <string>
#include <vector>

#include "plan/batch_plan.hpp"

namespace llvm {
class Module;
}

namespace polyrt::codegen {

enum class BatchTarget { Cpu, Nvptx, HostTwin };

// Threads per block of every GPU batch kernel: its launch bounds, with one
// block per SM as the only occupancy asked for. With `.maxntid` alone ptxas
// aims at several blocks per SM and capped fused kernels of the differential
// test's programs at 64 (256 threads) or 80 (128) registers, spilling 32
// bytes; with `.minnctapersm 1` it may use what a kernel needs (up to 255).
inline constexpr unsigned kGpuBlockThreads = 256;

// The entry point of kernel step `step` for `target`.
std::string batch_kernel_symbol(BatchTarget target, uint32_t step);

// The plan columns kernel step `step` reads or writes, in the order of the
// body's column parameters.
std::vector<uint32_t> kernel_columns(const ir::Graph& graph, const plan::BatchPlan& plan,
                                     uint32_t step);

// Adds the body and the entry point for `target` of every kernel step to
// `module` (its triple and data layout set: the host's for Cpu and HostTwin,
// nvptx64's for Nvptx); returns the entry symbols indexed like plan.steps
// ("" for host steps).
std::vector<std::string> emit_batch_kernels(llvm::Module& module, const ir::Graph& graph,
                                            const plan::BatchPlan& plan, BatchTarget target);

}  // namespace polyrt::codegen
