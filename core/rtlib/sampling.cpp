#include "rtlib.h"

PD_API double pd_table_sample(const double* table, uint64_t count, double u) {
  if (!(u > 0.0)) u = 0.0;  // NaN and negatives clamp to the first entry
  if (u > 1.0) u = 1.0;
  const double pos = u * (double)(count - 1);
  uint64_t i = (uint64_t)pos;
  if (i >= count - 1) return table[count - 1];
  const double frac = pos - (double)i;
  return table[i] + frac * (table[i + 1] - table[i]);
}

PD_API uint64_t pd_weighted_index(uint64_t x, const double* cumulative, uint64_t count) {
  const double u = pd_unit_interval(pd_hash(x));
  uint64_t lo = 0, hi = count - 1;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (cumulative[mid] >= u) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

PD_API uint64_t pd_alias_index(uint64_t x, const double* bias, const uint64_t* alias,
                               uint64_t count) {
  const uint64_t slot = x % count;
  const double coin = (double)(x >> 32) / 4294967295.0;
  return coin < bias[slot] ? slot : alias[slot];
}
