#include "python/src/interruptible.hpp"

#include <nanobind/nanobind.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace nb = nanobind;

namespace polyrt::python {

void run_interruptible(const std::function<void(const std::atomic<bool>& stop)>& work,
                       bool short_job) {
  std::atomic<bool> stop{false};
  if (short_job) {
    nb::gil_scoped_release release;
    work(stop);
    return;
  }
  std::exception_ptr failure;
  bool interrupted = false;
  {
    nb::gil_scoped_release release;
    std::mutex mutex;
    std::condition_variable finished;
    bool done = false;
    std::thread worker([&] {
      try {
        work(stop);
      } catch (...) {
        failure = std::current_exception();
      }
      const std::lock_guard lock(mutex);
      done = true;
      finished.notify_one();
    });
    std::unique_lock lock(mutex);
    while (!done) {
      if (finished.wait_for(lock, std::chrono::milliseconds(20), [&] { return done; })) break;
      if (interrupted) continue;
      lock.unlock();
      {
        nb::gil_scoped_acquire acquire;
        // Only the main thread runs handlers; elsewhere this returns 0.
        if (PyErr_CheckSignals() != 0) interrupted = true;  // the error stays set
      }
      if (interrupted) stop = true;
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (interrupted) throw nb::python_error();
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const Stopped&) {
      // Only this function sets the flag, and then it raised above.
    }
  }
}

}  // namespace polyrt::python
