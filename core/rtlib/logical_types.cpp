// The conversions of the logical types (polyrt/logical_type.hpp): exact
// decimals from f64 and from other decimals, and the checked unit changes of
// times and dates. Integer arithmetic only, so every tier and the GPU give
// the same words.
#include "rtlib.h"
#include "text_writers.h"

namespace {

// Whether |n| has at most `precision` digits.
bool fits_precision(uint64_t magnitude, uint64_t precision) {
  return magnitude < polyrt::rt::kPowersOf10[precision];
}

int32_t signed_decimal(bool negative, uint64_t magnitude, uint64_t precision, uint64_t* out) {
  if (!fits_precision(magnitude, precision)) return PD_FAIL;
  *out = negative ? 0 - magnitude : magnitude;
  return PD_OK;
}

}  // namespace

PD_API int32_t pd_decimal_from_f64(double x, uint64_t scale, uint64_t precision, uint64_t* out) {
  // x is m * 2^e exactly; x * 10^scale is m * 10^scale * 2^e, an integer of
  // at most 113 bits (two words: no 128-bit integer may reach a kernel, see
  // pd_mul_wide) shifted, rounded half to even at the shift.
  const uint64_t bits = __builtin_bit_cast(uint64_t, x);
  const bool negative = bits >> 63;
  const int exponent_bits = (int)(bits >> 52 & 0x7ff);
  if (exponent_bits == 0x7ff) return PD_FAIL;  // infinity or NaN
  uint64_t mantissa = bits & ((1ULL << 52) - 1);
  const int exponent = exponent_bits == 0 ? -1074 : exponent_bits - 1075;
  if (exponent_bits != 0) mantissa |= 1ULL << 52;
  if (mantissa == 0) return signed_decimal(false, 0, precision, out);
  uint64_t high;
  const uint64_t low = pd_mul_wide(mantissa, polyrt::rt::kPowersOf10[scale], &high);
  if (exponent >= 0) {
    // At least 2^52 before the shift: past every precision when shifted far.
    if (exponent > 10 || high != 0) return PD_FAIL;
    if (exponent > 0 && low >> (64 - exponent) != 0) return PD_FAIL;
    return signed_decimal(negative, low << exponent, precision, out);
  }
  const int shift = -exponent;
  if (shift >= 120) return signed_decimal(negative, 0, precision, out);  // below 2^-7: rounds to 0
  // The quotient (it must fit a word), and how the remainder compares with
  // half of 2^shift: above, equal or below.
  uint64_t quotient;
  int against_half;
  if (shift < 64) {
    if (high >> shift != 0) return PD_FAIL;
    quotient = low >> shift | high << (64 - shift);
    const uint64_t remainder = low & ((1ULL << shift) - 1), half = 1ULL << (shift - 1);
    against_half = remainder > half ? 1 : remainder == half ? 0 : -1;
  } else if (shift == 64) {
    quotient = high;
    against_half = low > (1ULL << 63) ? 1 : low == (1ULL << 63) ? 0 : -1;
  } else {
    const int rest = shift - 64;
    quotient = high >> rest;
    const uint64_t remainder_high = high & ((1ULL << rest) - 1), half_high = 1ULL << (rest - 1);
    against_half = remainder_high > half_high || (remainder_high == half_high && low != 0) ? 1
                   : remainder_high == half_high                                           ? 0
                                                                                           : -1;
  }
  if (against_half > 0 || (against_half == 0 && (quotient & 1))) {
    if (++quotient == 0) return PD_FAIL;
  }
  return signed_decimal(negative && quotient != 0, quotient, precision, out);
}

PD_API int32_t pd_decimal_rescale(uint64_t n, uint64_t from_scale, uint64_t to_scale,
                                  uint64_t precision, uint64_t* out) {
  const bool negative = (int64_t)n < 0;
  uint64_t magnitude = negative ? 0 - n : n;
  if (to_scale >= from_scale) {
    const uint64_t factor = polyrt::rt::kPowersOf10[to_scale - from_scale];
    if (magnitude != 0 && magnitude > ~0ULL / factor) return PD_FAIL;
    magnitude *= factor;
  } else {
    const uint64_t divisor = polyrt::rt::kPowersOf10[from_scale - to_scale];
    const uint64_t quotient = magnitude / divisor;
    const uint64_t remainder = magnitude - quotient * divisor;
    const uint64_t half = divisor / 2;  // divisor is even
    magnitude = quotient + (remainder > half || (remainder == half && (quotient & 1)) ? 1 : 0);
  }
  return signed_decimal(negative && magnitude != 0, magnitude, precision, out);
}

PD_API double pd_decimal_to_f64(uint64_t n, uint64_t scale) {
  // Both exact below 2^53 (10^scale is, up to 10^22): one rounding there.
  return (double)(int64_t)n / (double)polyrt::rt::kPowersOf10[scale];
}

PD_API int32_t pd_time_rescale(uint64_t t, uint64_t multiplier, uint64_t divisor, uint64_t* out) {
  int64_t scaled;
  if (__builtin_mul_overflow((int64_t)t, (int64_t)multiplier, &scaled)) return PD_FAIL;
  const int64_t d = (int64_t)divisor;
  const int64_t quotient = scaled / d;
  *out = (uint64_t)(quotient - (scaled % d < 0 ? 1 : 0));
  return PD_OK;
}
