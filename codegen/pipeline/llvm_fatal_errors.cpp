#include "codegen/pipeline/llvm_fatal_errors.hpp"

#include <llvm/Support/ErrorHandling.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>

namespace polyrt::codegen {

namespace {

thread_local FatalErrorContext* innermost = nullptr;

}  // namespace

struct FatalErrorReport {
  // The contexts of this thread, outermost first.
  static void write_contexts(const FatalErrorContext* context) {
    if (!context) return;
    write_contexts(context->outer_);
    std::fprintf(stderr, "  while %s\n", context->what_.c_str());
  }

  [[noreturn]] static void handle(void*, const char* reason, bool) {
    std::fprintf(stderr, "polyrt: internal error: LLVM failed: %s\n", reason);
    write_contexts(innermost);
    std::fprintf(stderr,
                 "This is a bug in polyrt: please report it with this message and the program.\n");
    std::fflush(stderr);
    // No exit handlers: other threads may still be running, and static
    // destructors under them would turn this report into a crash.
    _exit(3);
  }
};

void install_llvm_fatal_error_handler() {
  static std::once_flag once;
  std::call_once(once, [] { llvm::install_fatal_error_handler(FatalErrorReport::handle); });
}

FatalErrorContext::FatalErrorContext(std::string what) : outer_(innermost), what_(std::move(what)) {
  innermost = this;
}

FatalErrorContext::~FatalErrorContext() {
  innermost = outer_;
}

}  // namespace polyrt::codegen
