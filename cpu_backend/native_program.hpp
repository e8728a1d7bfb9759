// Introspection of the native tier (the P3 program is built through
// slots::build_native_program when a program is compiled with Engine::Native).
#pragma once

#include <string>

#include "polyrt/polyrt.hpp"

namespace polyrt::cpu {

class JitEngine;

// The O2-optimized LLVM IR of the program's native segments (`--emit-llvm`).
std::string native_program_ir(const Program& program);

// Compiles the native segments of `program` with `jit` (the compile-time
// benchmark uses engines of its own; programs use JitEngine::instance()).
std::shared_ptr<const void> compile_native_segments(const Program& program, JitEngine& jit);

}  // namespace polyrt::cpu
