#include "scheduler/jobs/range_job.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <chrono>
#include <exception>

#include "scheduler/jobs/interruption.hpp"
#include "scheduler/jobs/job_output.hpp"
#include "scheduler/jobs/progress_bar.hpp"
#include "scheduler/jobs/rate_pacer.hpp"
#include "scheduler/runtime/ordered_chunks.hpp"

namespace polyrt::scheduler {

namespace {

// Where a time-boxed cursor's rows end (nmbrs's extending cursors): its
// first `base` rows, then `delta` more whenever the rows issued reach the
// extent while the rule says go on. Chunks never cross an extent, so the
// run ends on one.
class WallClockExtent {
 public:
  explicit WallClockExtent(const std::optional<CursorInfo::WallClock>& rule)
      : rule_(rule), start_(std::chrono::steady_clock::now()), extent_(rule ? rule->base : 0) {}

  // The rows of the next chunk, at most `wanted`, after `issued` rows; 0
  // when the rule ends the run.
  uint64_t next_chunk(uint64_t issued, uint64_t wanted) {
    if (!rule_) return wanted;
    if (issued == extent_) {
      if (!goes_on(issued)) return 0;
      extent_ = extent_ + std::min(rule_->delta, rule_->max_rows - extent_);
    }
    return std::min(wanted, extent_ - issued);
  }

 private:
  bool goes_on(uint64_t issued) const {
    if (issued >= rule_->max_rows) return false;
    const auto elapsed = std::chrono::steady_clock::now() - start_;
    return issued < rule_->min_rows || elapsed < std::chrono::milliseconds(rule_->min_ms);
  }

  std::optional<CursorInfo::WallClock> rule_;
  std::chrono::steady_clock::time_point start_;
  uint64_t extent_;
};

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
      open_job_output(*job.format, target, output_columns(job), job.program->source_files());
  if (job.count == 0) return writer->commit();

  tbb::enumerable_thread_specific<std::pair<State, std::vector<uint64_t>>> workers(
      [&] { return std::make_pair(prototype, job.coordinates); });
  // A time-boxed run has no known total to show progress against.
  ProgressBar progress(job.wall_clock ? 0 : job.count);
  RatePacer pacer(job.rate);
  const PipelineShape shape{.threads = job.threads, .stop = Interruption::stop_flag()};
  const uint64_t chunk_rows = job.chunk_rows ? job.chunk_rows : kDefaultChunkRows;
  WallClockExtent extent(job.wall_clock);
  Interruption::stopping_on_signals([&] {
    run_ordered_chunks_issued<Chunk>(
        job.count,
        [&](Chunk&, uint64_t remaining) {
          return extent.next_chunk(job.count - remaining, std::min(chunk_rows, remaining));
        },
        shape,
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
