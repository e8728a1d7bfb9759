// The native tier (P3): the fused plan with every native segment compiled by
// the JIT into one module, built when a program is compiled with
// Engine::Native; and its introspection.
#pragma once

#include <string>

#include "polyrt/polyrt.hpp"

namespace polyrt::jit {
class JitEngine;
}

namespace polyrt::cpu {

// The native engine's code for `graph` (compile() passes it to core as the
// Program::NativeBuilder).
std::shared_ptr<slots::SlotProgram> build_native_program(const ir::Graph& graph, Provenance mode);

// The O2-optimized LLVM IR of the program's native segments (`--emit-llvm`).
std::string native_program_ir(const Program& program);

// Compiles the native segments of `program` with `jit` (the compile-time
// benchmark uses engines of its own; programs use JitEngine::instance()).
std::shared_ptr<const void> compile_native_segments(const Program& program, jit::JitEngine& jit);

}  // namespace polyrt::cpu
