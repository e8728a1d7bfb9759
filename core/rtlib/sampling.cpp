#include "rtlib.h"

PD_API double pd_table_sample(const double* table, uint64_t count, double u) {
  if (u != u) return u;
  if (u < 0.0) u = 0.0;
  if (u > 1.0) u = 1.0;
  const double pos = u * (double)(count - 1);
  uint64_t i = (uint64_t)pos;
  if (i > count - 2) i = count - 2;
  const double frac = pos - (double)i;
  return table[i] * (1.0 - frac) + table[i + 1] * frac;
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

PD_API uint64_t pd_alias_pick(uint64_t x, const double* bias, const uint64_t* values,
                              uint64_t count) {
  const uint64_t slot = x % count;
  const double coin = (double)(x >> 32) / 4294967295.0;
  return values[2 * slot + (coin < bias[slot] ? 0 : 1)];
}
