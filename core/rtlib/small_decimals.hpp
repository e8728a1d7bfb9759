// Decimal writers for small numbers on the host, from a table of digit
// pairs: a day, a month, a year or two decimals of a price is a load or two
// from the table instead of the general writers' multiplies (the SWAR digit
// lanes of text_writers.h, which the GPU keeps: a table would be one more
// global there). printf's {} and {:02} of them and fixed decimals
// (format_f64, {:.2}) were a third of a lineitem-shaped table's text.
// Bytes are exactly the general writers'.
#pragma once

#include <cstdint>
#include <cstring>

#include "fixed_decimal.h"
#include "text_writers.h"

namespace polyrt::rt {

// "00" to "99", two characters each.
inline constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// x in decimal, as write_u64 writes it. Below 10,000 it may store one byte
// past the digits (room the bound kU64Text leaves).
inline char* write_decimal(char* p, uint64_t x) {
  if (x >= 10000) return write_u64(p, x);
  const uint64_t high = x / 100, low = x % 100;
  if (high != 0) {
    const int skip = high < 10;  // no leading zero
    std::memcpy(p, kDigitPairs + 2 * high + skip, 2);
    p += 2 - skip;
    std::memcpy(p, kDigitPairs + 2 * low, 2);
    return p + 2;
  }
  const int skip = low < 10;
  std::memcpy(p, kDigitPairs + 2 * low + skip, 2);
  return p + 2 - skip;
}

// x zero-padded to 2 digits, as write_u64_zero_pad(p, x, 2) writes it.
inline char* write_two_digits(char* p, uint64_t x) {
  if (x >= 100) return write_u64_zero_pad(p, x, 2);
  std::memcpy(p, kDigitPairs + 2 * x, 2);
  return p + 2;
}

// n / 10^precision with `precision` decimals (precision <= 9): the text
// fixed_detail::place_point makes of n's digits ("0.05" for 5 and 2).
inline char* write_scaled_fixed(char* p, uint64_t n, int precision) {
  if (precision == 0) return write_decimal(p, n);
  // Two decimals (prices, rates) divide by a constant.
  const uint64_t whole = precision == 2 ? n / 100 : n / kPowersOf10[precision];
  const uint64_t fraction = n - whole * kPowersOf10[precision];
  p = write_decimal(p, whole);
  *p++ = '.';
  return precision == 2 ? write_two_digits(p, fraction)
                        : write_u64_zero_pad(p, fraction, (uint64_t)precision);
}

// write_f64_fixed's common case, inline so that a caller with a constant
// precision gets it folded in: a finite value whose scaled magnitude fits
// 64 bits, at most 9 decimals. The text's end, or null for the rest.
inline char* write_f64_fixed_common(char* p, double x, int precision) {
  uint64_t scaled = 0;
  if (!__builtin_isfinite(x) || !fixed_detail::scaled_magnitude(x, precision, scaled)) {
    return nullptr;
  }
  if (__builtin_signbit(x)) *p++ = '-';
  return write_scaled_fixed(p, scaled, precision);
}

}  // namespace polyrt::rt
