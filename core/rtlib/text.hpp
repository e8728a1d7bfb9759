// Host-only rtlib: text rendering and formatting nodes. These use the C++
// standard library and never run in native or GPU code (they are host steps).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace polyrt::rt {

// Shortest decimal text that reads back to the same double ("0.1", "1e+21").
// Used by the row writers (CSV, TSV, JSONL) and `polyrt eval`.
std::string f64_shortest(double x);
// Rust Display form: shortest round-trip digits, never an exponent, integral
// values without ".0"; NaN, inf, -inf. Used by str_concat and `as str`.
std::string f64_display(double x);
// Rust Debug form: like Display but with at least one fractional digit when
// 1e-4 <= |x| < 1e16, and exponent form ("1e16", "1.5e-7") outside that range.
// Used by printf and string interpolation.
std::string f64_debug(double x);
// Exact decimal rounding of the binary value, half to even (glibc %.*f).
std::string f64_fixed(double x, int precision);

// Radix 2, 8, 10 or 16 with the prefixes 0b, 0o, (none), 0x.
std::string u64_radix(uint64_t x, int radix, bool with_prefix);
std::string u64_zero_pad(uint64_t x, uint64_t width);

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
// Applies width / zero padding to an already rendered value.
std::string pad_field(std::string text, const FormatSegment& spec);

// combinations: the pattern split on ';', each piece a charset ("A-Z", "0-9",
// "a-f") or a single literal character.
bool parse_combinations(std::string_view pattern, std::vector<std::string>& charsets,
                        std::string& error);
std::string render_combinations(uint64_t x, const std::vector<std::string>& charsets);

}  // namespace polyrt::rt
