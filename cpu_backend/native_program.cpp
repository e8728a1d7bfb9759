// P3: plans the program with fusion, emits every native segment into one LLVM
// module and compiles it with the process JIT.
#include "cpu_backend/native_program.hpp"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "codegen/segment_codegen.hpp"
#include "cpu_backend/jit/jit_engine.hpp"
#include "slots/slot_program.hpp"

namespace polyrt {

namespace {

struct NativeModule {
  std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;
  std::vector<std::string> symbols;
};

NativeModule build_module(const ir::Graph& graph, const slots::SlotProgram& sp,
                          cpu::JitEngine& jit) {
  NativeModule nm;
  nm.module = std::make_unique<llvm::Module>("polyrt_program", *nm.context);
  nm.module->setTargetTriple(jit.triple());
  nm.module->setDataLayout(jit.data_layout());
  nm.symbols = codegen::emit_segments(*nm.module, graph, sp);
  return nm;
}

void compile_segments(const ir::Graph& graph, slots::SlotProgram& sp, cpu::JitEngine& jit) {
  NativeModule nm = build_module(graph, sp, jit);
  std::vector<std::string> wanted;
  std::vector<uint32_t> steps;
  for (uint32_t s = 0; s < nm.symbols.size(); ++s) {
    if (nm.symbols[s].empty()) continue;
    wanted.push_back(nm.symbols[s]);
    steps.push_back(s);
  }
  if (wanted.empty()) return;
  auto code = jit.compile(std::move(nm.context), std::move(nm.module), wanted);
  for (size_t k = 0; k < steps.size(); ++k) {
    sp.steps[steps[k]].segment = reinterpret_cast<slots::SegmentFn>(code->address(k));
  }
  sp.code = code;
}

}  // namespace

std::shared_ptr<slots::SlotProgram> slots::build_native_program(const ir::Graph& graph,
                                                                plan::ProvenanceMode mode) {
  auto sp = build_slot_program(graph, true, mode, "native");
  compile_segments(graph, *sp, cpu::JitEngine::instance());
  return sp;
}

std::shared_ptr<const void> cpu::compile_native_segments(const Program& program, JitEngine& jit) {
  auto sp = slots::build_slot_program(program.graph(), true, plan::ProvenanceMode::Raw, "native");
  compile_segments(program.graph(), *sp, jit);
  return sp;
}

std::string cpu::native_program_ir(const Program& program) {
  auto sp = slots::build_slot_program(program.graph(), true, plan::ProvenanceMode::Raw, "native");
  JitEngine& jit = JitEngine::instance();
  NativeModule nm = build_module(program.graph(), *sp, jit);
  return jit.optimized_ir(*nm.module);
}

}  // namespace polyrt
