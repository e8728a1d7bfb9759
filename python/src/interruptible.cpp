#include "python/src/interruptible.hpp"

#include <nanobind/nanobind.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace nb = nanobind;

namespace polyrt::python {
namespace {

// A thread that stays: oneTBB keeps per-thread state for the threads that
// enter its arenas, so a new thread per call would cost a setup every call.
class Worker {
 public:
  Worker() : thread_([this] { loop(); }) {}

  // Runs `work` here; returns once it is taken (call wait_for to see it end).
  void start(const std::function<void()>* work) {
    const std::lock_guard lock(mutex_);
    work_ = work;
    done_ = false;
    failure_ = nullptr;
    changed_.notify_all();
  }
  // Whether the work ended within `timeout`.
  bool wait_for(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return done_; });
  }
  std::exception_ptr failure() const { return failure_; }

 private:
  void loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return work_ != nullptr; });
      const std::function<void()>* work = work_;
      lock.unlock();
      std::exception_ptr failure;
      try {
        (*work)();
      } catch (...) {
        failure = std::current_exception();
      }
      lock.lock();
      work_ = nullptr;
      failure_ = failure;
      done_ = true;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  const std::function<void()>* work_ = nullptr;
  bool done_ = true;
  std::exception_ptr failure_;
  std::thread thread_;
};

// Idle workers; one more is made when every worker is busy (several Python
// threads evaluating at once). They are never joined: they wait for work
// until the process exits.
std::mutex idle_lock;
std::vector<Worker*> idle_workers;
// The process they run in: a forked child (multiprocessing's default) inherits
// the list but not the threads, and would wait forever for a dead worker. It
// forgets them (leaked: their threads are gone) and makes its own.
pid_t idle_workers_process = 0;

Worker* take_worker() {
  const std::lock_guard lock(idle_lock);
  if (idle_workers_process != ::getpid()) {
    idle_workers.clear();
    idle_workers_process = ::getpid();
  }
  if (idle_workers.empty()) return new Worker;
  Worker* w = idle_workers.back();
  idle_workers.pop_back();
  return w;
}

void return_worker(Worker* w) {
  const std::lock_guard lock(idle_lock);
  if (idle_workers_process == ::getpid()) idle_workers.push_back(w);
}

}  // namespace

void run_interruptible(const std::function<void()>& work, std::atomic<bool>& stop, bool short_job) {
  if (short_job) {
    nb::gil_scoped_release release;
    work();
    return;
  }
  bool interrupted = false;
  std::exception_ptr failure;
  {
    nb::gil_scoped_release release;
    Worker* worker = take_worker();
    worker->start(&work);
    while (!worker->wait_for(std::chrono::milliseconds(20))) {
      if (interrupted) continue;
      nb::gil_scoped_acquire acquire;
      // Only the main thread runs handlers; elsewhere this returns 0.
      if (PyErr_CheckSignals() != 0) {
        interrupted = true;  // the handler's exception stays set
        stop = true;
      }
    }
    failure = worker->failure();
    return_worker(worker);
    stop = false;
  }
  if (interrupted) throw nb::python_error();  // the work's StoppedError is dropped
  if (failure) std::rethrow_exception(failure);
}

}  // namespace polyrt::python
