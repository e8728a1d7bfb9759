// Signed 64-bit arithmetic and the conversions between the numeric types
// (see rtlib.h). Words carry signed integers sign-extended, so the wrapping
// operations are the u64 ones; only division, remainder, comparison and the
// conversions depend on the sign.
#include "rtlib.h"

namespace {

constexpr uint64_t kI64Min = 0x8000000000000000ULL;
constexpr double kTwoPow63 = 9223372036854775808.0;

int64_t as_signed(uint64_t w) {
  return (int64_t)w;
}

}  // namespace

PD_API uint64_t pd_identity_word(uint64_t x) {
  return x;
}

PD_API uint64_t pd_i64_div(uint64_t a, uint64_t b) {
  if (b == 0) return 0;
  if (a == kI64Min && as_signed(b) == -1) return kI64Min;  // wraps, like the u64 operators
  return (uint64_t)(as_signed(a) / as_signed(b));
}

PD_API uint64_t pd_i64_mod(uint64_t a, uint64_t b) {
  if (b == 0 || as_signed(b) == -1) return 0;
  return (uint64_t)(as_signed(a) % as_signed(b));
}

PD_API uint64_t pd_i64_lt(uint64_t a, uint64_t b) {
  return as_signed(a) < as_signed(b);
}
PD_API uint64_t pd_i64_le(uint64_t a, uint64_t b) {
  return as_signed(a) <= as_signed(b);
}
PD_API uint64_t pd_i64_gt(uint64_t a, uint64_t b) {
  return as_signed(a) > as_signed(b);
}
PD_API uint64_t pd_i64_ge(uint64_t a, uint64_t b) {
  return as_signed(a) >= as_signed(b);
}
PD_API uint64_t pd_i64_neg(uint64_t a) {
  return 0 - a;
}

PD_API double pd_i64_to_f64(uint64_t x) {
  return (double)as_signed(x);
}

PD_API double pd_f64_to_f32(double x) {
  return (double)(float)x;
}
PD_API double pd_u64_to_f32(uint64_t x) {
  return (double)(float)x;
}
PD_API double pd_i64_to_f32(uint64_t x) {
  return (double)(float)as_signed(x);
}

PD_API uint64_t pd_f64_to_i64(double x) {
  if (x != x) return 0;
  if (x <= -kTwoPow63) return kI64Min;
  if (x >= kTwoPow63) return kI64Min - 1;
  return (uint64_t)(int64_t)x;
}

PD_API uint64_t pd_round_to_i64(double x) {
  if (x != x) return 0;
  if (x <= -kTwoPow63) return kI64Min;
  if (x >= kTwoPow63) return kI64Min - 1;
  const int64_t t = (int64_t)x;  // toward zero; then half away from zero
  const double rest = x - (double)t;
  if (rest >= 0.5) return (uint64_t)(t + 1);
  if (rest <= -0.5) return (uint64_t)(t - 1);
  return (uint64_t)t;
}

PD_API int32_t pd_int_convert(uint64_t x, uint64_t from_signed, uint64_t to_bits,
                              uint64_t to_signed, uint64_t* out) {
  const uint64_t magnitude_bits = to_bits - (to_signed ? 1 : 0);
  const uint64_t max = magnitude_bits == 64 ? ~0ULL : (1ULL << magnitude_bits) - 1;
  if (from_signed && as_signed(x) < 0) {
    if (!to_signed) return PD_FAIL;
    if (as_signed(x) < -as_signed(max) - 1) return PD_FAIL;
  } else if (x > max) {
    return PD_FAIL;
  }
  *out = x;
  return PD_OK;
}
