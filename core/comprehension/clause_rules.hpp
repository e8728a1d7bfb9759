// Rules of a comprehension's clauses that its grammar and its evaluation
// both apply (comprehension/grammar.cpp, comprehension/evaluation.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "comprehension/comprehension.hpp"

namespace polyrt::comprehension {

// Whether clause k's source is a {name} of an earlier clause's element (a
// dependent cartesian: its values change with the prefix).
bool reads_earlier_element(const Comprehension& c, size_t k);

// A range's half-open bounds from its text's: an error for a zero step or
// an inclusive end at 2^64 - 1 (its exclusive end does not exist).
struct RangeBounds {
  uint64_t start = 0, end = 0, step = 1;
  const char* error = nullptr;
};
inline RangeBounds range_bounds(uint64_t start, uint64_t end, uint64_t step, bool inclusive) {
  if (step == 0) return {.error = "a range step must be at least 1"};
  if (inclusive && end == ~uint64_t{0}) {
    return {.error = "an inclusive range may not end at 2^64 - 1"};
  }
  return {start, inclusive ? end + 1 : end, step, nullptr};
}

}  // namespace polyrt::comprehension
