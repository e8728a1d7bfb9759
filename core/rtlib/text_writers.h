// Text writers shared by the host's text nodes and row writers and by
// the device text of GPU kernels: freestanding (no standard library), so the
// one source compiles with g++ and with clang to bitcode for the host and
// nvptx64 (see pd_rt.h). Each writer writes at p and returns the end of what
// it wrote; the caller gives the room named beside it, plus 8 bytes the
// digit stores may overwrite past the end.
#pragma once

#include "pd_rt.h"

namespace polyrt::rt {

inline constexpr __SIZE_TYPE__ kU64Text = 20;       // the longest u64 in decimal
inline constexpr __SIZE_TYPE__ kU64RadixText = 66;  // 64 binary digits and a prefix

// 10^0 to 10^19, every power of ten a u64 holds.
inline constexpr uint64_t kPowersOf10[20] = {1ULL,
                                             10ULL,
                                             100ULL,
                                             1000ULL,
                                             10000ULL,
                                             100000ULL,
                                             1000000ULL,
                                             10000000ULL,
                                             100000000ULL,
                                             1000000000ULL,
                                             10000000000ULL,
                                             100000000000ULL,
                                             1000000000000ULL,
                                             10000000000000ULL,
                                             100000000000000ULL,
                                             1000000000000000ULL,
                                             10000000000000000ULL,
                                             100000000000000000ULL,
                                             1000000000000000000ULL,
                                             10000000000000000000ULL};

// The number of decimal digits of x (1 for 0).
inline int u64_digits(uint64_t x) {
  // log10(2) ~ 1233 / 4096: the bit width gives the digit count or one more.
  const int guess = ((64 - __builtin_clzll(x | 1)) * 1233) >> 12;
  return guess + 1 - ((x | 1) < kPowersOf10[guess]);
}

namespace detail {

// The 8 decimal digits of v (< 10^8) as the bytes 0..9 of a word, the most
// significant first in memory: v split into two 4-digit halves, each half
// into two pairs, each pair into two digits, every lane of the word at once
// (multiplies by reciprocals of 100 and 10 that are exact below 10^4 and
// 100, and no carry crosses a lane).
inline uint64_t decimal_lanes(uint32_t v) {
  const uint32_t high = v / 10000;
  uint64_t x = high | (uint64_t)(v - high * 10000) << 32;
  const uint64_t hundreds = ((x * 10486) >> 20) & 0x0000007f0000007fULL;
  x = (x - hundreds * 100) << 16 | hundreds;
  const uint64_t tens = ((x * 103) >> 10) & 0x000f000f000f000fULL;
  return (x - tens * 10) << 8 | tens;
}

// Stores the 8 bytes of lanes in memory order.
inline void store_lanes(char* p, uint64_t lanes) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  lanes = __builtin_bswap64(lanes);
#endif
  __builtin_memcpy(p, &lanes, 8);
}

// Stores the 8 digits in lanes as characters but for the first `dropped`
// (0..7), which are shifted out (they lead in memory).
inline char* store_digits(char* p, uint64_t lanes, int dropped) {
  store_lanes(p, (lanes | 0x3030303030303030ULL) >> (8 * dropped));
  return p + 8 - dropped;
}

// v (< 10^8) in decimal without leading zeros: the leading zero digits are
// the word's low zero bytes, shifted out, and the 8 bytes are stored at
// once (callers give at least 8 bytes of room). No digit count and no loop:
// their data-dependent branches cost more than the digits.
inline char* write_short_decimal(char* p, uint32_t v) {
  if (v < 10) {  // flags and other one-digit columns (and 0, which has no nonzero lane)
    *p = (char)('0' + v);
    return p + 1;
  }
  const uint64_t lanes = decimal_lanes(v);
  return store_digits(p, lanes, __builtin_ctzll(lanes) / 8);
}

// Exactly 8 digits of v (< 10^8), leading zeros included.
inline char* write_8_digits(char* p, uint32_t v) {
  return store_digits(p, decimal_lanes(v), 0);
}

}  // namespace detail

