#include "polyrt/introspect.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "cpu_backend/native_program.hpp"
#include "nodes/node_docs.hpp"
#include "plan/state_plan.hpp"
#include "program/program_internals.hpp"
#include "scheduler/runtime/batch_setup.hpp"
#include "scheduler/runtime/device_families.hpp"
#include "slots/slot_program.hpp"

namespace polyrt {

namespace {

using KernelText = batch::DeviceFamily::KernelText;

const batch::DeviceFamily& family_on(PlanDevice device) {
  return scheduler::family_of(device == PlanDevice::Gpu ? batch::DeviceKind::Gpu
                                                        : batch::DeviceKind::Cpu);
}

batch::PreparedBatch prepared(const std::shared_ptr<const Program>& program,
                              const std::vector<std::string>& outputs, PlanDevice device) {
  BatchOptions options;
  options.outputs = outputs;
  return scheduler::prepare(program, scheduler::resolve_batch_options(*program, options),
                            family_on(device).placement());
}

// Rows whose text a GPU plan's `typical` bytes are measured on.
constexpr uint64_t kTypicalTextRows = 4096;

// What each GPU kernel's text outputs typically hold per row (its plan line
// gives the bound): measured on the CPU tier over rows [0, 4096) of the
// first input, the bytes a chunk's text compaction copies back per row.
std::string typical_kernel_text(const std::shared_ptr<const Program>& program,
                                const std::vector<std::string>& outputs,
                                const plan::BatchPlan& plan) {
  std::vector<std::vector<size_t>> step_outputs(plan.steps.size());
  for (size_t k = 0; k < plan.outputs.size(); ++k) {
    const plan::BatchValue& v = plan.outputs[k];
    if (v.kind != plan::BatchValue::Column || !is_payload(plan.column_types[v.index])) continue;
    const uint32_t step = plan.column_steps[v.index];
    if (step != plan::kNoStep && plan.steps[step].kind == plan::BatchStep::Kernel) {
      step_outputs[step].push_back(k);
    }
  }
  if (std::all_of(step_outputs.begin(), step_outputs.end(),
                  [](const std::vector<size_t>& o) { return o.empty(); })) {
    return "";
  }
  std::string text =
      "typical text per row, in the outputs each kernel hands over (the CPU "
      "tier's rows 0.." +
      std::to_string(kTypicalTextRows - 1) + "):\n";
  BatchOptions options;
  options.outputs = outputs;
  options.device = BatchDevice::Cpu;
  options.threads = 1;
  std::vector<Column> columns;
  try {
    columns = BatchEvaluator(program, options).evaluate(0, kTypicalTextRows);
  } catch (const Error& e) {
    return text + "not measured: " + e.what() + "\n";
  }
  for (size_t step = 0; step < step_outputs.size(); ++step) {
    if (step_outputs[step].empty()) continue;
    uint64_t bytes = 0;
    std::string names;
    for (size_t k : step_outputs[step]) {
      bytes += columns[k].bytes.size();
      names += (names.empty() ? "" : ", ") + columns[k].name;
    }
    char average[32];
    std::snprintf(average, sizeof average, "%.1f", (double)bytes / kTypicalTextRows);
    text += "step " + std::to_string(step) + ": " + average + " bytes (" + names + ")\n";
  }
  return text;
}

const slots::SlotProgram& slot_program_of(const Program& program) {
  if (!ProgramInternals::slot_program(program)) {
    throw RefusedError("the interpreter has no plan; compile with the closures or native engine");
  }
  return *ProgramInternals::slot_program(program);
}

}  // namespace

std::optional<unsigned> cuda_driver_version_named(std::string_view text) {
  unsigned major = 0, minor = 0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  std::from_chars_result r = std::from_chars(begin, end, major);
  if (r.ec != std::errc() || r.ptr == begin) return std::nullopt;
  if (r.ptr != end) {
    const char* minor_begin = r.ptr + 1;
    if (*r.ptr != '.') return std::nullopt;
    r = std::from_chars(minor_begin, end, minor);
    if (r.ec != std::errc() || r.ptr != end || r.ptr == minor_begin || minor >= 100) {
      return std::nullopt;
    }
    if (major > 4000000) return std::nullopt;  // no overflow of major * 1000
    major = major * 1000 + minor * 10;
  }
  if (major < 1000) return std::nullopt;
  return major;
}

void check_gpu_target(const GpuTarget& target) {
  family_on(PlanDevice::Gpu).check_target(target);
}

std::string valid_gpu_targets() {
  return family_on(PlanDevice::Gpu).valid_targets();
}

std::string node_reference() {
  return nodes::node_reference_markdown();
}

StatePlanView state_plan(const Program& program) {
  const slots::SlotProgram& sp = slot_program_of(program);
  StatePlanView view = plan::view_plan(ProgramInternals::graph(program), sp.plan, sp.mode);
  view.engine = program.engine_name();
  return view;
}

std::string state_plan_text(const Program& program) {
  const StatePlanView view = state_plan(program);
  return "engine: " + view.engine + "\n" + plan::describe_plan(view);
}

BatchPlanView batch_plan(const std::shared_ptr<const Program>& program, PlanDevice device,
                         const std::vector<std::string>& outputs) {
  const batch::PreparedBatch p = prepared(program, outputs, device);
  return plan::view_batch_plan(p.graph(), p.plan);
}

// The native per-state engine's code: the CPU back end owns that engine,
// as it owns compile() (cpu_backend/compile.cpp); it is no device family's.
std::string state_plan_llvm_ir(const Program& program) {
  slot_program_of(program);
  return cpu::native_program_text(program, jit::CodeText::Optimized);
}

std::string state_plan_asm(const Program& program) {
  slot_program_of(program);
  return cpu::native_program_text(program, jit::CodeText::Assembly);
}

std::string batch_plan_text(const std::shared_ptr<const Program>& program, PlanDevice device,
                            const std::vector<std::string>& outputs, const GpuTarget& target) {
  const batch::PreparedBatch p = prepared(program, outputs, device);
  std::string text = plan::describe_batch_plan(p.graph(), p.plan);
  if (device == PlanDevice::Gpu) text += typical_kernel_text(program, outputs, p.plan);
  return text + family_on(device).kernel_text(p, KernelText::Resources, target);
}

std::string batch_kernels_llvm_ir(const std::shared_ptr<const Program>& program, PlanDevice device,
                                  bool optimized, const std::vector<std::string>& outputs,
                                  const GpuTarget& target) {
  return family_on(device).kernel_text(prepared(program, outputs, device),
                                       optimized ? KernelText::OptimizedIr : KernelText::EmittedIr,
                                       target);
}

std::string batch_kernels_asm(const std::shared_ptr<const Program>& program,
                              const std::vector<std::string>& outputs) {
  return family_on(PlanDevice::Cpu)
      .kernel_text(prepared(program, outputs, PlanDevice::Cpu), KernelText::Assembly, {});
}

std::string batch_kernels_ptx(const std::shared_ptr<const Program>& program,
                              const std::vector<std::string>& outputs, const GpuTarget& target) {
  return family_on(PlanDevice::Gpu)
      .kernel_text(prepared(program, outputs, PlanDevice::Gpu), KernelText::Assembly, target);
}

}  // namespace polyrt
