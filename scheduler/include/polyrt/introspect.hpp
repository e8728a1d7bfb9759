// What a compiled program runs as, for people and tools: the per-state plan,
// the batch plan on the CPU or a GPU, and the code generated for them (LLVM
// IR, PTX). `polyrt plan` prints these; Python's Program.plan() and
// Program.ptx() return them. No GPU or driver is needed.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "polyrt/code_target.hpp"
#include "polyrt/plan_view.hpp"
#include "polyrt/polyrt.hpp"

namespace polyrt {

// Throws polyrt::Error naming the valid ones for a compute capability or
// driver polyrt cannot generate code for.
void check_gpu_target(const GpuTarget& target);

// A CUDA driver version as cuDriverGetVersion reports it (12040 for 12.4),
// from "12.4" or "12040"; none for other text ("12", "12.x", "12.100").
std::optional<unsigned> cuda_driver_version_named(std::string_view text);

// The per-state plan of a Closures or Native program: its engine, slot
// layout, steps in evaluation order and provenance mode, as data and as the
// text `polyrt plan` prints. RefusedError for the interpreter, which has no
// plan.
StatePlanView state_plan(const Program& program);
std::string state_plan_text(const Program& program);
// The optimized LLVM IR of a Native program's segments.
std::string state_plan_llvm_ir(const Program& program);
// Their machine code, as assembly, for the JIT's CPU (the host's, or the
// one POLYRT_JIT_CPU names).
std::string state_plan_asm(const Program& program);

enum class PlanDevice { Cpu, Gpu };

// The batch plan of `outputs` (empty: every output; the first input
// iterated) on `device`, as data: its steps and, on a GPU, the columns
// copied between the device and the host.
BatchPlanView batch_plan(const std::shared_ptr<const Program>& program, PlanDevice device,
                         const std::vector<std::string>& outputs = {});

// The batch plan of `outputs` (empty: every output; the first input
// iterated) on `device`: steps, kernels, host steps and the columns copied
// between them; on a GPU also each kernel's registers, spills and occupancy
// when the CUDA toolkit's ptxas is found.
std::string batch_plan_text(const std::shared_ptr<const Program>& program, PlanDevice device,
                            const std::vector<std::string>& outputs = {},
                            const GpuTarget& target = {});
// The batch kernels' LLVM IR on `device`: after O2 (`optimized`) or as
// emitted, before the runtime library is linked.
std::string batch_kernels_llvm_ir(const std::shared_ptr<const Program>& program, PlanDevice device,
                                  bool optimized, const std::vector<std::string>& outputs = {},
                                  const GpuTarget& target = {});
// The CPU batch kernels' machine code, as assembly, for the JIT's CPU.
std::string batch_kernels_asm(const std::shared_ptr<const Program>& program,
                              const std::vector<std::string>& outputs = {});
// The GPU batch kernels' PTX.
std::string batch_kernels_ptx(const std::shared_ptr<const Program>& program,
                              const std::vector<std::string>& outputs = {},
                              const GpuTarget& target = {});

// Valid compute capabilities, "60, 61, 62, 70, ..." (for messages and help).
std::string valid_gpu_targets();

// Every node's reference in Markdown (`polyrt nodes`, docs/nodes.md).
std::string node_reference();

}  // namespace polyrt
