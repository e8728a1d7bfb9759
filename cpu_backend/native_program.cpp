// P3: plans the program with fusion, emits every native segment into one LLVM
// module and compiles it with the process JIT.
#include "cpu_backend/native_program.hpp"

#include "codegen/jit/jit_module.hpp"
#include "codegen/segment_codegen.hpp"
#include "program/program_internals.hpp"
#include "slots/slot_program.hpp"

namespace polyrt {

namespace {

// The fused request entry runs every step that is not frozen, so it is
// made only where none is volatile or a side channel (running one again
// then changes nothing).
bool steps_are_pure(const slots::SlotProgram& sp) {
  for (size_t s = 0; s < sp.plan.steps.size(); ++s) {
    if (!sp.plan.steps[s].is_frozen && sp.steps[s].flags != 0) return false;
  }
  return true;
}

// Every Segment step of the plan into `module`, and the request entry where
// the steps allow one: the symbols, indexed like the steps, then the
// entry's when it was made.
std::vector<std::string> emit_program(llvm::Module& module, const ir::Graph& graph,
                                      const slots::SlotProgram& sp) {
  std::vector<std::string> symbols = codegen::emit_segments(module, graph, sp.plan);
  if (steps_are_pure(sp) && codegen::emit_request_entry(module, sp.plan)) {
    symbols.push_back(codegen::kRequestSymbol);
  }
  return symbols;
}

// P3: compiles the program's module.
void compile_segments(const ir::Graph& graph, slots::SlotProgram& sp, jit::JitEngine& jit) {
  jit::JitModule m("polyrt_program", jit);
  const std::vector<std::string> symbols = emit_program(*m.module, graph, sp);
  const bool fused = symbols.size() > sp.plan.steps.size();
  jit::CompiledSteps compiled = jit::compile_steps(jit, std::move(m), symbols);
  for (size_t s = 0; s < sp.plan.steps.size(); ++s) {
    if (compiled.addresses[s]) {
      sp.steps[s].segment = reinterpret_cast<slots::SegmentFn>(compiled.addresses[s]);
    }
  }
  if (fused) sp.request = reinterpret_cast<slots::RequestFn>(compiled.addresses.back());
  sp.code = compiled.code;
}

}  // namespace

std::shared_ptr<slots::SlotProgram> cpu::build_native_program(const ir::Graph& graph,
                                                              Provenance mode) {
  auto sp = slots::build_slot_program(graph, true, mode, "native");
  compile_segments(graph, *sp, jit::JitEngine::instance());
  return sp;
}

std::shared_ptr<const void> cpu::compile_native_segments(const Program& program,
                                                         jit::JitEngine& jit) {
  auto sp =
      slots::build_slot_program(ProgramInternals::graph(program), true, Provenance::Raw, "native");
  compile_segments(ProgramInternals::graph(program), *sp, jit);
  return sp;
}

std::string cpu::native_program_text(const Program& program, jit::CodeText form) {
  auto sp =
      slots::build_slot_program(ProgramInternals::graph(program), true, Provenance::Raw, "native");
  jit::JitEngine& jit = jit::JitEngine::instance();
  jit::JitModule m("polyrt_program", jit);
  emit_program(*m.module, ProgramInternals::graph(program), *sp);
  return jit.code_text(*m.module, form);
}

}  // namespace polyrt
