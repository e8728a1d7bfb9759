// `polyrt plan`: the per-state plan, or the batch plan and its kernels for
// the CPU (LLVM IR) or NVPTX (LLVM IR or PTX).
#include <charconv>
#include <cstdio>
#include <functional>

#include "cli/command_line.hpp"
#include "cli/workload_file.hpp"
#include "polyrt/introspect.hpp"
#include "polyrt/traversal.hpp"

namespace polyrt::cli {

namespace {

unsigned parse_sm(const std::string& text) {
  const std::string digits = text.starts_with("sm_") ? text.substr(3) : text;
  unsigned sm = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), sm);
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty()) {
    throw UsageError("--sm expects a compute capability such as 90 or sm_90, got '" + text +
                     "' (valid: " + valid_gpu_targets() + ")");
  }
  return sm;
}

// "12.4" or 12040 (as cuDriverGetVersion reports it).
unsigned parse_driver_version(const std::string& text) {
  const std::optional<unsigned> version = cuda_driver_version_named(text);
  if (!version) {
    throw UsageError("--cuda-driver expects a CUDA driver version such as 12.4 or 12040, got '" +
                     text + "'");
  }
  return *version;
}

// What to print of the plan: the plan itself or its code in one form.
struct Emit {
  bool llvm = false, before_o2 = false, ptx = false, assembly = false;
};

std::string batch_output(const std::shared_ptr<const Program>& program, bool nvptx,
                         const GpuTarget& target, const Emit& emit) {
  const PlanDevice device = nvptx ? PlanDevice::Gpu : PlanDevice::Cpu;
  if (emit.ptx) return batch_kernels_ptx(program, {}, target);
  if (emit.assembly) return batch_kernels_asm(program);
  if (emit.llvm) return batch_kernels_llvm_ir(program, device, !emit.before_o2, {}, target);
  return batch_plan_text(program, device, {}, target);
}

}  // namespace

