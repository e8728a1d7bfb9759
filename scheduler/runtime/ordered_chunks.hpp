// The pipeline every bulk job runs: a serial stage cuts rows [0, count) into
// chunks, `work` runs on any worker thread, `deliver` gets the chunks in row
// order. A chunk object (Chunk: default-constructible, with `offset` and
// `rows`) is recycled with whatever buffers it holds; the run owns them all,
// so a throwing stage leaks nothing. When `work` returns false (the chunk
// failed), no further chunk is issued; `deliver` still sees the chunks
// before it, then the failing one, and decides what to raise. A raised stop
// flag (stop_flag.hpp) ends the issuing and throws StoppedError. At most
// `max_in_flight` chunks exist at once (0: twice the threads, plus two).
#pragma once

#include <tbb/concurrent_queue.h>
#include <tbb/info.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "scheduler/runtime/stop_flag.hpp"
#include "scheduler/runtime/worker_arenas.hpp"

namespace polyrt::scheduler {

// How many worker threads a pipeline runs and how many chunks it keeps.
struct PipelineShape {
  size_t threads = 0;                       // 0: every core; never more than the cores
  size_t max_in_flight = 0;                 // 0: twice the threads, plus two
  const std::atomic<bool>* stop = nullptr;  // the cancellation token, if any
};

// As run_ordered_chunks, with each chunk's size chosen as it is issued:
// `issue(chunk, remaining)` returns its rows (1..remaining), 0 to end the
// run there without error (an extending cursor's stop rule), or throws to
// stop the run.
template <typename Chunk, typename Issue, typename Work, typename Deliver>
void run_ordered_chunks_issued(uint64_t count, const Issue& issue, PipelineShape shape,
                               const Work& work, const Deliver& deliver) {
  if (count == 0) return;
  // More threads than cores buys nothing and makes oneTBB warn on stderr.
  const size_t cores = (size_t)tbb::info::default_concurrency();
  const size_t threads = shape.threads ? std::min(shape.threads, cores) : cores;
  const WorkerArena arena(threads);
  const size_t tokens = shape.max_in_flight ? shape.max_in_flight : 2 * threads + 2;
  std::vector<std::unique_ptr<Chunk>> all;
  tbb::concurrent_queue<Chunk*> idle;
  uint64_t issued = 0;
  bool ended = false;  // issue returned 0
  std::atomic<bool> failed{false};
  arena.arena().execute([&] {
    tbb::parallel_pipeline(
        tokens,
        tbb::make_filter<void, Chunk*>(tbb::filter_mode::serial_in_order,
                                       [&](tbb::flow_control& fc) -> Chunk* {
                                         if (issued >= count || failed ||
                                             stop_requested(shape.stop)) {
                                           fc.stop();
                                           return nullptr;
                                         }
                                         Chunk* c = nullptr;
                                         if (!idle.try_pop(c)) {
                                           all.push_back(std::make_unique<Chunk>());
                                           c = all.back().get();
                                         }
                                         c->offset = issued;
                                         c->rows = issue(*c, count - issued);
                                         if (c->rows == 0) {
                                           ended = true;
                                           idle.push(c);
                                           fc.stop();
                                           return nullptr;
                                         }
                                         issued += c->rows;
                                         return c;
                                       }) &
            tbb::make_filter<Chunk*, Chunk*>(tbb::filter_mode::parallel,
                                             [&](Chunk* c) {
                                               if (!work(*c)) failed = true;
                                               return c;
                                             }) &
            tbb::make_filter<Chunk*, void>(tbb::filter_mode::serial_in_order, [&](Chunk* c) {
              deliver(*c);
              idle.push(c);
            }));
  });
  // A stop ended the issuing: never return as if every row had run.
  if (issued < count && !failed && !ended) throw_stopped(issued, count);
}

template <typename Chunk, typename Work, typename Deliver>
void run_ordered_chunks(uint64_t count, uint64_t chunk_rows, PipelineShape shape, const Work& work,
                        const Deliver& deliver) {
  run_ordered_chunks_issued<Chunk>(
      count, [&](Chunk&, uint64_t remaining) { return std::min(chunk_rows, remaining); }, shape,
      work, deliver);
}

}  // namespace polyrt::scheduler
