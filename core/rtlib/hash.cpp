#include "rtlib.h"

PD_API uint64_t pd_hash(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

PD_API uint64_t pd_hash_range(uint64_t x, uint64_t max) {
  return max == 0 ? 0 : pd_hash(x) % max;
}

// double(x) / double(2^64 - 1): the divisor rounds to 2^64, so this is an exact
// scaling of the correctly rounded conversion; the top values map to 1.0.
PD_API double pd_unit_interval(uint64_t x) {
  return (double)x * 0x1p-64;
}

PD_API double pd_hash_interval(uint64_t x, double min, double max) {
  return min + pd_unit_interval(pd_hash(x)) * (max - min);
}

PD_API double pd_scale_range(uint64_t x, double min, double max) {
  return min + pd_unit_interval(x) * (max - min);
}

PD_API uint64_t pd_fair_coin(uint64_t x) {
  return pd_hash(x) & 1;
}

PD_API uint64_t pd_unfair_coin(uint64_t x, double p) {
  return pd_unit_interval(pd_hash(x)) < p ? 1 : 0;
}
