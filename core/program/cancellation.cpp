#include "polyrt/cancellation.hpp"

#include <string>

#include "polyrt/error.hpp"

namespace polyrt {

namespace {

thread_local const std::atomic<bool>* innermost_flag = nullptr;

}  // namespace

CancellationScope::CancellationScope(const std::atomic<bool>* flag) : outer_(innermost_flag) {
  innermost_flag = flag ? flag : outer_;
}

CancellationScope::~CancellationScope() {
  innermost_flag = outer_;
}

void throw_if_cancelled(std::string_view what) {
  if (innermost_flag && innermost_flag->load(std::memory_order_relaxed)) {
    throw StoppedError("stopped while " + std::string(what));
  }
}

}  // namespace polyrt
