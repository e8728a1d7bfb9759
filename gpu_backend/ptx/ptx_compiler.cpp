#include "gpu_backend/ptx/ptx_compiler.hpp"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Triple.h>

#include <mutex>

#include "cache/disk_cache.hpp"
#include "codegen/batch_codegen.hpp"
#include "codegen/pipeline/llvm_fatal_errors.hpp"
#include "codegen/pipeline/nvptx_lowering.hpp"
#include "codegen/pipeline/optimize.hpp"
#include "codegen/rtlib_bitcode.hpp"
#include "codegen/shared_kernels.hpp"
#include "gpu_backend/ptx/ptx_entries.hpp"
#include "polyrt/error.hpp"

namespace polyrt::gpu {

// A module of kernels as emitted, before the rtlib is linked.
struct EmittedModule {
  std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;
  std::vector<std::string> entries;
  // Per entry ("" for none), what it computes, for messages: the plan step's
  // nodes, or the shared kernel's name.
  std::vector<std::string> computes;
};

namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";

void initialize_nvptx() {
  static std::once_flag once;
  std::call_once(once, [] {
    codegen::install_llvm_fatal_error_handler();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

// No contraction (Strict): NVPTX then emits every f64 add, sub and mul with
// `.rn`, which ptxas may not fuse either; the values are the CPU's bit for bit.
std::unique_ptr<llvm::TargetMachine> target_machine(const ResolvedNvptxTarget& t) {
  initialize_nvptx();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (!target) throw RefusedError("LLVM has no NVPTX back end: " + error);
  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Strict;
  std::unique_ptr<llvm::TargetMachine> tm(
      target->createTargetMachine(kTriple, t.cpu, t.features, options, std::nullopt, std::nullopt,
                                  llvm::CodeGenOptLevel::Default));
  if (!tm) internal_error("LLVM cannot create an NVPTX target machine for " + t.cpu);
  return tm;
}

// A module of the entries `emit` adds.
template <typename Emit>
EmittedModule emit_module(llvm::TargetMachine& tm, const Emit& emit) {
  EmittedModule m;
  m.module = std::make_unique<llvm::Module>("polyrt_gpu", *m.context);
  m.module->setTargetTriple(kTriple);
  m.module->setDataLayout(tm.createDataLayout());
  m.entries = emit(*m.module);
  codegen::verify_generated_module(*m.module);
  return m;
}

// "w := combinations (line 2), ..." for a kernel step's members.
std::string step_nodes(const ir::Graph& graph, const plan::BatchStep& step) {
  std::string text;
  for (uint32_t n : step.nodes) {
    const ir::Node& node = graph.nodes[n];
    if (!text.empty()) text += ", ";
    text += node.binding + " := " + node.label;
    if (node.pos.line > 0) text += " (line " + std::to_string(node.pos.line) + ")";
  }
  return text;
}

EmittedModule emit_module(const ir::Graph& graph, const plan::BatchPlan& plan,
                          llvm::TargetMachine& tm) {
  EmittedModule m = emit_module(tm, [&](llvm::Module& module) {
    return codegen::emit_gpu_batch_kernels(module, graph, plan, ptx_entries());
  });
  for (size_t s = 0; s < m.entries.size(); ++s) {
    m.computes.push_back(
        m.entries[s].empty() ? "" : "the kernel of " + step_nodes(graph, plan.steps[s]));
  }
  return m;
}

// Refuses, as an InternalError the caller can catch, a module holding what
// the NVPTX back end would abort the process on (codegen/pipeline/nvptx_lowering.hpp).
void check_lowering(const EmittedModule& m) {
  const std::vector<codegen::LoweringProblem> problems =
      codegen::nvptx_lowering_problems(*m.module);
  if (problems.empty()) return;
  const codegen::LoweringProblem& first = problems.front();
  std::string where = "the GPU function " + first.function;
  for (size_t e = 0; e < m.entries.size(); ++e) {
    if (m.entries[e] == first.function && !m.computes[e].empty()) where = m.computes[e];
  }
  internal_error("polyrt cannot generate GPU code for " + where + ": after optimization it holds " +
                 first.operation + ", which LLVM's NVPTX back end cannot lower" +
                 (problems.size() > 1
                      ? " (and " + std::to_string(problems.size() - 1) + " more such operations)"
                      : std::string()) +
                 " (--device cpu runs the program; auto and all leave the GPU out)");
}

void link_and_optimize(llvm::Module& module, llvm::TargetMachine& tm) {
  codegen::link_declared_rtlib(module, ptx_entries().rtlib());
  codegen::optimize_o2(module, tm);
}

}  // namespace

struct PtxCompiler::Impl {
  explicit Impl(std::optional<std::string> cache_dir) : cache(std::move(cache_dir), ".ptx") {}
  cache::CompiledCache cache;
};

// Never destroyed, like the JIT engine: programs held in statics may compile
// while the process exits.
PtxCompiler& PtxCompiler::instance() {
  static PtxCompiler* compiler = new PtxCompiler(cache::default_cache_dir());
  return *compiler;
}

PtxCompiler::PtxCompiler(std::optional<std::string> cache_dir)
    : impl_(new Impl(std::move(cache_dir))) {}

PtxCompiler::~PtxCompiler() = default;

PtxKernels PtxCompiler::compile(const ir::Graph& graph, const plan::BatchPlan& plan,
                                const NvptxTarget& target) {
  const ResolvedNvptxTarget resolved = resolve_nvptx_target(target);
  const auto tm = target_machine(resolved);
  return assemble(emit_module(graph, plan, *tm), *tm, resolved);
}

PtxKernels PtxCompiler::compile_shared_kernels(const NvptxTarget& target) {
  const ResolvedNvptxTarget resolved = resolve_nvptx_target(target);
  const auto tm = target_machine(resolved);
  EmittedModule m = emit_module(*tm, [](llvm::Module& module) {
    return codegen::emit_shared_kernels(module, ptx_entries());
  });
  for (const std::string& entry : m.entries) m.computes.push_back("the shared kernel " + entry);
  return assemble(std::move(m), *tm, resolved);
}

PtxKernels PtxCompiler::assemble(EmittedModule&& m, llvm::TargetMachine& tm,
                                 const ResolvedNvptxTarget& target) {
  PtxKernels out;
  out.target = target;
  out.entries = m.entries;
  // The key covers our IR before the rtlib is linked; the salt the rest.
  const std::string salt = codegen::target_salt(kTriple, out.target.cpu, out.target.features,
                                                codegen::rtlib_bitcode(ptx_entries().rtlib()));
  const std::string key = codegen::module_key(salt, *m.module);
  out.key = key;
  if (std::optional<std::string> ptx = impl_->cache.find(key)) {
    out.ptx = std::move(*ptx);
    return out;
  }
  link_and_optimize(*m.module, tm);
  check_lowering(m);
  std::string kernels;
  for (const std::string& what : m.computes) {
    if (!what.empty()) kernels += (kernels.empty() ? "" : "; ") + what;
  }
  const codegen::FatalErrorContext context("generating " + out.target.cpu + " PTX for " + kernels);
  out.ptx = codegen::module_assembly(*m.module, tm);
  impl_->cache.keep(key, out.ptx);
  return out;
}

std::string PtxCompiler::module_ir(const ir::Graph& graph, const plan::BatchPlan& plan,
                                   const NvptxTarget& target, bool optimized) {
  const auto tm = target_machine(resolve_nvptx_target(target));
  EmittedModule m = emit_module(graph, plan, *tm);
  if (optimized) link_and_optimize(*m.module, *tm);
  return codegen::module_text(*m.module);
}

PtxStats PtxCompiler::stats() const {
  return impl_->cache.stats();
}

}  // namespace polyrt::gpu
