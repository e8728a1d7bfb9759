#include "scheduler/range_job.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <exception>

#include "scheduler/progress_bar.hpp"

namespace polyrt::scheduler {

namespace {

struct Chunk {
  uint64_t begin = 0;
  uint64_t end = 0;
  std::string text;
  // A failing row ends the chunk; the failure is raised when the chunk's turn
  // to be written comes, so the job reports the smallest failing coordinate.
  std::exception_ptr failure;
};

}  // namespace

void run_range_job(const RangeJob& job, OutputSink& sink) {
  State prototype = job.program->new_state();
  for (const auto& [name, value] : job.externs) prototype.set_input(name, value);
  prototype.set_inputs(job.coordinates);
  std::vector<size_t> columns;
  for (const std::string& name : job.outputs) columns.push_back(prototype.output_index(name));

  sink.write(header_line(job.format, job.outputs));
  if (job.first >= job.last) return;

  tbb::enumerable_thread_specific<std::pair<State, std::vector<uint64_t>>> workers(
      [&] { return std::make_pair(prototype, job.coordinates); });
  ProgressBar progress(job.last - job.first);
  const int threads = job.threads ? (int)job.threads : tbb::task_arena::automatic;
  tbb::task_arena arena(threads);
  const size_t tokens =
      4 * (size_t)(job.threads ? job.threads : tbb::this_task_arena::max_concurrency());
  uint64_t next = job.first;
  std::atomic<bool> failed{false};

  arena.execute([&] {
    tbb::parallel_pipeline(
        tokens,
        tbb::make_filter<void, Chunk>(tbb::filter_mode::serial_in_order, [&](tbb::flow_control&
                                                                                 fc) {
          if (next >= job.last || failed) {
            fc.stop();
            return Chunk{};
          }
          Chunk c;
          c.begin = next;
          c.end = next + std::min(job.chunk_rows ? job.chunk_rows : 8192, job.last - next);
          next = c.end;
          return c;
        }) & tbb::make_filter<Chunk, Chunk>(tbb::filter_mode::parallel, [&](Chunk c) {
          auto& [state, coords] = workers.local();
          try {
            for (uint64_t x = c.begin; x < c.end; ++x) {
              coords[0] = x;
              state.set_inputs(coords);
              begin_row(c.text, job.format);
              for (size_t k = 0; k < columns.size(); ++k) {
                if (k) field_separator(c.text, job.format);
                append_field(c.text, job.format, job.outputs[k], state.pull_at(columns[k]), x);
              }
              end_row(c.text, job.format);
            }
          } catch (...) {
            c.failure = std::current_exception();
            failed = true;
          }
          return c;
        }) & tbb::make_filter<Chunk, void>(tbb::filter_mode::serial_in_order, [&](Chunk c) {
          if (c.failure) std::rethrow_exception(c.failure);
          sink.write(c.text);
          progress.advance(c.end - c.begin);
        }));
  });
  progress.finish();
}

}  // namespace polyrt::scheduler
