#include "rtlib.h"

PD_API double pd_f64_add(double a, double b) {
  return a + b;
}
PD_API double pd_f64_sub(double a, double b) {
  return a - b;
}
PD_API double pd_f64_mul(double a, double b) {
  return a * b;
}
PD_API double pd_f64_div(double a, double b) {
  return b == 0.0 ? 0.0 : a / b;
}

// fmod by exact integer long division of the significands (no libm):
// the result has the sign of `a`; a zero divisor gives 0.0 by the node's rule.
PD_API double pd_f64_mod(double a, double b) {
  if (b == 0.0) return 0.0;
  uint64_t ux = pd_f64_to_bits(a);
  uint64_t uy = pd_f64_to_bits(b);
  int ex = (int)((ux >> 52) & 0x7ff);
  int ey = (int)((uy >> 52) & 0x7ff);
  const uint64_t sign = ux & 0x8000000000000000ULL;
  if (b != b || ex == 0x7ff) return (a * b) / (a * b);
  if ((ux << 1) <= (uy << 1)) {
    if ((ux << 1) == (uy << 1)) return 0.0 * a;
    return a;
  }
  uint64_t i;
  if (ex == 0) {
    for (i = ux << 12; (i >> 63) == 0; ex--, i <<= 1) {
    }
    ux <<= -ex + 1;
  } else {
    ux &= ~0ULL >> 12;
    ux |= 1ULL << 52;
  }
  if (ey == 0) {
    for (i = uy << 12; (i >> 63) == 0; ey--, i <<= 1) {
    }
    uy <<= -ey + 1;
  } else {
    uy &= ~0ULL >> 12;
    uy |= 1ULL << 52;
  }
  for (; ex > ey; ex--) {
    i = ux - uy;
    if ((i >> 63) == 0) {
      if (i == 0) return 0.0 * a;
      ux = i;
    }
    ux <<= 1;
  }
  i = ux - uy;
  if ((i >> 63) == 0) {
    if (i == 0) return 0.0 * a;
    ux = i;
  }
  for (; (ux >> 52) == 0; ux <<= 1, ex--) {
  }
  if (ex > 0) {
    ux -= 1ULL << 52;
    ux |= (uint64_t)ex << 52;
  } else {
    ux >>= -ex + 1;
  }
  return pd_bits_to_f64(ux | sign);
}

PD_API uint64_t pd_f64_eq(double a, double b) {
  return a == b;
}
PD_API uint64_t pd_f64_ne(double a, double b) {
  return a != b;
}
PD_API uint64_t pd_f64_lt(double a, double b) {
  return a < b;
}
PD_API uint64_t pd_f64_le(double a, double b) {
  return a <= b;
}
PD_API uint64_t pd_f64_gt(double a, double b) {
  return a > b;
}
PD_API uint64_t pd_f64_ge(double a, double b) {
  return a >= b;
}
PD_API double pd_select_f64(uint64_t c, double a, double b) {
  return c != 0 ? a : b;
}

// Rust clamp: comparisons, not min/max, so NaN passes through and -0.0 is kept.
PD_API double pd_clamp_f64(double x, double lo, double hi) {
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}

PD_API double pd_lerp(double t, double a, double b) {
  return a + t * (b - a);
}
PD_API double pd_inv_lerp(double x, double a, double b) {
  const double inverse_range = 1.0 / (b - a);
  return pd_clamp_f64((x - a) * inverse_range, 0.0, 1.0);
}

PD_API double pd_remap(double x, double in_min, double in_max, double out_min, double out_max) {
  const double t = (x - in_min) / (in_max - in_min);
  return out_min + t * (out_max - out_min);
}

PD_API double pd_quantize(double x, double step) {
  return pd_round_half_away(x / step) * step;
}

PD_API double pd_abs_f64(double x) {
  return pd_bits_to_f64(pd_f64_to_bits(x) & 0x7fffffffffffffffULL);
}

PD_API double pd_to_f64(uint64_t x) {
  return (double)x;
}

static const double kTwoPow64 = 18446744073709551616.0;

PD_API uint64_t pd_f64_to_u64(double x) {
  if (!(x >= 1.0)) return 0;
  if (x >= kTwoPow64) return ~0ULL;
  return (uint64_t)x;
}

PD_API uint64_t pd_floor_to_u64(double x) {
  return pd_f64_to_u64(x);
}

PD_API uint64_t pd_ceil_to_u64(double x) {
  if (!(x > 0.0)) return 0;
  if (x >= kTwoPow64) return ~0ULL;
  uint64_t t = (uint64_t)x;
  return (double)t < x ? t + 1 : t;
}

// Half away from zero; x - t is exact because x < 2^53 whenever it has a fraction.
PD_API uint64_t pd_round_to_u64(double x) {
  if (!(x >= 0.5)) return 0;
  if (x >= kTwoPow64) return ~0ULL;
  uint64_t t = (uint64_t)x;
  return x - (double)t >= 0.5 ? t + 1 : t;
}

PD_API uint64_t pd_discretize(double x, double range, uint64_t buckets) {
  if (!(x > 0.0)) return 0;  // NaN and what is below the range: the first bucket
  const double scaled = x / range * (double)buckets;
  if (!(scaled < (double)buckets)) return buckets - 1;
  return (uint64_t)scaled;
}
