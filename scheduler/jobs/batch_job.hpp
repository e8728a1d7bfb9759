// `polyrt run` on the batch tier: JIT batch kernels over chunks on every
// core and device; the output format encodes each chunk on the workers and
// writes it in coordinate order.
#pragma once

#include <string>

#include "scheduler/jobs/range_job.hpp"

namespace polyrt::scheduler {

// Runs the job into `target` (a path; "" is standard output where the
// format allows it), which appears only when the job succeeds.
void run_batch_job(const RangeJob& job, const std::string& target);

}  // namespace polyrt::scheduler
