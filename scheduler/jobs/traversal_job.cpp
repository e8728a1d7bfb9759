#include "scheduler/jobs/traversal_job.hpp"

#include <cstdio>

#include "polyrt/traversal_rows.hpp"
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

uint64_t run_traversal_job(const RangeJob& job, const std::string& target, bool batch) {
  const Program& program = *job.program;
  if (program.traversal_count() != 1) {
    throw RefusedError("polyrt runs the rows of one traversal at a time; this program has " +
                       std::to_string(program.traversal_count()));
  }
  TraversalRowsOptions options = traversal_rows_options(job, batch);
  options.on_batch = [&](const BatchEvaluator& b, const std::string& what) {
    warn_of_left_out_devices(b);
    if (job.verbose) {
      std::fprintf(stderr, "polyrt: %s in the batch tier on %s\n", what.c_str(),
                   b.device_name().c_str());
    }
  };
  const TraversalRows rows(job.program, options);
  const std::optional<uint64_t> known_rows = rows.rows_of(job.count);
  if (!known_rows && job.format->needs_row_count()) {
    throw RefusedError(
        "a traversal whose rows are counted only as its openings run cannot be written as " +
        std::string(job.format->name()) +
        ", which needs the row count first; write csv, tsv, jsonl, parquet or arrow");
  }
  const std::unique_ptr<FormatWriter> writer =
      open_job_output(*job.format, target,
                      OutputColumns{.names = rows.names(),
                                    .types = rows.types(),
                                    .first = 0,
                                    .rows = known_rows.value_or(0),
                                    .compression = job.compression,
                                    .dimensions = {},
                                    .logical_types = rows.logical_types(),
                                    .nullable = rows.nullable()},
                      program.source_files());
  // Progress counts parent coordinates: those before a chunk's last are done.
  ProgressBar progress(job.count);
  uint64_t coordinates_done = 0;
  RatePacer pacer(job.rate);
  uint64_t written = 0;
  Interruption::stopping_on_signals([&] {
    written = rows.stream(
        job.first, job.count,
        [&](const ColumnChunk& chunk, std::string& bytes) { writer->encode(chunk, bytes); },
        [&](const ColumnChunk& chunk, std::string& bytes) {
          Interruption::stop_if_requested();
          pacer.write(*writer, bytes, chunk.rows);
          if (chunk.rows == 0) return;
          const uint64_t done = chunk.columns[0].words[chunk.rows - 1] - job.first;
          if (done > coordinates_done) progress.advance(done - coordinates_done);
          coordinates_done = std::max(coordinates_done, done);
        });
  });
  Interruption::stop_if_requested();
  progress.finish();
  writer->commit();
  return written;
}

}  // namespace polyrt::scheduler
