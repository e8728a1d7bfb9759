// `polyrt run` on the batch tier: JIT batch kernels over chunks on every core;
// text rows are formatted on the workers and written in coordinate order, npy
// columns go to one file each.
#pragma once

#include <string>

#include "scheduler/jobs/range_job.hpp"
#include "scheduler/output/output_sink.hpp"

namespace polyrt::scheduler {

void run_batch_text_job(const RangeJob& job, OutputSink& sink);
// Writes DIR/<output>.npy for every output; DIR appears only on success.
void run_batch_npy_job(const RangeJob& job, const std::string& dir);

}  // namespace polyrt::scheduler
