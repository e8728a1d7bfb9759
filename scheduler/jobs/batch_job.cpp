#include "scheduler/jobs/batch_job.hpp"

#include <cstdio>

#include "polyrt/batch.hpp"
#include "scheduler/encoding/row_format.hpp"
#include "scheduler/jobs/interruption.hpp"
#include "scheduler/jobs/job_output.hpp"
#include "scheduler/jobs/progress_bar.hpp"
#include "scheduler/jobs/rate_pacer.hpp"

namespace polyrt::scheduler {

namespace {

BatchEvaluator make_evaluator(const RangeJob& job) {
  BatchOptions options;
  options.outputs = job.outputs;
  options.coordinates = job.coordinates;
  options.externs = job.externs;
  options.threads = job.threads;
  options.chunk_rows = job.chunk_rows;
  options.device = job.device;
  options.stop = Interruption::stop_flag();
  return BatchEvaluator(job.program, options);
}

void say_where(const BatchEvaluator& batch, const RangeJob& job) {
  warn_of_left_out_devices(batch);
  if (job.verbose) std::fprintf(stderr, "polyrt: batch tier on %s\n", batch.device_name().c_str());
}

// -v after the job: each device's rows and their share, its rows per active
// second, and that speed's share of the devices' summed speeds (a balanced
// job gives each device the share of rows its speed earns).
void say_shares(const BatchEvaluator& batch, const RangeJob& job) {
  // Always said: a device failed, although the output is complete.
  for (const std::string& fault : batch.device_faults()) {
    std::fprintf(stderr,
                 "polyrt: warning: %s; it takes no more rows in this process, and the rows it "
                 "had taken ran on the CPU (the output is complete)\n",
                 fault.c_str());
  }
  if (!job.verbose) return;
  if (const std::string choice = batch.device_choice(); !choice.empty()) {
    std::fprintf(stderr, "polyrt: --device auto %s\n", choice.c_str());
  }
  const std::vector<DeviceShare> shares = batch.device_shares();
  uint64_t all = 0;
  double speeds = 0;
  const auto speed = [](const DeviceShare& s) {
    return s.active_seconds > 0 ? (double)s.rows / s.active_seconds : 0.0;
  };
  for (const DeviceShare& s : shares) {
    all += s.rows;
    speeds += speed(s);
  }
  for (const DeviceShare& s : shares) {
    std::fprintf(stderr,
                 "polyrt: %s: %llu rows (%.1f %% of the rows), %.4g rows/s while active (%.1f %% "
                 "of the summed speeds)\n",
                 s.device.c_str(), (unsigned long long)s.rows,
                 all ? 100.0 * (double)s.rows / (double)all : 0.0, speed(s),
                 speeds > 0 ? 100.0 * speed(s) / speeds : 0.0);
  }
}

// A None column fails the first row, as it would row by row.
void refuse_none_columns(const BatchEvaluator& batch, const RangeJob& job) {
  if (job.count == 0) return;
  for (size_t k = 0; k < job.outputs.size(); ++k) {
    if (batch.output_is_none(k)) {
      throw none_output_error(job.outputs[k], job.first, batch.unset_externs());
    }
  }
}

}  // namespace

void warn_of_left_out_devices(const BatchEvaluator& batch) {
  for (const std::string& why : batch.left_out_devices()) {
    std::fprintf(stderr, "polyrt: warning: a GPU is left out, the CPU runs the job: %s\n",
                 why.c_str());
  }
}

void run_batch_job(const RangeJob& job, const std::string& target) {
  const BatchEvaluator batch = make_evaluator(job);
  say_where(batch, job);
  refuse_none_columns(batch, job);
  OutputColumns columns = output_columns(job);
  columns.dimensions = batch.output_dimensions();
  const std::unique_ptr<FormatWriter> writer =
      open_job_output(*job.format, target, columns, job.program->source_files());
  if (const std::optional<RowFormat> rows = job.format->text_rows()) {
    // Text rows: a GPU that can encodes them where it made them.
    write_paced(job.count, *writer, job.rate, [&](const ChunkBytes& deliver) {
      batch.stream_rows(job.first, job.count, *rows,
                        [&](uint64_t, uint64_t count, std::string_view bytes) {
                          deliver(count, bytes, nullptr);
                        });
    });
  } else {
    write_batch_rows(
        batch, job.first, job.count, *writer, job.rate,
        [&](const ColumnChunk& chunk, std::string& bytes) { writer->encode(chunk, bytes); });
  }
  say_shares(batch, job);
}

void write_batch_rows(const BatchEvaluator& batch, uint64_t first, uint64_t count,
                      FormatWriter& writer, double rate,
                      const std::function<void(const ColumnChunk&, std::string&)>& encode) {
  write_paced(count, writer, rate, [&](const ChunkBytes& deliver) {
    batch.stream_encoded(first, count, encode, [&](const ColumnChunk& chunk, std::string& bytes) {
      deliver(chunk.rows, bytes, &bytes);
    });
  });
}

void write_paced(uint64_t count, FormatWriter& writer, double rate,
                 const std::function<void(const ChunkBytes& deliver)>& stream) {
  ProgressBar progress(count);
  RatePacer pacer(rate);
  Interruption::stopping_on_signals([&] {
    stream([&](uint64_t rows, std::string_view bytes, std::string* owned) {
      Interruption::stop_if_requested();
      pacer.write(writer, bytes, rows, owned);
      progress.advance(rows);
    });
  });
  Interruption::stop_if_requested();
  progress.finish();
  writer.commit();
}

}  // namespace polyrt::scheduler
