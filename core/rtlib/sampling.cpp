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

// The first entry of cumulative[0, count - 1) that is >= u, else count - 1
// (a lower bound). The search halves a length that depends on count alone,
// so with count a constant the kernels unroll it into selects: no loop and
// no data-dependent branch per row. !(a >= u) keeps a NaN u going right, as
// a branching search would.
PD_API uint64_t pd_weighted_index(uint64_t x, const double* cumulative, uint64_t count) {
  const double u = pd_unit_interval(pd_hash(x));
  uint64_t base = 0, length = count - 1;
  if (length == 0) return 0;
  while (length > 1) {
    const uint64_t half = length / 2;
    base = !(cumulative[base + half] >= u) ? base + half : base;
    length -= half;
  }
  return base + !(cumulative[base] >= u);
}

PD_API uint64_t pd_alias_pick(uint64_t x, const double* bias, const uint64_t* values,
                              uint64_t count) {
  const uint64_t slot = x % count;
  const double coin = (double)(x >> 32) / 4294967295.0;
  return values[2 * slot + (coin < bias[slot] ? 0 : 1)];
}

PD_API uint64_t pd_hashed_alias_pick(uint64_t x, const double* bias, const uint64_t* values,
                                     uint64_t count) {
  return pd_alias_pick(pd_hash(x), bias, values, count);
}

PD_API uint64_t pd_table_u64(const uint64_t* table, uint64_t count, uint64_t x) {
  return table[x % count];
}

PD_API double pd_table_f64(const double* table, uint64_t count, uint64_t x) {
  return table[x % count];
}

PD_API uint64_t pd_below_threshold(uint64_t x, const uint64_t* threshold) {
  return x < threshold[0] ? 1 : 0;
}
