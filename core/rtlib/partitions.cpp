#include "rtlib.h"

PD_API uint64_t pd_mod_in(uint64_t n, uint64_t start, uint64_t card) {
  return card == 0 ? start : start + n % card;
}

PD_API uint64_t pd_clamp_in(uint64_t n, uint64_t start, uint64_t card) {
  if (card == 0 || n <= start) return start;
  const uint64_t last = start + (card - 1);
  return n < last ? n : last;
}

PD_API uint64_t pd_random_in(uint64_t seed, uint64_t start, uint64_t card) {
  return card == 0 ? start : start + pd_hash(seed) % card;
}

PD_API int32_t pd_at(uint64_t i, uint64_t start, uint64_t card, uint64_t* out) {
  if (i >= card) return PD_FAIL;
  *out = start + i;
  return PD_OK;
}
