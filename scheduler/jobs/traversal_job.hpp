// `polyrt run` of a program with traversals (`for ... { body }`): the rows
// TraversalRows makes (polyrt/traversal_rows.hpp), written in any format
// with progress, a rate and a clean stop on a signal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "polyrt/traversal_rows.hpp"
#include "scheduler/jobs/range_job.hpp"

namespace polyrt::scheduler {

// The runner's options for the job's program, outputs, settings and
// device; `batch` false keeps every row on the per-state engines.
TraversalRowsOptions traversal_rows_options(const RangeJob& job, bool batch);

// The rows of every traversal of the job, in source order: the device each
// batch runs on said as the job says it (left-out devices always, the device
// with `verbose`).
std::vector<TraversalRows> traversal_runners(const RangeJob& job, bool batch);

// OutputError when the job's format cannot hold the runners' rows: several
// traversals in a format without text rows, or a format that needs the row
// count first (npy) when only the openings tell it. The command asks before
// anything runs; run_traversal_job asks again.
void refuse_unwritable_traversals(const RangeJob& job, const std::vector<TraversalRows>& runners);

// Runs the program's traversals over the job's parent coordinates into
// `target`, which appears only when the job succeeds: one traversal's rows
// after another's, in source order, each after its header where the format
// has one (several only as text rows). An empty job.outputs writes every
// output of each body. Refuses as refuse_unwritable_traversals. Returns the
// rows written.
uint64_t run_traversal_job(const RangeJob& job, const std::string& target, bool batch);

}  // namespace polyrt::scheduler
