#include "scheduler/runtime/fork_safety.hpp"

#include <pthread.h>
#include <tbb/global_control.h>

#include <mutex>
#include <new>

namespace polyrt::scheduler {

namespace {

// Never destroyed: a handler may run while the process exits.
tbb::task_scheduler_handle* g_scheduler = nullptr;

void before_fork() {
  // Waits for the workers to exit; false (they stay) when other work runs.
  tbb::finalize(*g_scheduler, std::nothrow);
}

void after_fork() {
  *g_scheduler = tbb::task_scheduler_handle(tbb::attach{});
}

}  // namespace

void make_thread_pool_fork_safe() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_scheduler = new tbb::task_scheduler_handle(tbb::attach{});
    ::pthread_atfork(before_fork, after_fork, after_fork);
  });
}

}  // namespace polyrt::scheduler
