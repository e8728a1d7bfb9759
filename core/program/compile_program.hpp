// compile() and compile_file() as core implements them: the front end, the
// passes and the interpreter and closures engines, with the native engine's
// builder passed in. The public functions (polyrt/polyrt.hpp) are defined by
// the CPU back end, which passes its builder (cpu_backend/compile.cpp):
// core links nothing above it. A null builder refuses Engine::Native with a
// RefusedError (the front-end fuzzer runs so, without LLVM).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "polyrt/polyrt.hpp"

namespace polyrt {

std::shared_ptr<const Program> compile_program(std::string_view source,
                                               const CompileOptions& options,
                                               slots::NativeBuilder native);
std::shared_ptr<const Program> compile_program_file(const std::string& path, CompileOptions options,
                                                    slots::NativeBuilder native);

}  // namespace polyrt
