// How `polyrt stats` counts a text column's values, from parts of the rows
// evaluated on any thread in any order. Every value is known by its 64-bit
// hash (two texts sharing one count as one: among 2^20 values the chance
// of any such pair is below 3e-8).
//
// Pass 1 (TextFrequencies) counts every distinct value exactly while there
// are at most kExactDistinct of them, in a table split into shards that
// parts fill under a lock each (the shards' sum is the same in any order).
// Past the bound it counts no more exactly: parts go to Misra-Gries
// summaries (one per thread, of 4096 counters), and a HyperLogLog sketch,
// fed throughout, estimates the distinct count. The summaries bound every
// value's count from above, whatever the order of the parts: the values
// that may occur more than a given number of times are few, and pass 2
// (CandidateRecount) counts them exactly. Often there are none: in a
// column of mostly distinct values no value can be frequent.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "polyrt/batch.hpp"
#include "scheduler/stats/hash_counts.hpp"

namespace polyrt::stats {

// A text column's byte lengths over some rows.
struct TextLengths {
  uint64_t min = ~uint64_t{0}, max = 0, total = 0;
  void merge(const TextLengths& o) {
    min = std::min(min, o.min);
    max = std::max(max, o.max);
    total += o.total;
  }
};

// The values of rows [0, rows) of `v` (at coordinates first + r) counted by
// hash; their lengths into `lengths` when given.
HashCounts count_part(const ColumnView& v, uint64_t rows, uint64_t first, TextLengths* lengths);

class TextFrequencies {
 public:
  TextFrequencies();
  ~TextFrequencies();

  // Thread-safe: one part's counts (count_part's).
  void add_part(HashCounts part);

  // After every part: whether the counts are exact (at most kExactDistinct
  // distinct values), and then every value's count.
  bool exact() const;
  HashCounts take_counts();
  // After every part, when not exact: a superset of the values that occur
  // more than `above` times (their counts are lower bounds).
  HashCounts take_candidates(uint64_t above);
  // The distinct count's HyperLogLog estimate and its standard error
  // (relative): what to report when not exact.
  double estimated_distinct() const;
  static double estimate_standard_error();

 private:
  struct Shared;
  std::unique_ptr<Shared> shared_;
};

// Pass 2: the candidates' exact counts and first coordinates.
class CandidateRecount {
 public:
  explicit CandidateRecount(const HashCounts& candidates);
  void add_part(const HashCounts& part);  // thread-safe
  HashCounts counts() const;

 private:
  HashCounts candidates_;  // the keys; counts unused
  std::mutex mutex_;
  std::vector<uint64_t> counts_, firsts_;  // by candidates_' slot
};

}  // namespace polyrt::stats
