// The oneTBB arenas bulk calls run their pipelines in. Each calling thread
// keeps one arena per worker count between calls: making one per call cost
// about 0.5 ms on 2 cores (a 16 Ki-row ladder call on every core took 0.57 ms
// against 0.04 ms on one), more than a small call's work. Per calling
// thread, not per process, so that concurrent callers never queue behind
// each other's slots (a shared arena of one thread would serialize every
// caller that asked for one).
//
// oneTBB's worker threads do not survive fork(): a child (multiprocessing's
// default start method on Linux) inherits the pool's bookkeeping without
// its threads and waits forever for them, even on Ctrl-C. So before a fork
// every kept arena is terminated and the workers are stopped (tbb::finalize
// waits until they have exited), and after it the parent and the child each
// attach afresh: new workers start on demand, arenas are made again. A fork
// while another thread of the process runs parallel work cannot stop the
// workers; that child must not use polyrt's thread pool.
#pragma once

#include <tbb/task_arena.h>

#include <cstddef>

namespace polyrt::scheduler {

// The calling thread's arena for `threads` workers (1 or more), leased for
// the object's life: run parallel work in it with arena().execute(...).
class WorkerArena {
 public:
  explicit WorkerArena(size_t threads);
  ~WorkerArena();
  WorkerArena(const WorkerArena&) = delete;
  WorkerArena& operator=(const WorkerArena&) = delete;
  tbb::task_arena& arena() const { return *arena_; }

 private:
  tbb::task_arena* arena_;
};

}  // namespace polyrt::scheduler
