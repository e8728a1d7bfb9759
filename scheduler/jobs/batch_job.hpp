// `polyrt run` on the batch tier: JIT batch kernels over chunks on every
// core and device; the output format encodes each chunk on the workers and
// writes it in coordinate order.
#pragma once

#include <functional>
#include <string>

#include "polyrt/batch.hpp"
#include "scheduler/jobs/range_job.hpp"

namespace polyrt::scheduler {

// Runs the job into `target` (a path; "" is standard output where the
// format allows it), which appears only when the job succeeds.
void run_batch_job(const RangeJob& job, const std::string& target);

// Streams rows [first, first + count) of `batch` into `writer`, each chunk
// through `encode` on the workers (the writer's own encode, or one that
// adds columns), at most `rate` rows per second (0: no limit), with a
// progress bar, stopping cleanly on a signal; commits the writer.
void write_batch_rows(const BatchEvaluator& batch, uint64_t first, uint64_t count,
                      FormatWriter& writer, double rate,
                      const std::function<void(const ColumnChunk&, std::string&)>& encode);

}  // namespace polyrt::scheduler
