// One job's range split into N contiguous parts, so that many processes or
// hosts (any launcher, or MPI ranks) each write one part: part K (1-based) of
// the C rows from A covers [A + floor((K - 1) * C / N), A + floor(K * C / N)).
// The parts' rows, concatenated in order, are the single run's rows.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace polyrt::scheduler {

struct PartRange {
  uint64_t first = 0;
  uint64_t count = 0;
};

// Part `part` of rows [first, first + count); 1 <= part <= parts (callers
// check: anything else is an internal error).
PartRange part_range(uint64_t first, uint64_t count, uint64_t parts, uint64_t part);

// Where part `part` of table `table` goes under `dir`: DIR/<table>.<part>.<extension>
// for text rows, DIR/part-<part> (a directory of <output>.npy) for npy.
std::string part_path(const std::string& dir, const std::string& table, uint64_t part,
                      std::string_view extension);

}  // namespace polyrt::scheduler
