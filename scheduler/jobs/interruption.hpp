// Stopping a bulk job cleanly on SIGINT, SIGTERM or SIGHUP. While a Guard
// lives, those signals only set a flag and wake the thread blocked writing
// the output, if another (the handler does nothing else, so it is
// async-signal-safe): the pipelines' cancellation token (stop_flag(), passed
// as BatchOptions::stop and to the output as OutputPlace::stop). They stop
// between chunks (and a write blocked on a pipe returns:
// scheduler/output/blocking_write.hpp), and the job throws
// InterruptedError, so every destructor on the way out runs: temporary files
// and directories are removed and the progress line is cleared. The command
// then exits with 128 + the signal number, as a shell expects.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "polyrt/error.hpp"

namespace polyrt::scheduler {

class InterruptedError : public Error {
 public:
  InterruptedError(int signal, uint64_t rows, bool partial_output_kept);
  int signal() const { return signal_; }
  int exit_status() const { return 128 + signal_; }

 private:
  int signal_;
};

class Interruption {
 public:
  // Installs the handlers (without SA_RESTART) and restores the previous
  // ones when destroyed. One guard at a time.
  class Guard {
   public:
    Guard();
    ~Guard();
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
  };

  // `rows` more rows reached the output: what the message reports.
  static void add_rows(uint64_t rows);
  // Whether what was written stays when the job stops: true for a stream
  // (standard output, a pipe, a device), false for a file written
  // atomically (removed). The message says which.
  static void set_partial_output_kept(bool kept);
  // The token the signal handler raises, for the pipelines to poll (a
  // lock-free atomic: safe to set from a handler).
  static const std::atomic<bool>* stop_flag();
  // Runs `job`; a StoppedError it throws because the token was raised
  // becomes the InterruptedError of the signal (others pass unchanged).
  template <typename Job>
  static void stopping_on_signals(const Job& job) {
    try {
      job();
    } catch (const StoppedError&) {
      stop_if_requested();
      throw;
    }
  }
  // Throws InterruptedError when a signal arrived, or when the stop check
  // says so (then as if SIGTERM had arrived).
  static void stop_if_requested();
  // A check that stop_if_requested also runs (e.g. whether an MPI rank whose
  // rows come first failed); empty removes it. It may be called from any
  // thread of the job, so it must be thread-safe.
  static void set_stop_check(std::function<bool()> check);
};

}  // namespace polyrt::scheduler
