#include "rtlib.h"

PD_API uint64_t pd_u64_add(uint64_t a, uint64_t b) {
  return a + b;
}
PD_API uint64_t pd_u64_sub(uint64_t a, uint64_t b) {
  return a - b;
}
PD_API uint64_t pd_u64_mul(uint64_t a, uint64_t b) {
  return a * b;
}
PD_API uint64_t pd_u64_div(uint64_t a, uint64_t b) {
  return b == 0 ? 0 : a / b;
}
PD_API uint64_t pd_u64_mod(uint64_t a, uint64_t b) {
  return b == 0 ? 0 : a % b;
}
PD_API uint64_t pd_u64_and(uint64_t a, uint64_t b) {
  return a & b;
}
PD_API uint64_t pd_u64_or(uint64_t a, uint64_t b) {
  return a | b;
}
PD_API uint64_t pd_u64_xor(uint64_t a, uint64_t b) {
  return a ^ b;
}
PD_API uint64_t pd_u64_shl(uint64_t a, uint64_t b) {
  return a << (b & 63);
}
PD_API uint64_t pd_u64_shr(uint64_t a, uint64_t b) {
  return a >> (b & 63);
}
PD_API uint64_t pd_u64_not(uint64_t a) {
  return ~a;
}
PD_API uint64_t pd_u64_eq(uint64_t a, uint64_t b) {
  return a == b;
}
PD_API uint64_t pd_u64_ne(uint64_t a, uint64_t b) {
  return a != b;
}
PD_API uint64_t pd_u64_lt(uint64_t a, uint64_t b) {
  return a < b;
}
PD_API uint64_t pd_u64_le(uint64_t a, uint64_t b) {
  return a <= b;
}
PD_API uint64_t pd_u64_gt(uint64_t a, uint64_t b) {
  return a > b;
}
PD_API uint64_t pd_u64_ge(uint64_t a, uint64_t b) {
  return a >= b;
}
PD_API uint64_t pd_u64_min(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}
PD_API uint64_t pd_u64_max(uint64_t a, uint64_t b) {
  return a > b ? a : b;
}
PD_API uint64_t pd_select_u64(uint64_t c, uint64_t a, uint64_t b) {
  return c != 0 ? a : b;
}

PD_API uint64_t pd_interleave(uint64_t a, uint64_t b) {
  uint64_t out = 0;
  for (int i = 0; i < 32; ++i) {
    out |= ((a >> i) & 1) << (2 * i);
    out |= ((b >> i) & 1) << (2 * i + 1);
  }
  return out;
}

PD_API void pd_mixed_radix(uint64_t x, const uint64_t* radices, uint64_t count, uint64_t* digits) {
  for (uint64_t k = 0; k < count; ++k) {
    uint64_t r = radices[k];
    if (r == 0) {
      digits[k] = x;
      x = 0;
    } else {
      digits[k] = x % r;
      x /= r;
    }
  }
}

PD_API uint64_t pd_clamp_u64(uint64_t x, uint64_t lo, uint64_t hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

PD_API int32_t pd_mod(uint64_t x, uint64_t k, uint64_t* out) {
  if (k == 0) return PD_FAIL;
  *out = x % k;
  return PD_OK;
}

PD_API int32_t pd_div(uint64_t x, uint64_t k, uint64_t* out) {
  if (k == 0) return PD_FAIL;
  *out = x / k;
  return PD_OK;
}

PD_API int32_t pd_in_range(uint64_t v, uint64_t lo, uint64_t hi, uint64_t* out) {
  if (v < lo || v > hi) return PD_FAIL;
  *out = v;
  return PD_OK;
}

PD_API int32_t pd_is_positive(uint64_t v, uint64_t* out) {
  if (v == 0) return PD_FAIL;
  *out = v;
  return PD_OK;
}

PD_API int32_t pd_is_one_of(uint64_t v, const uint64_t* allowed, uint64_t count, uint64_t* out) {
  for (uint64_t i = 0; i < count; ++i) {
    if (allowed[i] == v) {
      *out = v;
      return PD_OK;
    }
  }
  return PD_FAIL;
}

PD_API uint64_t pd_multiples_at_least(uint64_t value, uint64_t multiple) {
  if (multiple == 0) return 0;
  return value / multiple + (value % multiple != 0 ? 1 : 0);
}

PD_API uint64_t pd_ceil_to_multiple(uint64_t value, uint64_t multiple) {
  if (multiple == 0) return value;
  const uint64_t count = pd_multiples_at_least(value, multiple);
  return count > ~0ULL / multiple ? ~0ULL : count * multiple;
}

PD_API uint64_t pd_set_or_get(uint64_t current, uint64_t fallback) {
  return current == 0 ? fallback : current;
}

PD_API uint64_t pd_checked_add(uint64_t a, uint64_t b) {
  const uint64_t sum = a + b;
  return sum < a ? 0 : sum;
}

PD_API uint64_t pd_checked_sub(uint64_t a, uint64_t b) {
  return a > b ? a - b : 0;
}

PD_API uint64_t pd_lfsr_step(uint64_t input, uint64_t feedback) {
  return (input >> 1) ^ ((0 - (input & 1)) & feedback);
}

PD_API uint64_t pd_checked_mul(uint64_t a, uint64_t b) {
  uint64_t product;
  return __builtin_mul_overflow(a, b, &product) ? 0 : product;
}
