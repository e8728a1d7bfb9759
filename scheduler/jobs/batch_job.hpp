// `polyrt run` on the batch tier: JIT batch kernels over chunks on every
// core and device; the output format encodes each chunk on the workers (or,
// text rows, a GPU where it made them) and writes it in coordinate order.
#pragma once

#include <functional>
#include <string>
#include <string_view>

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

// Warns on standard error of each usable device `batch` left out
// (BatchEvaluator::left_out_devices): always said, as the job runs without it.
void warn_of_left_out_devices(const BatchEvaluator& batch);

// A chunk's rows and bytes, handed over in coordinate order, and the string
// that holds them when the writer may take it (else null).
using ChunkBytes = std::function<void(uint64_t rows, std::string_view bytes, std::string* owned)>;

// Runs `stream`, which hands every chunk of `count` rows to its `deliver`
// in order, into `writer` as write_batch_rows does (paced, with progress,
// stopping on a signal); commits the writer.
void write_paced(uint64_t count, FormatWriter& writer, double rate,
                 const std::function<void(const ChunkBytes& deliver)>& stream);

}  // namespace polyrt::scheduler
