// An f64 with `precision` fixed decimals, the exact round-half-to-even of
// its binary value (glibc's %.*f, std::to_chars(fixed)), freestanding (see
// text_writers.h): format_f64 and printf's {:.N} on the host and in GPU
// kernels write this one source. A value below 2^64 / 10^precision with at
// most 9 decimals takes two-word arithmetic; any other takes the exact
// product m * 10^precision * 2^e in 32-bit limbs, which the caller provides
// (fixed_decimal_limbs(precision) of them), then its decimal digits.
#pragma once

#include "pd_rt.h"
#include "shortest_double.hpp"
#include "text_writers.h"

namespace polyrt::rt {

// The most decimals an f64 has (2^-1074 has 1074): the most format_f64 and
// printf's {:.N} take.
inline constexpr int kMaxFixedDecimals = 1074;
// The most a GPU kernel writes (pd_text_f64_fixed): its limbs are local
// memory, reserved for every resident thread, so a kernel keeps 37 of them
// (148 bytes), not the 149 that 1074 decimals take.
inline constexpr int kDeviceFixedDecimals = 20;

// Limbs for the product at precisions up to `max_precision`: 53 significand
// bits, 971 of binary exponent, log2(10) < 3.3220 bits a decimal, and room
// for the carry and the shifts.
constexpr int fixed_decimal_limbs(int max_precision) {
  return (53 + 971 + 2 + (max_precision * 3322 + 999) / 1000) / 32 + 3;
}

namespace fixed_detail {

// Little-endian 32-bit limbs; `n` of them in use, at least one.
struct Big {
  uint32_t* v;
  int n;

