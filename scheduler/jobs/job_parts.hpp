// One job's range split into N contiguous parts, so that many processes or
// hosts (any launcher, or MPI ranks) each write one part: part K (1-based) of
// the C rows from A covers [A + floor((K - 1) * C / N), A + floor(K * C / N)).
// The parts' rows, concatenated in order, are the single run's rows.
#pragma once

#include <cstdint>
#include <string>

#include "scheduler/output/output_format.hpp"

namespace polyrt::scheduler {

struct PartRange {
  uint64_t first = 0;
  uint64_t count = 0;
};

// Part `part` of rows [first, first + count); 1 <= part <= parts (callers
// check: anything else is an internal error).
PartRange part_range(uint64_t first, uint64_t count, uint64_t parts, uint64_t part);

// Where part `part` of table `table` goes under `dir`:
// DIR/<table>.<part>.<extension> for a format of one file (then the
// codec's suffix when it compresses the file as a whole: .csv.zst),
// DIR/part-<part> for a directory format (npy: its <output>.npy files).
std::string part_path(const std::string& dir, const std::string& table, uint64_t part,
                      const OutputFormat& format, const std::optional<Compression>& compression);

}  // namespace polyrt::scheduler
