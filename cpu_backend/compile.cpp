// The public compile() and compile_file(): core's front end and engines with
// this back end's native engine (core links nothing above it, so the
// function that can build every engine lives here).
#include "cpu_backend/native_program.hpp"
#include "program/compile_program.hpp"

namespace polyrt {

std::shared_ptr<const Program> compile(std::string_view source, const CompileOptions& options) {
  return compile_program(source, options, &cpu::build_native_program);
}

std::shared_ptr<const Program> compile_file(const std::string& path, CompileOptions options) {
  return compile_program_file(path, std::move(options), &cpu::build_native_program);
}

}  // namespace polyrt
