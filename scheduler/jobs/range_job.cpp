#include "scheduler/jobs/range_job.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <exception>

#include "scheduler/jobs/interruption.hpp"
#include "scheduler/jobs/progress_bar.hpp"
#include "scheduler/jobs/rate_pacer.hpp"
#include "scheduler/runtime/ordered_chunks.hpp"

namespace polyrt::scheduler {

namespace {

struct Chunk {
  uint64_t offset = 0;  // rows before this chunk
  uint64_t rows = 0;
  std::string text;
  // A failing row ends the chunk; the failure is raised when the chunk's turn
  // to be written comes, so the job reports the smallest failing coordinate.
  std::exception_ptr failure;
};

}  // namespace

OutputColumns output_columns(const RangeJob& job) {
  OutputColumns columns{.names = job.outputs,
                        .types = {},
                        .first = job.first,
                        .rows = job.count,
                        .compression = job.compression};
  for (const std::string& name : job.outputs) {
    const size_t index = *job.program->output_index(name);
    columns.types.push_back(job.program->output_type(index));
    columns.logical_types.push_back(job.program->output_logical_type(index));
    columns.nullable.push_back(job.program->output_nullable(index));
  }
  return columns;
}

void run_range_job(const RangeJob& job, const std::string& target) {
  const std::optional<RowFormat> format = job.format->text_rows();
  if (!format) {
    throw RefusedError("per-state engines write text rows; " + std::string(job.format->name()) +
                       " is written by the batch tier only");
  }
  State prototype = job.program->new_state();
  for (const auto& [name, value] : job.externs) prototype.set_input(name, value);
  prototype.set_inputs(job.coordinates);
  std::vector<size_t> columns;
  for (const std::string& name : job.outputs) columns.push_back(prototype.output_index(name));
  const OutputColumns described = output_columns(job);

  const std::unique_ptr<FormatWriter> writer =
      job.format->open(target, output_columns(job), job.program->source_files());
  if (job.count == 0) return writer->commit();

  tbb::enumerable_thread_specific<std::pair<State, std::vector<uint64_t>>> workers(
      [&] { return std::make_pair(prototype, job.coordinates); });
  ProgressBar progress(job.count);
  RatePacer pacer(job.rate);
  const PipelineShape shape{.threads = job.threads, .stop = Interruption::stop_flag()};
  Interruption::stopping_on_signals([&] {
    run_ordered_chunks<Chunk>(
        job.count, job.chunk_rows ? job.chunk_rows : kDefaultChunkRows, shape,
        [&](Chunk& c) {
          auto& [state, coords] = workers.local();
          c.text.clear();
          c.failure = nullptr;
          try {
            for (uint64_t r = 0; r < c.rows; ++r) {  // counted: the range may end at 2^64 - 1
              const uint64_t x = job.first + c.offset + r;
              if (!coords.empty()) {  // a program with no input writes its constants each row
                coords[0] = x;
                state.set_inputs(coords);
              }
              begin_row(c.text, *format);
              for (size_t k = 0; k < columns.size(); ++k) {
                if (k) field_separator(c.text, *format);
                append_field(c.text, *format, job.outputs[k], state.pull_at(columns[k]), x,
                             described.logical_types[k], described.nullable[k]);
              }
              end_row(c.text, *format);
            }
          } catch (...) {
            c.failure = std::current_exception();
            return false;
          }
          return true;
        },
        [&](Chunk& c) {
          if (c.failure) std::rethrow_exception(c.failure);
          Interruption::stop_if_requested();
          pacer.write(*writer, c.text, c.rows);
          progress.advance(c.rows);
        });
  });
  Interruption::stop_if_requested();
  progress.finish();
  writer->commit();
}

}  // namespace polyrt::scheduler
