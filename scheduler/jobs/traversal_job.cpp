#include "scheduler/jobs/traversal_job.hpp"

#include <cstdio>

#include "polyrt/traversal_rows.hpp"
#include "scheduler/encoding/row_format.hpp"
#include "scheduler/jobs/batch_job.hpp"
#include "scheduler/jobs/interruption.hpp"
#include "scheduler/jobs/job_output.hpp"
#include "scheduler/jobs/progress_bar.hpp"
#include "scheduler/jobs/rate_pacer.hpp"

namespace polyrt::scheduler {

TraversalRowsOptions traversal_rows_options(const RangeJob& job, bool batch) {
  TraversalRowsOptions options;
  options.outputs = job.outputs;
  options.coordinates = job.coordinates;
  options.coordinates.resize(job.program->input_names().size(), 0);
  options.externs = job.externs;
  options.batch = batch;
  options.device = job.device;
  options.threads = job.threads;
  options.chunk_rows = job.chunk_rows;
  options.stop = Interruption::stop_flag();
  return options;
}

std::vector<TraversalRows> traversal_runners(const RangeJob& job, bool batch) {
  TraversalRowsOptions options = traversal_rows_options(job, batch);
  options.on_batch = [verbose = job.verbose](const BatchEvaluator& b, const std::string& what) {
    warn_of_left_out_devices(b);
    if (verbose) {
      std::fprintf(stderr, "polyrt: %s in the batch tier on %s\n", what.c_str(),
                   b.device_name().c_str());
    }
  };
  std::vector<TraversalRows> runners;
  for (size_t t = 0; t < job.program->traversal_count(); ++t) {
    options.traversal = t;
    runners.emplace_back(job.program, options);
  }
  return runners;
}

namespace {

// How many rows the runners give over the job's coordinates, when each
// knows before its rows run.
std::optional<uint64_t> known_rows(const std::vector<TraversalRows>& runners, uint64_t count) {
  uint64_t all = 0;
  for (const TraversalRows& rows : runners) {
    const std::optional<uint64_t> known = rows.rows_of(count);
    if (!known || *known > ~uint64_t{0} - all) return std::nullopt;
    all += *known;
  }
  return all;
}

}  // namespace

void refuse_unwritable_traversals(const RangeJob& job, const std::vector<TraversalRows>& runners) {
  const std::string format(job.format->name());
  if (runners.size() > 1 && !job.format->text_rows()) {
    throw OutputError("the program has " + std::to_string(runners.size()) +
                      " traversals, whose rows are written one traversal after another with a "
                      "header each: write csv, tsv or jsonl, not " +
                      format + " (or split the program)");
  }
  if (!known_rows(runners, job.count) && job.format->needs_row_count()) {
    throw OutputError(format +
                      " needs the row count first, and this traversal's rows are counted only as "
                      "its openings run; write csv, tsv, jsonl, parquet or arrow (a traversal "
                      "over a literal lattice whose body reads nothing of the program runs in "
                      "the batch tier and writes npy too)");
  }
}

uint64_t run_traversal_job(const RangeJob& job, const std::string& target, bool batch) {
  const std::vector<TraversalRows> runners = traversal_runners(job, batch);
  refuse_unwritable_traversals(job, runners);
  const std::optional<RowFormat> text = job.format->text_rows();
  const std::optional<uint64_t> rows_known = known_rows(runners, job.count);
  const TraversalRows& first = runners[0];
  const std::unique_ptr<FormatWriter> writer =
      open_job_output(*job.format, target,
                      OutputColumns{.names = first.names(),
                                    .types = first.types(),
                                    .first = 0,
                                    .rows = rows_known.value_or(0),
                                    .compression = job.compression,
                                    .dimensions = {},
                                    .logical_types = first.logical_types(),
                                    .nullable = first.nullable()},
                      job.program->source_files());
  // Progress counts parent coordinates of every traversal: those before a
  // chunk's last are done.
  ProgressBar progress(job.count * runners.size());
  uint64_t coordinates_done = 0;
  RatePacer pacer(job.rate);
  uint64_t written = 0;
  Interruption::stopping_on_signals([&] {
    for (size_t t = 0; t < runners.size(); ++t) {
      const TraversalRows& rows = runners[t];
      // The first traversal's header is the writer's; each later one's
      // starts its rows (a format without a header has none).
      if (t > 0) writer->write(header_line(*text, rows.names()));
      const uint64_t before = job.count * t;
      written += rows.stream(
          job.first, job.count,
          [&](const ColumnChunk& chunk, std::string& bytes) {
            if (t == 0) {
              writer->encode(chunk, bytes);
            } else {
              append_rows(bytes, *text, rows.names(), chunk);
            }
          },
          [&](const ColumnChunk& chunk, std::string& bytes) {
            Interruption::stop_if_requested();
            pacer.write(*writer, bytes, chunk.rows, &bytes);
            if (chunk.rows == 0) return;
            const uint64_t done = before + chunk.columns[0].words[chunk.rows - 1] - job.first;
            if (done > coordinates_done) progress.advance(done - coordinates_done);
            coordinates_done = std::max(coordinates_done, done);
          });
    }
  });
  Interruption::stop_if_requested();
  progress.finish();
  writer->commit();
  return written;
}

}  // namespace polyrt::scheduler