// x in decimal: a short head and 8-digit blocks whose digits are computed
// independently (the batch tier's row writers and text nodes spend much of
// their time here).
inline char* write_u64(char* p, uint64_t x) {
  constexpr uint64_t k8 = 100000000ULL, k16 = 10000000000000000ULL;
  if (x < k8) return detail::write_short_decimal(p, (uint32_t)x);
  if (x < k16) {
    const auto head = (uint32_t)(x / k8);
    p = detail::write_short_decimal(p, head);
    return detail::write_8_digits(p, (uint32_t)(x % k8));
  }
  const auto head = (uint32_t)(x / k16);
  const uint64_t rest = x % k16;
  p = detail::write_short_decimal(p, head);
  p = detail::write_8_digits(p, (uint32_t)(rest / k8));
  return detail::write_8_digits(p, (uint32_t)(rest % k8));
}
// x in decimal with a '-' when negative; bound kU64Text + 1.
inline char* write_i64(char* p, int64_t x) {
  if (x >= 0) return write_u64(p, (uint64_t)x);
  *p++ = '-';
  return write_u64(p, 0 - (uint64_t)x);
}
// Decimal x left-padded with '0' to `width`; bound max(width, kU64Text).
inline char* write_u64_zero_pad(char* p, uint64_t x, uint64_t width) {
  if (width <= 8 && x < 100000000) {
    // The 8 digits with their leading zeros, cut to the width or to the
    // digits, whichever is longer: no digit count and no loop.
    const uint64_t lanes = detail::decimal_lanes((uint32_t)x);
    const int digits = lanes ? 8 - __builtin_ctzll(lanes) / 8 : 1;
    return detail::store_digits(p, lanes, 8 - (digits > (int)width ? digits : (int)width));
  }
  for (uint64_t k = (uint64_t)u64_digits(x); k < width; ++k) *p++ = '0';
  return write_u64(p, x);
}

// The most digits of a u64 in radix 2, 8 or 16.
inline constexpr __SIZE_TYPE__ u64_radix_digits(uint64_t radix) {
  return radix == 2 ? 64 : radix == 8 ? 22 : 16;
}

// Radix 2, 8, 10 or 16 with the prefixes 0b, 0o, (none), 0x when asked,
// digits in lower or upper case; bound kU64RadixText.
inline char* write_u64_radix(char* p, uint64_t x, int radix, bool with_prefix, bool upper = false) {
  if (radix == 10) return write_u64(p, x);
  if (with_prefix) {
    *p++ = '0';
    *p++ = radix == 2 ? 'b' : radix == 8 ? 'o' : 'x';
  }
  // A power-of-two radix: each digit is `shift` bits, the first from the
  // highest set bit.
  const int shift = radix == 2 ? 1 : radix == 8 ? 3 : 4;
  const int bits = 64 - __builtin_clzll(x | 1);
  const int digits = (bits + shift - 1) / shift;
  const char* alphabet = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  for (int k = digits - 1; k >= 0; --k) *p++ = alphabet[(x >> (k * shift)) & (uint64_t)(radix - 1)];
  return p;
}

// Pads the field [begin, end) to `width` bytes in place (the caller gave
// room for the width): right-aligned with spaces, or with '0' after a
// leading sign when zero padded. Returns the new end.
inline char* pad_field(char* begin, char* end, int width, bool zero_pad) {
  const __SIZE_TYPE__ size = (__SIZE_TYPE__)(end - begin);
  if (width <= 0 || size >= (__SIZE_TYPE__)width) return end;
  const __SIZE_TYPE__ fill = (__SIZE_TYPE__)width - size;
  const __SIZE_TYPE__ sign = zero_pad && size > 0 && (begin[0] == '-' || begin[0] == '+') ? 1 : 0;
  for (__SIZE_TYPE__ k = size; k > sign; --k) begin[k - 1 + fill] = begin[k - 1];
  for (__SIZE_TYPE__ k = 0; k < fill; ++k) begin[sign + k] = zero_pad ? '0' : ' ';
  return end + fill;
}

// combinations' compiled pattern (rt::Combinations builds it; see there),
// in plain structs so that the host and a GPU kernel read the same bytes.
struct CombinationDigit {
  uint32_t size;
  uint32_t offset;  // of the charset's characters in the alphabet
};
struct CombinationGroup {
  uint64_t base;                // the product of the sizes before; 0 past 2^64 - 1 (y is 0)
  uint64_t base_reciprocal;     // floor((2^64 - 1) / base)
  uint64_t modulus;             // the group's combinations, at most 2^32
  uint64_t modulus_reciprocal;  // floor((2^64 - 1) / modulus)
  uint64_t fraction;            // ceil(2^64 / modulus) (0 for 1)
  uint32_t first, count;        // its digits
};
struct CombinationCounts {
  uint64_t modulus;  // the number of combinations (saturated at 2^64 - 1)
  // ceil(2^128 / modulus) (0 for 1), high and low words, when the modulus
  // is at most 2^63; past that the digits come in groups.
  uint64_t fraction_high, fraction_low;
  uint64_t digits, groups;
};

// Digits [first, first + count) from f, the fraction r / M of their value r
// (below their combinations M) in units of 2^-64, above it by less than
// 2^64 / M (the fractions' spacing), most significant first: times the next
// digit's size s, the high word is that digit and the low word the fraction
// of the digits left, whose spacing and error both grew by s, so every digit
// is exact. One multiply a digit (Lemire, Kaser and Kurz's direct remainder,
// carried on digit by digit).
inline void write_combination_digits(char* p, uint64_t f, uint64_t first, uint64_t count,
                                     const CombinationDigit* digits, const char* alphabet) {
  for (uint64_t i = first + count; i-- > first;) {
    const CombinationDigit d = digits[i];
    uint64_t digit;
    f = pd_mul_wide(f, d.size, &digit);
    p[i] = alphabet[d.offset + digit];
  }
}

