#include "scheduler/runtime/worker_arenas.hpp"

#include <pthread.h>
#include <tbb/global_control.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

namespace polyrt::scheduler {

namespace {

// Every thread's kept arenas, and how many are leased now. Never destroyed:
// a fork handler or a thread's exit may run while the process exits.
struct Registry {
  std::mutex mutex;
  std::vector<tbb::task_arena*> arenas;
  size_t leased = 0;
  tbb::task_scheduler_handle scheduler;
};
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

// A thread's arenas by worker count, given up when the thread exits.
struct ThreadArenas {
  std::map<size_t, std::unique_ptr<tbb::task_arena>> by_threads;
  ~ThreadArenas() {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    for (const auto& [threads, arena] : by_threads) {
      r.arenas.erase(std::find(r.arenas.begin(), r.arenas.end(), arena.get()));
    }
  }
};
thread_local ThreadArenas t_arenas;

// The registry's mutex is held from before the fork to after it, so that no
// arena is leased or made meanwhile.
void before_fork() {
  Registry& r = registry();
  r.mutex.lock();
  if (r.leased != 0) return;  // parallel work runs: the workers stay
  for (tbb::task_arena* arena : r.arenas) arena->terminate();
  // Waits for the workers to exit; false (they stay) when other work runs.
  tbb::finalize(r.scheduler, std::nothrow);
}

void after_fork() {
  Registry& r = registry();
  r.scheduler = tbb::task_scheduler_handle(tbb::attach{});
  r.mutex.unlock();
}

void install_fork_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    registry().scheduler = tbb::task_scheduler_handle(tbb::attach{});
    ::pthread_atfork(before_fork, after_fork, after_fork);
  });
}

}  // namespace

WorkerArena::WorkerArena(size_t threads) {
  install_fork_handlers();
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::unique_ptr<tbb::task_arena>& kept = t_arenas.by_threads[threads];
  if (!kept) {
    kept = std::make_unique<tbb::task_arena>((int)threads);
    r.arenas.push_back(kept.get());
  }
  // Made, or terminated by a fork since: initialized now.
  if (!kept->is_active()) kept->initialize((int)threads);
  arena_ = kept.get();
  ++r.leased;
}

WorkerArena::~WorkerArena() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  --r.leased;
}

}  // namespace polyrt::scheduler
