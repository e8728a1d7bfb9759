// Stopping long work of the core from outside it. Opening a traversal
// materializes up to 2^24 tuples, and peeling a partition list up to 2^20
// partitions: seconds to minutes in one call, which a Ctrl-C or a timeout
// must be able to end. While a CancellationScope lives on a thread, those
// loops poll its flag (a lock-free atomic another thread or a signal
// handler raises) and throw StoppedError once it is raised; a thread with no
// scope is never stopped. `polyrt run` opens one with its signal flag.
//
//   std::atomic<bool> stop{false};
//   polyrt::CancellationScope scope(&stop);  // another thread may set stop
//   polyrt::for_each_opening(...);           // StoppedError once it does
#pragma once

#include <atomic>
#include <string_view>

namespace polyrt {

class CancellationScope {
 public:
  // `flag` must outlive the scope; null keeps the outer scope's flag.
  explicit CancellationScope(const std::atomic<bool>* flag);
  ~CancellationScope();
  CancellationScope(const CancellationScope&) = delete;
  CancellationScope& operator=(const CancellationScope&) = delete;

 private:
  const std::atomic<bool>* outer_;
};

// Throws StoppedError ("stopped while WHAT") when this thread's innermost
// scope's flag is raised; cheap enough for every iteration of a long loop.
void throw_if_cancelled(std::string_view what);

}  // namespace polyrt
