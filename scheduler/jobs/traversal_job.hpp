// `polyrt run` of a program with a traversal (`for ... { body }`): a flat
// map from each parent coordinate to one row per tuple of its opening. A row
// holds the parent coordinate, the tuple's
// elements and the body's outputs (job.outputs names them), in the order
// (coordinate, tuple).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scheduler/jobs/range_job.hpp"

namespace polyrt::scheduler {

// Runs the program's only traversal over the job's parent coordinates into
// `target`, which appears only when the job succeeds. With `batch` and a
// traversal that has a lattice body (polyrt/traversal.hpp), the batch tier
// runs every row of the job as one range of that program, in any format;
// otherwise each tuple is an activation on a per-state engine, written as
// text. RefusedError for several traversals or, on the per-state engines,
// a format without text rows. Returns the rows written.
uint64_t run_traversal_job(const RangeJob& job, const std::string& target, bool batch);

// The columns of the traversal's rows: the iterated input, every level's
// elements, then `body_outputs`. WriteError when two share a name.
std::vector<std::string> traversal_columns(const Program& program,
                                           const std::vector<std::string>& body_outputs);

}  // namespace polyrt::scheduler
