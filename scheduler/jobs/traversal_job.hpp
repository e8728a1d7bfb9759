// `polyrt run` of a program with a traversal (`for ... { body }`): a flat
// map from each parent coordinate to one row per tuple of its opening, on
// the per-state engines. A row holds the parent coordinate, the tuple's
// elements and the body's outputs (job.outputs names them), in the order
// (coordinate, tuple).
#pragma once

#include <string>

#include "scheduler/jobs/range_job.hpp"

namespace polyrt::scheduler {

// Runs the program's only traversal over the job's parent coordinates into
// `target` (a text format), which appears only when the job succeeds.
// RefusedError for several traversals or a format without text rows.
void run_traversal_job(const RangeJob& job, const std::string& target);

}  // namespace polyrt::scheduler
