// ln x within about one ulp, with neither a table nor a branch, so that a
// batch loop over it vectorizes: the exact-tail samplers call it once or
// more a row. pd_ln (transcendental.cpp) is the double-double logarithm
// that pow and the ln node need and is ~10x dearer. Only + - * / and
// integer operations: the same bits on every host and on the GPU.
#pragma once

#include "pd_rt.h"

// x = 2^e * (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)); s = f / (2 + f) and
// ln(1 + f) = 2 atanh(s) = f - f^2/2 + s (f^2/2 + R(s^2)), f exact and the
// correction small, so the rounding of s barely reaches the result.
// R(z) = 2z/3 + 2z^2/5 + ... + 2z^9/19: the next term is below 2^-55 of
// the sum for |s| <= 0.1716.
PD_INLINE double pd_ln_vector(double x) {
  const bool subnormal = x < 0x1p-1022;
  const double scaled = subnormal ? x * 0x1p54 : x;
  const uint64_t bits = pd_f64_to_bits(scaled);
  const int64_t e = (int64_t)(bits - 0x3fe6a09e667f3bcdULL) >> 52;  // sqrt(2)/2's bits
  const double f = pd_bits_to_f64(bits - ((uint64_t)e << 52)) - 1.0;
  const double s = f / (2.0 + f), z = s * s;
  double r = 2.0 / 19.0;
  r = r * z + 2.0 / 17.0;
  r = r * z + 2.0 / 15.0;
  r = r * z + 2.0 / 13.0;
  r = r * z + 2.0 / 11.0;
  r = r * z + 2.0 / 9.0;
  r = r * z + 2.0 / 7.0;
  r = r * z + 2.0 / 5.0;
  r = r * z + 2.0 / 3.0;
  r *= z;
  const double half_square = 0.5 * f * f;
  const double exponent = (double)(e - (subnormal ? 54 : 0));
  const double ln2_hi = 0x1.62e42fee00000p-1;  // 32 bits: exponent * ln2_hi is exact
  const double ln2_lo = 0x1.a39ef35793c76p-33;
  const double ln =
      exponent * ln2_hi + (f - (half_square - (s * (half_square + r) + exponent * ln2_lo)));
  const double special = x != x ? x : x < 0.0 ? __builtin_nan("") : x == 0.0 ? -__builtin_inf() : x;
  return x > 0.0 && x < __builtin_inf() ? ln : special;
}
