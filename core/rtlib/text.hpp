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

#include "rtlib/shortest_double.hpp"
#include "rtlib/text_writers.h"

namespace polyrt::rt {

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
// Rust's Display form of an f64 (write_f64_display, shortest_double.hpp):
// shortest round-trip digits, never an exponent, integral values without
// ".0"; NaN, inf, -inf; used by str_concat and `as str`, bound
// kF64DisplayText. Rust's Debug form (write_f64_debug): like Display but
// with at least one fractional digit when 1e-4 <= |x| < 1e16, and exponent
// form ("1e16", "1.5e-7") outside that range; used by printf and string
// interpolation, bound kF64DebugText. GPU kernels write both too.

// The shortest form of an f32, which x holds exactly: the fewest digits that
// read back to that f32 ("0.1" for the f32 nearest 0.1); its Display and
// Debug forms are shortest_double.hpp's (write_f32_display, bound
// kF32DisplayText; write_f32_debug, bound kF64DebugText).
char* write_f32_shortest(char* p, double x);
inline constexpr size_t kF32DisplayText = 64;  // "-0." + 44 zeros + 9 digits, and room
// Exact decimal rounding of the binary value, half to even (glibc %.*f).
char* write_f64_fixed(char* p, double x, int precision);

// Epoch milliseconds as "YYYY-MM-DDThh:mm:ss.mmmZ" (UTC; years past 9999
// take more digits): polydat's to_timestamp.
inline constexpr size_t kTimestampText = 40;
char* write_timestamp(char* p, uint64_t epoch_ms);

// The same renderings as strings, for the per-value paths.
std::string f64_shortest(double x);
std::string f64_display(double x);
std::string f64_debug(double x);
std::string f32_debug(double x);  // x holds an f32 exactly
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
// How a placeholder escapes its text: a tile's hole (expand/tiles.hpp) as a
// JSON string, the inside of one, or a CSV field, by polydat's tile rules
// (row_fields.h: put_json_escaped without \b \f letters, put_csv_text for
// , " and newline). Only the compiler writes these, as the internal specs
// {:!q} {:!s} {:!c} of a tile's format.
enum class TextEscape : uint8_t { None, JsonQuoted, JsonInside, Csv };

struct FormatSegment {
  std::string literal;  // text before the placeholder (or the tail)
  bool placeholder = false;
  TextEscape escape = TextEscape::None;
  bool zero_pad = false;
  int width = 0;
  int precision = -1;
  char radix = 0;  // 0 (decimal), 'x', 'X', 'b', 'o'

  // The radix as a number: 2, 8, 16, or 10 for decimal.
  int base() const { return radix == 'b' ? 2 : radix == 'o' ? 8 : radix ? 16 : 10; }
};
// Returns false and sets `error` for a malformed format (unbalanced braces,
// an unknown spec such as "{:q}"). `escapes`: the internal escape specs
// are accepted too.
bool parse_format(std::string_view format, std::vector<FormatSegment>& segments, std::string& error,
                  bool escapes = false);
// The format text of segments, which parse_format reads back to them.
std::string format_text(const std::vector<FormatSegment>& segments);
// The most bytes an escape makes of n bytes of text.
inline size_t escaped_bound(TextEscape escape, size_t n) {
  return escape == TextEscape::None ? n : escape == TextEscape::Csv ? 2 * n + 2 : 6 * n + 2;
}
size_t placeholder_count(const std::vector<FormatSegment>& segments);

// combinations: the pattern split on ';', each piece a charset ("A-Z", "0-9",
// "a-f") or a single literal character; parsed once at compile time.
struct Combinations {
  std::vector<std::string> charsets;
  // The number of combinations; 2^64 - 1 when there are more (polydat's
  // saturating product).
  uint64_t modulus = 1;
  // ceil(2^128 / modulus), its high and low words (see write_combinations).
  uint64_t fraction_high = 0, fraction_low = 0;
  // Per charset, its size and characters' place in the alphabet, in one
  // array so that the writer's loop loads each once (its character stores
  // could alias anything else it reads).
  std::vector<CombinationDigit> digits;
  // Past 2^63 combinations, groups of consecutive charsets whose
  // combinations fit 32 bits, each spelled from its part of x (see
  // write_combinations).
  std::vector<CombinationGroup> groups;
  std::string alphabet;  // every charset, back to back

  CombinationCounts counts() const {
    return {modulus, fraction_high, fraction_low, digits.size(), groups.size()};
  }
};
bool parse_combinations(std::string_view pattern, Combinations& combinations, std::string& error);
// One character per charset; bound combinations.charsets.size().
char* write_combinations(char* p, uint64_t x, const Combinations& combinations);

}  // namespace polyrt::rt
