// polyrt run over parts: --parts N [--part K] in one process, and the ranks
// of an MPI launch each writing one part, with rank 0's manifest.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scheduler/jobs/range_job.hpp"
#include "scheduler/jobs/ranks.hpp"

namespace polyrt::cli {

// The most parts one run splits into: part files are written one after
// another, and a launcher with more ranks than this splits further itself.
inline constexpr uint64_t kMaxParts = 1'000'000;

// Where and what the parts are.
struct PartsTarget {
  std::string dir;           // --out DIR
  std::string program_file;  // FILE
  std::string table;         // FILE's name without .polydat
};

// Runs one part's job into its target (a file or directory) atomically;
// returns the rows written (a traversal's: a row per tuple).
using RunTo = std::function<uint64_t(const scheduler::RangeJob& job, const std::string& path)>;

// --parts N [--part K]: part K, or every part in order, each to its own file
// under DIR (created when missing). All of them or none: the parts are
// staged and replace the previous run's only when every one succeeded (a
// failure or interruption removes what this run wrote and leaves the
// previous output untouched); a whole run then removes the parts past N of
// an earlier run with more parts.
void run_parts(const scheduler::RangeJob& job, uint64_t parts, std::optional<uint64_t> only,
               const PartsTarget& target, const RunTo& run_to);

// One rank of an MPI launch: part rank + 1 of the launch's size. When every
// rank succeeded, rank 0 writes DIR/_manifest.json last; when one failed,
// every rank removes its part, rank 0 reports the failure of the first
// failing rank (the smallest failing coordinate of all) and every rank exits
// with its status. Returns this process's exit status.
int run_as_rank(scheduler::Ranks& ranks, const scheduler::RangeJob& job, const PartsTarget& target,
                const RunTo& run_to);

}  // namespace polyrt::cli
