#include "rtlib.h"
#include "splitmix.h"

PD_API uint64_t pd_hash(uint64_t x) {
  return polyrt::rt::splitmix64(x);
}

PD_API uint64_t pd_xxh3(uint64_t x) {
  return pd_xxh3_u64_inline(x);
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

PD_API uint64_t pd_chance(uint64_t x, double p) {
  return pd_unfair_coin(x, p) ? 0x3FF0000000000000ULL : 0;  // the bits of 1.0 or 0.0
}

PD_API uint64_t pd_n_of(uint64_t x, uint64_t n, uint64_t m) {
  const uint64_t window = x / m, q = x % m;
  const uint64_t base = window * 0x517CC1B727220A95ULL;
  const uint64_t mine = pd_hash(base ^ (q * 0x9E3779B97F4A7C15ULL));
  uint64_t before = 0;  // positions of the window that rank ahead of q
  for (uint64_t i = 0; i < m; ++i) {
    if (i == q) continue;
    const uint64_t key = pd_hash(base ^ (i * 0x9E3779B97F4A7C15ULL));
    before += (key < mine || (key == mine && i < q)) ? 1 : 0;
  }
  return before < n ? 1 : 0;
}
