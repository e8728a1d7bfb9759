#include "shortest_double.hpp"

#include "text_writers.h"

namespace polyrt::rt {
namespace {

#include "pow10_table.inc"

// floor(log10(2^q)), floor(log10(3/4 * 2^q)) and floor(log2(10^e)) for the
// exponents of doubles (tools/generate_pow10_table.py checks them exactly).
int floor_log10_pow2(int q) {
  return (q * 315653) >> 20;
}
int floor_log10_three_quarters_pow2(int q) {
  return (q * 315653 - 131237) >> 20;
}
int floor_log2_pow10(int e) {
  return (e * 1741647) >> 19;
}

// floor(g * cp / 2^128), its last bit set when the product is not an
// integer (rounded to odd, which keeps every comparison with an even
// integer exact). g over-estimates the power by less than one unit, which
// never reaches the middle word for an exact product.
uint64_t round_to_odd(const uint64_t g[2], uint64_t cp) {
  uint64_t high_high, carry;
  const uint64_t high_low =
      pd_add_carry(pd_mul_wide(g[0], cp, &high_high), pd_mul_high(g[1], cp), &carry);
  return (high_high + carry) | (high_low != 0);
}

// digits * 10^exponent with the trailing zeros of digits removed.
DecimalDigits without_trailing_zeros(uint64_t digits, int exponent) {
  while (digits % 10 == 0) {
    digits /= 10;
    ++exponent;
  }
  return {digits, exponent};
}

// An integral c * 2^q as std::to_chars writes it in fixed form: every digit
// of its exact value (2^60 is 1152921504606846976, not 1152921504606847000).
// Fixed form is chosen only while it is no longer than the exponent form, so
// the value is below 10^23: at most 5 digits above two groups of 9.
char* write_integral(char* p, uint64_t c, int q) {
  if (q <= 0) return write_u64(p, c >> -q);
  // c * 2^q as two words (q < 128: the value is below 10^23).
  const uint64_t low = q >= 64 ? 0 : c << q;
  const uint64_t high = q >= 64 ? c << (q - 64) : c >> (64 - q);
  if (high == 0) return write_u64(p, low);
  uint32_t limbs[4] = {(uint32_t)low, (uint32_t)(low >> 32), (uint32_t)high,
                       (uint32_t)(high >> 32)};
  constexpr uint32_t k9 = 1000000000;
  const uint32_t last = divide_limbs(limbs, 4, k9);
  const uint32_t middle = divide_limbs(limbs, 4, k9);
  const uint64_t head = (uint64_t)limbs[1] << 32 | limbs[0];
  return write_u64_zero_pad(write_u64_zero_pad(write_u64(p, head), middle, 9), last, 9);
}

// The body of shortest_decimal, inlined into the text writers. An f32 takes
// the same steps with its own c, q and interval: the 126-bit powers of ten
// are more than precise enough for its 24-bit significands.
[[gnu::always_inline]] inline DecimalDigits shortest(const BinaryValue& v) {
  const uint64_t c = v.c;
  const int q = v.q;
  // An integer below 2^(fraction bits + 1) is its own shortest form: no
  // other decimal of as few digits lies within half a unit of it.
  if (q <= 0 && q >= -v.fraction_bits && (c & ((uint64_t{1} << -q) - 1)) == 0) {
    return without_trailing_zeros(c >> -q, 0);
  }
  // The rounding interval, in quarters of 2^q: half a unit each side, but a
  // quarter below a power of two, whose predecessor is closer.
  const bool lower_closer = v.lower_closer;
  const uint64_t cb = 4 * c;
  const uint64_t cbl = cb - 2 + lower_closer;
  const uint64_t cbr = cb + 2;
  // The interval spans at least one unit and less than ten at 10^k.
  const int k = lower_closer ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
  const int h = q + floor_log2_pow10(-k) + 1;  // 1..4
  const uint64_t* g = kPow10[-k - kPow10Min];
  const uint64_t vbl = round_to_odd(g, cbl << h);
  const uint64_t vb = round_to_odd(g, cb << h);
  const uint64_t vbr = round_to_odd(g, cbr << h);
  // The bounds belong to the interval when c is even (reading rounds half
  // to even).
  const uint64_t odd = c & 1;
  const uint64_t lower = vbl + odd;
  const uint64_t upper = vbr - odd;
  const uint64_t s = vb >> 2;  // floor(x / 10^k)
  // At most one multiple of 10^(k+1) is inside: the shorter candidate, when
  // there is one. Else the multiple of 10^k inside, or the nearer of the two
  // inside (ties to even). Selected without branches: which case holds is
  // a coin toss for random doubles, and a mispredicted branch cost more
  // than computing every case.
  const uint64_t sp = s / 10;
  const bool up_inside = lower <= 40 * sp;
  const bool wp_inside = 40 * sp + 40 <= upper;
  const bool shorter = (s >= 10) & (up_inside != wp_inside);
  const bool u_inside = lower <= 4 * s;
  const bool w_inside = 4 * s + 4 <= upper;
  const uint64_t mid = 4 * s + 2;
  const bool round_up = (vb > mid) | ((vb == mid) & ((s & 1) != 0));
  const uint64_t nearer = s + (u_inside != w_inside ? w_inside : round_up);
  return without_trailing_zeros(shorter ? sp + wp_inside : nearer, k + shorter);
}

// std::to_chars's shortest text of the positive finite value x.
template <typename Float>
[[gnu::always_inline]] inline char* write_shortest_positive(char* p, Float x) {
  const BinaryValue v = binary_of(x);
  const DecimalDigits d = shortest(v);
  const int n = u64_digits(d.digits);
  const int point = d.exponent + n;  // x = 0.DIGITS * 10^point
  const int sci_exponent = point - 1;
  const int abs_exponent = sci_exponent < 0 ? -sci_exponent : sci_exponent;
  const int sci_length = n + (n > 1) + 2 + (abs_exponent >= 100 ? 3 : 2);
  const int fixed_length = d.exponent >= 0 ? n + d.exponent : point > 0 ? n + 1 : n + 2 - point;
  if (fixed_length <= sci_length) {
    if (d.exponent >= 0) return write_integral(p, v.c, v.q);
    if (point > 0) {
      // The fraction (at most 16 digits: point >= 1) moves one place right
      // as one 16-byte move, making room for the point.
      char* end = write_u64(p, d.digits);
      char fraction[16];
      __builtin_memcpy(fraction, p + point, 16);
      __builtin_memcpy(p + point + 1, fraction, 16);
      p[point] = '.';
      return end + 1;
    }
    *p++ = '0';
    *p++ = '.';
    for (int i = 0; i < -point; ++i) *p++ = '0';
    return write_u64(p, d.digits);
  }
  char* end = write_u64(p + 1, d.digits);
  p[0] = p[1];
  if (n > 1) {
    p[1] = '.';
  } else {
    end = p + 1;
  }
  *end++ = 'e';
  *end++ = sci_exponent < 0 ? '-' : '+';
  if (abs_exponent >= 100) {
    *end++ = (char)('0' + abs_exponent / 100);
  }
  *end++ = (char)('0' + abs_exponent / 10 % 10);
  *end++ = (char)('0' + abs_exponent % 10);
  return end;
}

template <typename Float>
char* write_shortest(char* p, Float x) {
  if (__builtin_signbit(x)) {
    *p++ = '-';
    x = -x;
  }
  if (x == 0) {
    *p = '0';
    return p + 1;
  }
  return write_shortest_positive(p, x);
}

template <typename Float>
ShortestDigits digits_of(Float x) {
  ShortestDigits d;
  d.negative = __builtin_signbit(x);
  const DecimalDigits decimal = shortest(binary_of(x < 0 ? -x : x));
  d.count = (int)(write_u64(d.digits, decimal.digits) - d.digits);
  d.point = decimal.exponent + d.count;
  return d;
}

}  // namespace

DecimalDigits shortest_decimal(double x) {
  return shortest(binary_of(x));
}

char* write_shortest_finite(char* p, double x) {
  return write_shortest(p, x);
}

char* write_f32_shortest_finite(char* p, float x) {
  return write_shortest(p, x);
}

ShortestDigits shortest_digits(double x) {
  return digits_of(x);
}

ShortestDigits f32_shortest_digits(float x) {
  return digits_of(x);
}

char* write_plain_decimal(char* p, const ShortestDigits& d, bool force_fraction) {
  const auto copy = [&](const char* from, int n) {
    for (int i = 0; i < n; ++i) *p++ = from[i];
  };
  const auto zeros = [&](int n) {
    for (int i = 0; i < n; ++i) *p++ = '0';
  };
  if (d.point <= 0) {
    copy("0.", 2);
    zeros(-d.point);
    copy(d.digits, d.count);
    return p;
  }
  if (d.point >= d.count) {
    copy(d.digits, d.count);
    zeros(d.point - d.count);
    if (force_fraction) copy(".0", 2);
    return p;
  }
  copy(d.digits, d.point);
  *p++ = '.';
  copy(d.digits + d.point, d.count - d.point);
  return p;
}

const char* special_f64(double x) {
  if (x != x) return "NaN";
  if (x == __builtin_inf()) return "inf";
  if (x == -__builtin_inf()) return "-inf";
  return nullptr;
}

char* write_literal(char* p, const char* text) {
  while (*text) *p++ = *text++;
  return p;
}

char* write_display_digits(char* p, const ShortestDigits& d) {
  if (d.negative) *p++ = '-';
  return write_plain_decimal(p, d, false);
}

char* write_debug_digits(char* p, double magnitude, const ShortestDigits& d,
                         double smallest_plain) {
  if (d.negative) *p++ = '-';
  if (magnitude >= smallest_plain && magnitude < 1e16) return write_plain_decimal(p, d, true);
  *p++ = d.digits[0];
  if (d.count > 1) {
    *p++ = '.';
    for (int i = 1; i < d.count; ++i) *p++ = d.digits[i];
  }
  *p++ = 'e';
  return write_i64(p, d.point - 1);
}

char* write_f64_display(char* p, double x) {
  if (const char* special = special_f64(x)) return write_literal(p, special);
  if (x == 0.0) return write_literal(p, __builtin_signbit(x) ? "-0" : "0");
  return write_display_digits(p, shortest_digits(x));
}

char* write_f32_display(char* p, double x) {
  if (const char* special = special_f64(x)) return write_literal(p, special);
  if (x == 0.0) return write_literal(p, __builtin_signbit(x) ? "-0" : "0");
  return write_display_digits(p, f32_shortest_digits((float)x));
}

char* write_f32_debug(char* p, double x, double smallest_plain) {
  if (const char* special = special_f64(x)) return write_literal(p, special);
  if (x == 0.0) return write_literal(p, __builtin_signbit(x) ? "-0.0" : "0.0");
  return write_debug_digits(p, __builtin_fabs(x), f32_shortest_digits((float)x), smallest_plain);
}

char* write_f64_debug(char* p, double x, double smallest_plain) {
  if (const char* special = special_f64(x)) return write_literal(p, special);
  if (x == 0.0) return write_literal(p, __builtin_signbit(x) ? "-0.0" : "0.0");
  return write_debug_digits(p, __builtin_fabs(x), shortest_digits(x), smallest_plain);
}

}  // namespace polyrt::rt
