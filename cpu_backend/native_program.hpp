// The native tier (P3): the fused plan with every native segment compiled by
// the JIT into one module, built when a program is compiled with
// Engine::Native; and its introspection.
#pragma once

#include <string>

#include "codegen/jit/code_text.hpp"
#include "polyrt/polyrt.hpp"

namespace polyrt::jit {
class JitEngine;
}

namespace polyrt::cpu {

// The native engine's code for `graph` (compile() passes it to core as the
// Program::NativeBuilder).
std::shared_ptr<slots::SlotProgram> build_native_program(const ir::Graph& graph, Provenance mode);

// The program's native segments as `polyrt plan --emit-llvm` (optimized IR)
// or `--emit-asm` prints them.
std::string native_program_text(const Program& program, jit::CodeText form);

// Compiles the native segments of `program` with `jit` (the compile-time
// benchmark uses engines of its own; programs use JitEngine::instance()).
std::shared_ptr<const void> compile_native_segments(const Program& program, jit::JitEngine& jit);

}  // namespace polyrt::cpu
