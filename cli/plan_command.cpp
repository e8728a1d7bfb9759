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

// What `polyrt plan` was asked for, from its options.
struct PlanRequest {
  CompileOptions options;
  Emit emit;
  bool batch = false;
  std::optional<std::string> target_name;
  GpuTarget target;
  bool gpu_option = false;
};

PlanRequest read_plan_options(CommandLine& args) {
  PlanRequest r;
  r.options.engine = Engine::Native;
  while (!args.done()) {
    const std::string f = args.flag();
    if (f == "--emit-llvm") {
      r.emit.llvm = true;
    } else if (f == "--before-o2") {
      r.emit.before_o2 = true;
    } else if (f == "--emit-asm") {
      r.emit.assembly = true;
    } else if (f == "--emit-ptx") {
      r.emit.ptx = r.gpu_option = true;
    } else if (f == "--device") {
      // What `polyrt run --device` would run where: the GPU's target.
      const std::string device = args.value_of(f);
      if (device != "cpu" && device != "gpu") {
        throw UsageError("polyrt plan: --device must be cpu or gpu, got '" + device + "'");
      }
      r.target_name = device == "gpu" ? "nvptx" : "cpu";
      r.batch = true;
    } else if (f == "--target") {
      r.target_name = args.value_of(f);
      if (*r.target_name != "cpu" && *r.target_name != "nvptx") {
        throw UsageError("--target must be cpu or nvptx, got '" + *r.target_name + "'");
      }
    } else if (f == "--sm") {
      r.target.sm = parse_sm(args.value_of(f));
      r.gpu_option = true;
    } else if (f == "--cuda-driver") {
      r.target.cuda_driver_version = parse_driver_version(args.value_of(f));
      r.gpu_option = true;
    } else if (!engine_flag(args, f, r.options, &r.batch)) {
      args.unknown_flag(f);
    }
  }
  return r;
}

// UsageError for options that do not go together, or a GPU target polyrt
// cannot generate code for.
void check_plan_request(const PlanRequest& r) {
  const bool nvptx = r.target_name == "nvptx";
  if (r.target_name && !r.batch) throw UsageError("--target applies to --engine batch");
  if (r.gpu_option && !nvptx) {
    throw UsageError("--emit-ptx, --sm and --cuda-driver apply to --target nvptx");
  }
  if (r.emit.before_o2 && (!r.emit.llvm || !r.batch)) {
    throw UsageError("--before-o2 applies to --engine batch --emit-llvm");
  }
  if (r.emit.llvm + r.emit.ptx + r.emit.assembly > 1) {
    throw UsageError("--emit-llvm, --emit-asm and --emit-ptx exclude each other");
  }
  if (r.emit.assembly && nvptx)
    throw UsageError("--emit-asm is the CPU's; for the GPU use --emit-ptx");
  if (nvptx) {
    try {
      check_gpu_target(r.target);
    } catch (const Error& e) {
      throw UsageError(e.what());  // a compute capability or driver polyrt cannot target
    }
  }
  if (!r.batch && r.options.engine == Engine::Interpreter) {
    throw UsageError("polyrt plan: the interpreter has no plan; use --engine closures or native");
  }
}

// The batch plans: the program's, then each traversal's lattice body's.
std::string batch_plans(const Program& program, const PlanRequest& r) {
  const bool nvptx = r.target_name == "nvptx";
  std::string out = batch_output(program.shared_from_this(), nvptx, r.target, r.emit);
  for (size_t t = 0; t < program.traversal_count(); ++t) {
    const TraversalInfo info = traversal_info(program, t);
    out += "traversal " + std::to_string(t) + ": for " + info.comprehension;
    if (!info.lattice_body) {
      out += " runs its body on a per-state engine (its plan: polyrt plan FILE --engine native)\n";
      continue;
    }
    out += " runs in the batch tier as its lattice body, " + std::to_string(info.lattice_tuples) +
           " rows per coordinate:\n" + batch_output(info.lattice_body, nvptx, r.target, r.emit);
  }
  return out;
}

// The per-state plans: the program's, then each traversal body's, a nested
// traversal's named by its path ("traversal 0.1").
std::string state_plans(const Program& program, const Emit& emit) {
  const auto plan_of = [&](const Program& p) {
    return emit.llvm       ? state_plan_llvm_ir(p)
           : emit.assembly ? state_plan_asm(p)
                           : state_plan_text(p);
  };
  std::string out = plan_of(program);
  const std::function<void(const Program&, const std::string&)> bodies =
      [&](const Program& parent, const std::string& path) {
        for (size_t t = 0; t < parent.traversal_count(); ++t) {
          const TraversalInfo info = traversal_info(parent, t);
          const std::string name = path + std::to_string(t);
          out += "\ntraversal " + name + ": for " + info.comprehension + "\n" + plan_of(*info.body);
          bodies(*info.body, name + ".");
        }
      };
  bodies(program, "");
  return out;
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
  const PlanRequest request = read_plan_options(args);
  const std::string& file = args.file();
  args.allow_positionals(1, "plan takes one FILE");
  check_plan_request(request);
  const std::shared_ptr<const Program> program = compile_program_argument(file, request.options);
  const std::string out =
      request.batch ? batch_plans(*program, request) : state_plans(*program, request.emit);
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace polyrt::cli