int plan_command(CommandLine& args) {
  static const std::string usage =
      "usage: polyrt plan FILE [--engine batch|closures|native] [--provenance MODE] [--device D]\n"
      "                   [--lib DIR]... [--partition [CURSOR=]I]...\n"
      "                   [--emit-llvm [--before-o2] | --emit-asm] [--target cpu|nvptx\n"
      "                   [--sm N] [--cuda-driver V] [--emit-ptx]]\n\n"
      "Prints the per-state plan: the slot layout, the steps in evaluation order (native\n"
      "segments and host steps) and the provenance mode. --emit-llvm prints the\n"
      "optimized LLVM IR of the native segments instead, --emit-asm their machine code\n"
      "(for the host's CPU, or the LLVM CPU that the environment variable POLYRT_JIT_CPU\n"
      "names, e.g. x86-64-v3).\n\n"
      "--engine batch prints the batch plan of every output (the first input iterated);\n"
      "--device gpu (the batch plan with --target nvptx) says what runs on the GPU, what\n"
      "on CPU workers, which columns are copied between them, and each kernel's registers,\n"
      "spills and occupancy as the CUDA toolkit's ptxas reports them (when one is found);\n"
      "--emit-llvm its kernels' LLVM IR after O2 (--before-o2: as emitted, before the\n"
      "rtlib is linked), --emit-asm the CPU kernels' machine code. --target nvptx generates the "
      "GPU kernels: --emit-ptx prints\n"
      "their PTX, --sm the compute capability (default 90; valid: " +
      valid_gpu_targets() +
      "),\n--cuda-driver the oldest CUDA driver that must load it (e.g. 12.4; it picks the PTX\n"
      "ISA; default: the newest LLVM emits, PTX ISA 8.5).\n";
  if (args.wants_help()) return print_compiling_help(usage.c_str());
  CompileOptions options;
  options.engine = Engine::Native;
  Emit emit;
  bool batch = false;
  std::optional<std::string> target_name;
  GpuTarget target;
  bool gpu_option = false;
  while (!args.done()) {
    const std::string f = args.flag();
    if (f == "--emit-llvm") {
      emit.llvm = true;
    } else if (f == "--before-o2") {
      emit.before_o2 = true;
    } else if (f == "--emit-asm") {
      emit.assembly = true;
    } else if (f == "--emit-ptx") {
      emit.ptx = gpu_option = true;
    } else if (f == "--device") {
      // What `polyrt run --device` would run where: the GPU's target.
      const std::string device = args.value_of(f);
      if (device != "cpu" && device != "gpu") {
        throw UsageError("polyrt plan: --device must be cpu or gpu, got '" + device + "'");
      }
      target_name = device == "gpu" ? "nvptx" : "cpu";
      batch = true;
    } else if (f == "--target") {
      target_name = args.value_of(f);
      if (*target_name != "cpu" && *target_name != "nvptx") {
        throw UsageError("--target must be cpu or nvptx, got '" + *target_name + "'");
      }
    } else if (f == "--sm") {
      target.sm = parse_sm(args.value_of(f));
      gpu_option = true;
    } else if (f == "--cuda-driver") {
      target.cuda_driver_version = parse_driver_version(args.value_of(f));
      gpu_option = true;
    } else if (!engine_flag(args, f, options, &batch)) {
      args.unknown_flag(f);
    }
  }
  const std::string& file = args.file();
  args.allow_positionals(1, "plan takes one FILE");
  const bool nvptx = target_name == "nvptx";
  if (target_name && !batch) throw UsageError("--target applies to --engine batch");
  if (gpu_option && !nvptx) {
    throw UsageError("--emit-ptx, --sm and --cuda-driver apply to --target nvptx");
  }
  if (emit.before_o2 && (!emit.llvm || !batch)) {
    throw UsageError("--before-o2 applies to --engine batch --emit-llvm");
  }
  if (emit.llvm + emit.ptx + emit.assembly > 1) {
    throw UsageError("--emit-llvm, --emit-asm and --emit-ptx exclude each other");
  }
  if (emit.assembly && nvptx)
    throw UsageError("--emit-asm is the CPU's; for the GPU use --emit-ptx");
  if (nvptx) {
    try {
      check_gpu_target(target);
    } catch (const Error& e) {
      throw UsageError(e.what());  // a compute capability or driver polyrt cannot target
    }
  }
  if (batch) {
    const std::shared_ptr<const Program> program = compile_program_argument(file, options);
    std::string out = batch_output(program, nvptx, target, emit);
    for (size_t t = 0; t < program->traversal_count(); ++t) {
      const TraversalInfo info = traversal_info(*program, t);
      out += "traversal " + std::to_string(t) + ": for " + info.comprehension;
      if (!info.lattice_body) {
        out +=
            " runs its body on a per-state engine (its plan: polyrt plan FILE --engine native)\n";
        continue;
      }
      out += " runs in the batch tier as its lattice body, " + std::to_string(info.lattice_tuples) +
             " rows per coordinate:\n" + batch_output(info.lattice_body, nvptx, target, emit);
    }
    std::fputs(out.c_str(), stdout);
    return 0;
  }
  if (options.engine == Engine::Interpreter) {
    throw UsageError("polyrt plan: the interpreter has no plan; use --engine closures or native");
  }
  auto program = compile_program_argument(file, options);
  const auto plan_of = [&](const Program& p) {
    return emit.llvm       ? state_plan_llvm_ir(p)
           : emit.assembly ? state_plan_asm(p)
                           : state_plan_text(p);
  };
  std::string out = plan_of(*program);
  // Each traversal's body is a program of its own, with a plan of its own;
  // a nested traversal's is named by its path ("traversal 0.1").
  const std::function<void(const Program&, const std::string&)> bodies =
      [&](const Program& parent, const std::string& path) {
        for (size_t t = 0; t < parent.traversal_count(); ++t) {
          const TraversalInfo info = traversal_info(parent, t);
          const std::string name = path + std::to_string(t);
          out += "\ntraversal " + name + ": for " + info.comprehension + "\n" + plan_of(*info.body);
          bodies(*info.body, name + ".");
        }
      };
  bodies(*program, "");
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace polyrt::cli