// floor(n / d) from floor(n * floor((2^64 - 1) / d) / 2^64), which is at
// most 2 below, and two corrections, as selects: whether one is needed
// depends on n's low bits, which a branch on a hash would mispredict.
inline uint64_t divide_by_reciprocal(uint64_t n, uint64_t d, uint64_t reciprocal) {
  uint64_t quotient = pd_mul_high(n, reciprocal);
  uint64_t remainder = n - quotient * d;
  for (int k = 0; k < 2; ++k) {
    const bool above = remainder >= d;
    remainder -= above ? d : 0;
    quotient += above;
  }
  return quotient;
}

// One character per digit (bound counts.digits): x modulo the number of
// combinations M, spelled as mixed-radix digits, the first charset least
// significant.
inline char* write_combinations(char* p, uint64_t x, const CombinationCounts& counts,
                                const CombinationDigit* digits, const CombinationGroup* groups,
                                const char* alphabet) {
  if (counts.groups == 0) {
    // M <= 2^63: with c = ceil(2^128 / M), c * x mod 2^128 is frac(x / M)
    // (which is (x mod M) / M) in units of 2^-128, above it by less than
    // x < 2^64 of them. Its high word plus one is then above the fraction
    // by less than 2 units of 2^-64, below the spacing 2^64 / M >= 2: no
    // division, and two multiplies.
    const uint64_t low = pd_mul_high(counts.fraction_low, x);
    write_combination_digits(p, counts.fraction_high * x + low + 1, 0, counts.digits, digits,
                             alphabet);
    return p + counts.digits;
  }
  // M > 2^63: groups of consecutive digits whose combinations m fit 32
  // bits, each spelled from its part y = (x / base) mod m of x as the
  // fraction ceil(2^64 / m) * y (above y / m by less than y < 2^64 / m
  // units), independent of each other. The parts are x mod M's (each base
  // times m divides M), except where M saturated at 2^64 - 1, where
  // x = 2^64 - 1 is 0.
  if (x == counts.modulus) x = 0;
  for (uint64_t k = 0; k < counts.groups; ++k) {
    const CombinationGroup& g = groups[k];
    const uint64_t above = g.base == 0 ? 0 : divide_by_reciprocal(x, g.base, g.base_reciprocal);
    const uint64_t y =
        above - divide_by_reciprocal(above, g.modulus, g.modulus_reciprocal) * g.modulus;
    write_combination_digits(p, g.fraction * y, g.first, g.count, digits, alphabet);
  }
  return p + counts.digits;
}

// Lowercase hex, two digits a byte (to_hex, and a bytes value's text), in
// room for 2 * n bytes.
inline char* write_hex_bytes(char* p, const unsigned char* bytes, uint64_t n) {
  const char* digits = "0123456789abcdef";
  for (uint64_t k = 0; k < n; ++k) {
    *p++ = digits[bytes[k] >> 4];
    *p++ = digits[bytes[k] & 15];
  }
  return p;
}

// RFC 4648's encodings: groups of `in_bytes` bytes as `out_chars`
// characters of `bits` bits each from `alphabet`, the last group padded with
// '=' (base64: 3, 4, 6; base32: 5, 8, 5), in room for
// encoded_group_chars(n, in_bytes, out_chars) bytes.
inline constexpr const char* kBase64Alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
inline constexpr const char* kBase32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

inline uint64_t encoded_group_chars(uint64_t n, uint64_t in_bytes, uint64_t out_chars) {
  return (n + in_bytes - 1) / in_bytes * out_chars;
}

inline char* write_groups(char* p, const unsigned char* bytes, uint64_t n, const char* alphabet,
                          int in_bytes, int out_chars, int bits) {
  for (uint64_t i = 0; i < n; i += (uint64_t)in_bytes) {
    const uint64_t here = n - i < (uint64_t)in_bytes ? n - i : (uint64_t)in_bytes;
    uint64_t group = 0;
    for (int k = 0; k < in_bytes; ++k) group = group << 8 | ((uint64_t)k < here ? bytes[i + k] : 0);
    const uint64_t used = (here * 8 + (uint64_t)bits - 1) / (uint64_t)bits;  // data characters
    for (int c = 0; c < out_chars; ++c) {
      const int shift = in_bytes * 8 - bits * (c + 1);
      *p++ = (uint64_t)c < used ? alphabet[(group >> shift) & ((1u << bits) - 1)] : '=';
    }
  }
  return p;
}

}  // namespace polyrt::rt
