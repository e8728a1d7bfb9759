// libFuzzer target for the front end: any bytes given to the compiler either
// compile or raise a polyrt::Error; never a crash, a hang, a sanitizer report,
// an InternalError (a broken invariant: it escapes, and libFuzzer reports
// it) or another exception type. Built with `make sanitize` (clang-19,
// -fsanitize=fuzzer,address,undefined); see docs/testing.md for long runs.
// It links core alone (no LLVM): core's compile with no native builder.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "polyrt/polyrt.hpp"
#include "program/compile_program.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  polyrt::CompileOptions options;
  options.engine = polyrt::Engine::Interpreter;  // the front end and passes, not the JIT
  try {
    auto program =
        polyrt::compile_program(std::string_view((const char*)data, size), options, nullptr);
    polyrt::State state = program->new_state();
    state.set_log_sink([](std::string_view) {});
    state.eval();
  } catch (const polyrt::InternalError&) {
    throw;
  } catch (const polyrt::Error&) {
    // a clear, typed error is the expected outcome of most inputs
  }
  return 0;
}
