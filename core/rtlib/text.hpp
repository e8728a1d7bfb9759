// Host-only rtlib: text rendering and formatting nodes. These use the C++
// standard library and never run in native or GPU code (they are host steps).
//
// Each rendering is one writer, `char* write_X(char* p, ...)`, which writes at
// p and returns the end of what it wrote; the caller provides room for the
// bound named beside it. The per-state tiers (one std::string per value) and
// the batch tier's columnar host steps (straight into a chunk's string
// column) call the same writers, so both produce the same bytes.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace polyrt::rt {

inline constexpr size_t kU64Text = 20;       // the longest u64 in decimal
inline constexpr size_t kU64RadixText = 66;  // 64 binary digits and a prefix
// "-2.2250738585072014e-308" is 24 bytes; the writer moves 16 bytes at a time.
inline constexpr size_t kF64ShortestText = 40;
inline constexpr size_t kF64DebugText = 32;     // never longer than the shortest form + ".0"
inline constexpr size_t kF64DisplayText = 350;  // "-0." + 323 zeros + 17 digits, and room
// Room for f64 text with `precision` fixed decimals: a sign, 309 integral
// digits, the point and the decimals.
inline size_t f64_fixed_bound(int precision) {
  return 312 + (size_t)precision;
}

// Shortest decimal text that reads back to the same double ("0.1", "1e+21").
// Used by the row writers (CSV, TSV, JSONL) and `polyrt eval`.
char* write_f64_shortest(char* p, double x);
// Rust Display form: shortest round-trip digits, never an exponent, integral
// values without ".0"; NaN, inf, -inf. Used by str_concat and `as str`.
char* write_f64_display(char* p, double x);
// Rust Debug form: like Display but with at least one fractional digit when
// 1e-4 <= |x| < 1e16, and exponent form ("1e16", "1.5e-7") outside that range.
// Used by printf and string interpolation.
char* write_f64_debug(char* p, double x);
// The same three forms of an f32, which x holds exactly: the fewest digits
// that read back to that f32 ("0.1" for the f32 nearest 0.1).
char* write_f32_shortest(char* p, double x);
char* write_f32_display(char* p, double x);
char* write_f32_debug(char* p, double x);
// A finite f64 as serde_json writes a JSON number (ryu's form): like Debug,
// with the exponent form below 1e-5 rather than 1e-4.
char* write_f64_json(char* p, double x);
// Exact decimal rounding of the binary value, half to even (glibc %.*f).
char* write_f64_fixed(char* p, double x, int precision);

