// The one cancellation token of the pipelines: an atomic flag that another
// thread (an API caller's BatchOptions::stop) or a signal handler (the
// command's Interruption, which sets a lock-free atomic and nothing else)
// raises. A pipeline stops taking rows when it is up, and a call that did
// not run every row throws StoppedError: it never returns as if it had. The
// job layer turns that into its own error (InterruptedError for a signal).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "polyrt/error.hpp"

namespace polyrt::scheduler {

inline bool stop_requested(const std::atomic<bool>* stop) {
  return stop != nullptr && stop->load(std::memory_order_relaxed);
}

[[noreturn]] inline void throw_stopped(uint64_t done, uint64_t count) {
  throw StoppedError("the batch was stopped after " + std::to_string(done) + " of " +
                     std::to_string(count) + " rows (BatchOptions::stop)");
}

}  // namespace polyrt::scheduler
