// The shortest decimal that reads back to a double: the digits every f64
// rendering of polyrt starts from (the row writers, Display, Debug, JSON).
// Freestanding, like text_writers.h: GPU kernels write the same text.
// Schubfach (R. Giulietti, "The Schubfach way to render doubles", 2020):
// three 128x64-bit products against one table of powers of ten, no loop
// over digits and no big integers (bench/number_text_bench.cpp compares it
// with libstdc++'s std::to_chars), and the same digits: the fewest that
// round-trip, the one nearest the double among those, ties to an even last
// digit.
#pragma once

#include "pd_rt.h"

namespace polyrt::rt {

// A finite, nonzero, positive double x as digits * 10^exponent, digits
// without trailing zeros (1..17 digits).
struct DecimalDigits {
  uint64_t digits = 0;
  int exponent = 0;
};
DecimalDigits shortest_decimal(double x);

// std::to_chars(p, end, x)'s text of a finite x, fixed or scientific, whichever
// is shorter (fixed on a tie): "0.1", "600", "1e+22", "1.5e-07", "-0". Bound
// kF64ShortestText.
char* write_shortest_finite(char* p, double x);
// std::to_chars(p, end, x)'s text of a finite f32 ("0.1" for the f32
// nearest 0.1): the same steps over the f32's own rounding interval.
char* write_f32_shortest_finite(char* p, float x);

// Shortest round-trip digits and decimal exponent of a finite nonzero value:
// x = 0.DIGITS * 10^point.
struct ShortestDigits {
  char digits[24];
  int count = 0;
  int point = 0;
  bool negative = false;
};
ShortestDigits shortest_digits(double x);
// The fewest digits that read back to the f32 x.
ShortestDigits f32_shortest_digits(float x);

// The digits without an exponent ("0.001", "1500", with ".0" appended to an
// integral value when `force_fraction`).
char* write_plain_decimal(char* p, const ShortestDigits& d, bool force_fraction);
// Rust's Display of a finite nonzero value from its digits: never an exponent.
char* write_display_digits(char* p, const ShortestDigits& d);
// Rust's Debug of a finite nonzero value of magnitude `magnitude`: plain
// when smallest_plain <= magnitude < 1e16 (with a fraction), else "1.5e-7".
char* write_debug_digits(char* p, double magnitude, const ShortestDigits& d, double smallest_plain);
// "NaN", "inf" or "-inf" for those values, else null.
const char* special_f64(double x);
// Writes a NUL-terminated `text` (without its NUL).
char* write_literal(char* p, const char* text);

// An f64's Display (str_concat, `as str`) and Debug (printf's {}: exponent
// form below `smallest_plain`, 1e-4 for Debug and 1e-5 for serde_json's
// JSON, and from 1e16), NaN, inf and -inf included. Bounds in text.hpp.
char* write_f64_display(char* p, double x);
char* write_f64_debug(char* p, double x, double smallest_plain = 1e-4);
// The same of an f32 (x holds one exactly), from its own shortest digits
// ("0.1" for the f32 nearest 0.1). Bounds in text.hpp.
char* write_f32_display(char* p, double x);
char* write_f32_debug(char* p, double x, double smallest_plain = 1e-4);
// A JSON value's text of an f64 (to_json, json_with, an f32 widened): a finite
// value as serde_json writes its number (ryu's form, Debug's with the exponent
// form below 1e-5), NaN and +-inf as null, which JSON has for no number.
inline char* write_f64_json(char* p, double x) {
  if (x - x != 0.0) return write_literal(p, "null");
  return write_f64_debug(p, x, 1e-5);
}

// The magnitude of a finite binary float as c * 2^q, and whether its
// predecessor is closer than its successor (c a power of two above the
// smallest exponent): what Schubfach and the fixed decimals
// (fixed_decimal.h) start from.
struct BinaryValue {
  uint64_t c = 0;
  int q = 0;
  bool lower_closer = false;
  int fraction_bits = 0;  // of its format: 52, or 23 for an f32
};

inline BinaryValue binary_of(double x) {
  const uint64_t bits = __builtin_bit_cast(uint64_t, x);
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  const int biased = (int)((bits >> 52) & 0x7ff);
  return {biased == 0 ? fraction : fraction | (uint64_t{1} << 52),
          biased == 0 ? -1074 : biased - 1075, fraction == 0 && biased > 1, 52};
}

inline BinaryValue binary_of(float x) {
  const uint32_t bits = __builtin_bit_cast(uint32_t, x);
  const uint32_t fraction = bits & ((uint32_t{1} << 23) - 1);
  const int biased = (int)((bits >> 23) & 0xff);
  return {biased == 0 ? fraction : fraction | (uint32_t{1} << 23),
          biased == 0 ? -149 : biased - 150, fraction == 0 && biased > 1, 23};
}

// `count` limbs (least significant 32 bits first) divided by d in place;
// returns the remainder. 64-bit steps only: a 128-bit division is a libgcc
// call (__udivti3) that neither a GPU kernel nor a JIT-compiled host twin in
// a process without libgcc can make.
inline uint32_t divide_limbs(uint32_t* limbs, int count, uint32_t d) {
  uint64_t remainder = 0;
  for (int i = count - 1; i >= 0; --i) {
    const uint64_t current = remainder << 32 | limbs[i];
    limbs[i] = (uint32_t)(current / d);
    remainder = current % d;
  }
  return (uint32_t)remainder;
}

}  // namespace polyrt::rt