// The number of decimal digits of x (1 for 0).
inline int u64_digits(uint64_t x) {
  static constexpr uint64_t kPowers[20] = {1ULL,
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
  // log10(2) ~ 1233 / 4096: the bit width gives the digit count or one more.
  const int guess = ((64 - __builtin_clzll(x | 1)) * 1233) >> 12;
  return guess + 1 - ((x | 1) < kPowers[guess]);
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
  if constexpr (std::endian::native == std::endian::big) lanes = __builtin_bswap64(lanes);
  std::memcpy(p, &lanes, 8);
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
// Radix 2, 8, 10 or 16, digits in lower or upper case, with the prefixes 0b,
// 0o, (none), 0x when asked.
char* write_u64_radix(char* p, uint64_t x, int radix, bool with_prefix, bool upper = false);
// Decimal x left-padded with '0' to `width`; bound max(width, kU64Text).
inline char* write_u64_zero_pad(char* p, uint64_t x, uint64_t width) {
  if (width <= 8 && x < 100000000) {
    // The 8 digits with their leading zeros, cut to the width or to the
    // digits, whichever is longer: no digit count and no loop.
    const uint64_t lanes = detail::decimal_lanes((uint32_t)x);
    const int digits = lanes ? 8 - __builtin_ctzll(lanes) / 8 : 1;
    return detail::store_digits(p, lanes, 8 - std::max(digits, (int)width));
  }
  for (uint64_t k = (uint64_t)u64_digits(x); k < width; ++k) *p++ = '0';
  return write_u64(p, x);
}

// Epoch milliseconds as "YYYY-MM-DDThh:mm:ss.mmmZ" (UTC; years past 9999
// take more digits): polydat's to_timestamp.
inline constexpr size_t kTimestampText = 40;
char* write_timestamp(char* p, uint64_t epoch_ms);

// The same renderings as strings, for the per-value paths.
std::string f64_shortest(double x);
std::string f64_display(double x);
std::string f32_shortest(double x);
std::string f64_fixed(double x, int precision);
std::string u64_radix(uint64_t x, int radix, bool with_prefix);
std::string u64_zero_pad(uint64_t x, uint64_t width);

// Renders into a growing std::string: `write(p, ensure)` writes at p, calling
// `char* ensure(char* p, size_t n)` for room for n more bytes after p (which
// may move the buffer), and returns its end. The same writers fill a chunk's
// string column through StringColumn::ensure.
template <typename Write>
std::string render_text(const Write& write) {
  std::string out(64, '\0');
  const auto ensure = [&out](char* p, size_t n) {
    const size_t used = (size_t)(p - out.data());
    if (used + n > out.size()) out.resize(std::max(2 * out.size(), used + n));
    return out.data() + used;
  };
  char* end = write(out.data(), ensure);
  out.resize((size_t)(end - out.data()));
  return out;
}

// printf formats: parsed once at compile time, rendered per evaluation.
struct FormatSegment {
  std::string literal;  // text before the placeholder (or the tail)
  bool placeholder = false;
  bool zero_pad = false;
  int width = 0;
  int precision = -1;
  char radix = 0;  // 0 (decimal), 'x', 'X', 'b', 'o'
};
// Returns false and sets `error` for a malformed format (unbalanced braces,
// an unknown spec such as "{:q}").
bool parse_format(std::string_view format, std::vector<FormatSegment>& segments,
                  std::string& error);
size_t placeholder_count(const std::vector<FormatSegment>& segments);
// Pads the field written at [begin, end) to spec.width, in place (the caller
// provided room for the width): right-aligned with spaces, or with '0' after
// a leading sign when zero padded. Returns the new end.
char* pad_field(char* begin, char* end, const FormatSegment& spec);

// combinations: the pattern split on ';', each piece a charset ("A-Z", "0-9",
// "a-f") or a single literal character; parsed once at compile time.
struct Combinations {
  std::vector<std::string> charsets;
  // The number of combinations; 2^64 - 1 when there are more (polydat's
  // saturating product).
  uint64_t modulus = 1;
  // floor((2^64 - 1) / modulus): x mod modulus from a multiply and at most
  // two corrections, not a division.
  uint64_t modulus_reciprocal = ~0ULL;
  // Per charset, in one array so that the writer's loop loads each once
  // (its character stores could alias anything else it reads): each
  // character is (y / place) mod size of a 32-bit y from multiplies instead
  // of divisions (Lemire, Kaser and Kurz, "Faster remainder by direct
  // computation", 2019: exact for 32-bit dividends and divisors),
  // independent of the others. y is x when the modulus fits 32 bits; else
  // the charsets form groups whose combinations fit 32 bits, y is the
  // group's part of x, and place counts from the group's first charset.
  struct Digit {
    uint64_t place_reciprocal;  // ceil(2^64 / place), place the product of the sizes before; 0 for
                                // place 1
    uint64_t reciprocal;        // ceil(2^64 / size); 0 for a single character
    uint32_t size;
    uint32_t offset;  // of the charset's characters in `alphabet`
  };
  std::vector<Digit> digits;
  // When the modulus passes 32 bits: groups of consecutive charsets, each
  // with y = (x / base) mod (the group's combinations), from multiplies by
  // floor((2^64 - 1) / d) that are at most 2 below and corrections, not
  // divisions. The groups are independent: a row of "a-z" words no longer
  // waits on 26 dependent steps.
  struct Group {
    uint64_t base;                // the product of the sizes before; 0 past 2^64 - 1 (y is 0)
    uint64_t base_reciprocal;     // floor((2^64 - 1) / base)
    uint64_t modulus;             // the group's combinations, at most 2^32
    uint64_t modulus_reciprocal;  // floor((2^64 - 1) / modulus)
    uint32_t first, count;        // its digits
  };
  std::vector<Group> groups;
  std::string alphabet;  // every charset, back to back
};
bool parse_combinations(std::string_view pattern, Combinations& combinations, std::string& error);
// One character per charset; bound combinations.charsets.size().
char* write_combinations(char* p, uint64_t x, const Combinations& combinations);

}  // namespace polyrt::rt
