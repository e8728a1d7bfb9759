// What is left when LLVM meets an error it cannot recover from. LLVM reports
// it through report_fatal_error, which by default prints "LLVM ERROR: ..."
// and aborts (SIGABRT, no word of what polyrt was doing). LLVM lets an
// application install a handler but not return from it: it exits after the
// handler, and throwing through LLVM's code would leave its state (pass
// managers, locks) broken. So polyrt's handler reports what this thread was
// compiling (the contexts below, innermost last), that it is a polyrt bug,
// and ends the process with exit status 3 (the CLI's internal error).
//
// Nothing polyrt generates should get here: the NVPTX lowering check
// (nvptx_lowering.hpp) refuses what the back end would die on, as an error the
// caller can catch. docs/gpu.md says what can still end the process.
#pragma once

#include <string>

namespace polyrt::codegen {

// Installs the handler (once per process; later calls do nothing). Every
// path into LLVM code generation calls it first.
void install_llvm_fatal_error_handler();

// What this thread is compiling while it lives, for the handler's report
// (a kernel, a seed of the differential test). Nested contexts are reported
// outermost first.
class FatalErrorContext {
 public:
  explicit FatalErrorContext(std::string what);
  ~FatalErrorContext();
  FatalErrorContext(const FatalErrorContext&) = delete;
  FatalErrorContext& operator=(const FatalErrorContext&) = delete;

 private:
  FatalErrorContext* outer_;
  std::string what_;
  friend struct FatalErrorReport;
};

}  // namespace polyrt::codegen