  void trim() {
    while (n > 1 && v[n - 1] == 0) --n;
  }
  void multiply(uint32_t k) {
    uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      const uint64_t t = (uint64_t)v[i] * k + carry;
      v[i] = (uint32_t)t;
      carry = t >> 32;
    }
    if (carry) v[n++] = (uint32_t)carry;
  }
  bool bit(int b) const { return b / 32 < n && (v[b / 32] >> (b % 32) & 1); }
  void shift_left(int s) {
    const int words = s / 32, bits = s % 32, m = n + words + 1;
    for (int i = m - 1; i >= 0; --i) {  // reads only limbs at or below i
      const int j = i - words;
      const uint32_t high = j >= 0 && j < n ? v[j] : 0;
      const uint32_t low = j >= 1 && j - 1 < n ? v[j - 1] : 0;
      v[i] = bits ? high << bits | low >> (32 - bits) : high;
    }
    n = m;
    trim();
  }
  // this >> s; whether the bits shifted out round it up (half to even).
  bool shift_right_rounds_up(int s) {
    const bool half = bit(s - 1);
    // Any bit in [0, s - 1): whole limbs, then the half bit's limb masked.
    const int b = s - 1;
    bool below = false;
    for (int w = 0; w < b / 32 && w < n && !below; ++w) below = v[w] != 0;
    if (!below && b % 32 && b / 32 < n) below = (v[b / 32] & ((1u << (b % 32)) - 1)) != 0;
    const int words = s / 32, bits = s % 32;
    for (int i = 0; i < n; ++i) {  // reads only limbs at or above i
      const int j = i + words;
      const uint32_t low = j < n ? v[j] : 0;
      const uint32_t high = j + 1 < n ? v[j + 1] : 0;
      v[i] = bits ? low >> bits | high << (32 - bits) : low;
    }
    n = n - words > 1 ? n - words : 1;
    trim();
    return half && (below || (v[0] & 1));
  }
  void increment() {
    for (int i = 0; i < n; ++i) {
      if (++v[i] != 0) return;
    }
    v[n++] = 1;
  }
  bool fits_u64() const { return n <= 2; }
  uint64_t low_u64() const { return v[0] | (n > 1 ? (uint64_t)v[1] << 32 : 0); }
  // The decimal digits at p, most significant first (consumes the value):
  // groups of 9 from the least significant (dividing by 10^9), each written
  // by the lane writers, leftwards from the most digits the value can have,
  // then moved to p.
  char* write_decimal(char* p) {
    const int bits = 32 * n - __builtin_clz(v[n - 1] | 1);
    char* const right = p + bits * 30103 / 100000 + 1;  // > bits * log10(2)
    char* at = right;
    while (true) {
      const uint32_t rest = divide_limbs(v, n, 1000000000);
      trim();
      const bool last = n == 1 && v[0] == 0;
      char group[kU64Text + 8];
      const int length =
          (int)((last ? write_u64(group, rest) : write_u64_zero_pad(group, rest, 9)) - group);
      at -= length;
      for (int k = 0; k < length; ++k) at[k] = group[k];
      if (last) break;
    }
    const int count = (int)(right - at);
    for (int k = 0; k < count; ++k) p[k] = at[k];
    return p + count;
  }
};

// |x| * 10^precision rounded half to even when it is below 2^64 and
// precision <= 9 (true), from a two-word product: the common case, with no
// limbs.
inline bool scaled_magnitude(double x, int precision, uint64_t& out) {
  if (precision < 0 || precision > 9) return false;
  const BinaryValue binary = binary_of(x);  // |x| = m * 2^e
  const uint64_t m = binary.c;
  const int e = binary.q;
  if (precision <= 3 && e < 0) {
    // m * 10^precision < 2^63: one word, and shifts of one word (those of
    // two words cost several instructions each). Prices and rates.
    const uint64_t scaled = m * kPowersOf10[precision];
    const int shift = -e;
    if (shift >= 64) {  // below 2^63 / 2^64: rounds to 0
      out = 0;
      return true;
    }
    const uint64_t quotient = scaled >> shift;
    const uint64_t remainder = scaled - (quotient << shift);
    const uint64_t half = uint64_t{1} << (shift - 1);
    out = quotient + (remainder > half || (remainder == half && (quotient & 1)));
    return true;
  }
  // m * 10^precision < 2^83, as two words.
  uint64_t high;
  const uint64_t low = pd_mul_wide(m, kPowersOf10[precision], &high);
  if (e >= 0) {
    if (high != 0 || e > 63 || (e > 0 && low >> (64 - e) != 0)) return false;  // 2^64 or more
    out = low << e;
    return true;
  }
  if (e <= -128) {  // |x| < 2^-75: below half of the last decimal
    out = 0;
    return true;
  }
  // The quotient (scaled >> shift), and the remainder and half of 2^shift as
  // two words each.
  const int shift = -e;
  uint64_t n, remainder_high, remainder_low, half_high, half_low;
  if (shift < 64) {
    if (high >> shift) return false;  // 2^64 or more
    n = (low >> shift) | (high << (64 - shift));
    remainder_high = 0;
    remainder_low = low & ((uint64_t{1} << shift) - 1);
    half_high = 0;
    half_low = uint64_t{1} << (shift - 1);
  } else {
    const int s = shift - 64;
    n = high >> s;
    remainder_high = high & ((uint64_t{1} << s) - 1);
    remainder_low = low;
    half_high = s == 0 ? 0 : uint64_t{1} << (s - 1);
    half_low = s == 0 ? uint64_t{1} << 63 : 0;
  }
  const bool above =
      remainder_high > half_high || (remainder_high == half_high && remainder_low > half_low);
  const bool tie = remainder_high == half_high && remainder_low == half_low;
  if (above || (tie && (n & 1))) {
    if (++n == 0) return false;
  }
  out = n;
  return true;
}

// The digits [p, end) of |x| * 10^precision with the point put before the
// last `precision` of them ("0.05" for "5" and 2); returns the new end.
inline char* place_point(char* p, char* end, int precision) {
  if (precision == 0) return end;
  const int count = (int)(end - p);
  const int whole = count - precision;
  // Digits that move right: the decimals, and room for "0." and zeros when
  // there is no whole digit.
  const int gap = whole > 0 ? 1 : 2 - whole;
  const int moved = whole > 0 ? precision : count;
  for (int k = moved - 1; k >= 0; --k) end[k - moved + gap] = end[k - moved];
  char* point = whole > 0 ? p + whole : p + 1;
  if (whole <= 0) {
    p[0] = '0';
    for (char* z = point + 1; z < point + 1 - whole; ++z) *z = '0';
  }
  *point = '.';
  return end + gap;
}

}  // namespace fixed_detail

// x with `precision` fixed decimals (NaN, inf, -inf as words), in room for
// f64_fixed_bound(precision) bytes; `limbs` holds
// fixed_decimal_limbs(precision) words.
inline char* write_fixed_decimal(char* p, double x, int precision, uint32_t* limbs) {
  if (const char* special = special_f64(x)) return write_literal(p, special);
  if (__builtin_signbit(x)) *p++ = '-';
  uint64_t small = 0;
  if (fixed_detail::scaled_magnitude(x, precision, small)) {
    return fixed_detail::place_point(p, write_u64(p, small), precision);
  }
  const BinaryValue binary = binary_of(x);  // |x| = c * 2^q
  fixed_detail::Big big{limbs, 2};
  limbs[0] = (uint32_t)binary.c;
  limbs[1] = (uint32_t)(binary.c >> 32);
  big.trim();
  for (int k = 0; k < precision; k += 9) {
    const int step = precision - k < 9 ? precision - k : 9;
    uint32_t power = 1;
    for (int i = 0; i < step; ++i) power *= 10;
    big.multiply(power);
  }
  if (binary.q >= 0) {
    big.shift_left(binary.q);
  } else if (big.shift_right_rounds_up(-binary.q)) {
    big.increment();
  }
  char* end = big.fits_u64() ? write_u64(p, big.low_u64()) : big.write_decimal(p);
  return fixed_detail::place_point(p, end, precision);
}

}  // namespace polyrt::rt
