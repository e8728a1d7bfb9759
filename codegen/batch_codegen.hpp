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
//                             ptr failed_member)            (the CPU)
//     rows [0, count) with coordinate first + row; `columns` holds every
//     column of the plan (row 0 of the chunk). Returns the first failing row
//     and stores its member, or returns UINT64_MAX.
//
//   void polyrt_gpu_kernel_k(i64 first, i64 count, ptr scalars, ptr c0, ..,
//                            ptr err)                        (a GPU target)
//     the lanes: one per thread, grid-stride over rows [0, count) (count <
//     2^32); the columns are the kernel's (kernel_columns order). A failing
//     lane does an atomic minimum of (row << 32) | member into *err, which
//     the caller set to UINT64_MAX. The target (gpu_kernel_target.hpp) names
//     the entry and hands it its thread's indices: CUDA's is a ptx_kernel of
//     at most kGpuBlockThreads threads per block (.maxntid, .minnctapersm
//     kGpuMinBlocksPerSm); the host twin's takes a launch's parameter array
//     and the indices as arguments, so that running it for every block and
//     thread of a grid does what the GPU kernel does.
#pragma once

#include <string>
#include <vector>

#include "plan/batch_plan.hpp"

namespace llvm {
class Module;
}

namespace polyrt::codegen {

class GpuKernelTarget;

// Threads per block of every GPU batch kernel and the blocks per SM its
// launch bounds ask ptxas for (.maxntid, .minnctapersm): 2 blocks of 256
// threads cap a kernel at 128 registers. With 1 block, ptxas gave
// lineitem's fused kernel 168 registers (8 warps per SM, too few to hide
// memory latency); with 2 it fits in 128 with no spills (16 warps), as do
// the examples and the differential test's programs (tests/ptx_test.cpp).
// Without .minnctapersm ptxas aims at more blocks and spilled at 64-80
// registers. The grid is then sized from the driver's occupancy calculator.
inline constexpr unsigned kGpuBlockThreads = 256;
inline constexpr unsigned kGpuMinBlocksPerSm = 2;

// The plan columns kernel step `step` reads or writes, in the order of the
// body's column parameters.
std::vector<uint32_t> kernel_columns(const ir::Graph& graph, const plan::BatchPlan& plan,
                                     uint32_t step);

// Adds the body and the CPU entry point of every kernel step to `module`
// (the host's triple and data layout set); returns the entry symbols
// indexed like plan.steps ("" for host steps).
std::vector<std::string> emit_cpu_batch_kernels(llvm::Module& module, const ir::Graph& graph,
                                                const plan::BatchPlan& plan);

// The same with `target`'s entry points (the module set for the target).
// The kernels no plan shapes (text compaction, row encoding) are in a
// module of their own (shared_kernels.hpp).
std::vector<std::string> emit_gpu_batch_kernels(llvm::Module& module, const ir::Graph& graph,
                                                const plan::BatchPlan& plan,
                                                const GpuKernelTarget& target);

}  // namespace polyrt::codegen
