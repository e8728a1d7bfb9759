#include "text.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include "fixed_decimal.h"
#include "rtlib.h"
#include "shortest_double.hpp"
#include "small_decimals.hpp"

namespace polyrt::rt {
namespace {

template <size_t Bound, typename Write>
std::string rendered(const Write& write) {
  char buf[Bound];
  return std::string(buf, write(buf));
}

}  // namespace

char* write_f64_shortest(char* p, double x) {
  if (const char* special = special_f64(x)) return write_literal(p, special);
  return write_shortest_finite(p, x);
}

char* write_f32_shortest(char* p, double x) {
  if (const char* special = special_f64(x)) return write_literal(p, special);
  return write_f32_shortest_finite(p, (float)x);
}

char* write_f64_fixed(char* p, double x, int precision) {
  // The common case from the digit pairs; the rest as a GPU writes it.
  if (char* end = write_f64_fixed_common(p, x, precision)) return end;
  uint32_t limbs[fixed_decimal_limbs(kMaxFixedDecimals)];
  return write_fixed_decimal(p, x, precision, limbs);
}

char* write_timestamp(char* p, uint64_t epoch_ms) {
  uint64_t c[7];
  pd_date_components(epoch_ms, c);
  p = write_u64_zero_pad(p, c[0], 4);
  static constexpr char kSeparators[] = "--T::.";
  for (int k = 1; k < 7; ++k) {
    *p++ = kSeparators[k - 1];
    p = write_u64_zero_pad(p, c[k], k == 6 ? 3 : 2);
  }
  *p++ = 'Z';
  return p;
}

std::string f64_shortest(double x) {
  return rendered<kF64ShortestText>([&](char* p) { return write_f64_shortest(p, x); });
}

std::string f64_display(double x) {
  return rendered<kF64DisplayText>([&](char* p) { return write_f64_display(p, x); });
}

std::string f64_debug(double x) {
  return rendered<kF64DebugText>([&](char* p) { return write_f64_debug(p, x); });
}

std::string f32_debug(double x) {
  return rendered<kF64DebugText>([&](char* p) { return write_f32_debug(p, x); });
}

std::string f32_shortest(double x) {
  return rendered<kF64ShortestText>([&](char* p) { return write_f32_shortest(p, x); });
}

std::string f64_fixed(double x, int precision) {
  std::string out(f64_fixed_bound(precision), '\0');
  out.resize((size_t)(write_f64_fixed(out.data(), x, precision) - out.data()));
  return out;
}

std::string u64_radix(uint64_t x, int radix, bool with_prefix) {
  return rendered<kU64RadixText>(
      [&](char* p) { return write_u64_radix(p, x, radix, with_prefix); });
}

std::string u64_zero_pad(uint64_t x, uint64_t width) {
  std::string out(std::max<uint64_t>(width, kU64Text), '\0');
  out.resize((size_t)(write_u64_zero_pad(out.data(), x, width) - out.data()));
  return out;
}

namespace {

// A placeholder's text between its braces into `segment` ("" or ":SPEC":
// zero padding, width, precision, radix, or with `escapes` a text escape
// !q, !s, !c); false with `error` for anything else.
bool parse_placeholder(std::string_view spec, FormatSegment& segment, std::string& error,
                       bool escapes) {
  if (spec.empty()) return true;
  if (spec[0] != ':') {
    error = "placeholder '{" + std::string(spec) +
            "}' is not supported: placeholders take the next argument, write '{}' or "
            "'{:SPEC}'";
    return false;
  }
  spec.remove_prefix(1);
  if (escapes && spec.size() == 2 && spec[0] == '!' && std::strchr("qsc", spec[1])) {
    segment.escape = spec[1] == 'q'   ? TextEscape::JsonQuoted
                     : spec[1] == 's' ? TextEscape::JsonInside
                                      : TextEscape::Csv;
    spec = {};
  }
  size_t k = 0;
  if (k < spec.size() && spec[k] == '0') {
    segment.zero_pad = true;
    ++k;
  }
  while (k < spec.size() && spec[k] >= '0' && spec[k] <= '9') {
    segment.width = segment.width * 10 + (spec[k++] - '0');
    if (segment.width > 4096) break;
  }
  if (k < spec.size() && spec[k] == '.') {
    ++k;
    segment.precision = 0;
    const size_t start = k;
    while (k < spec.size() && spec[k] >= '0' && spec[k] <= '9') {
      segment.precision = segment.precision * 10 + (spec[k++] - '0');
      if (segment.precision > kMaxFixedDecimals) break;
    }
    if (k == start) {
      error = "precision in '{:" + std::string(spec) + "}' needs digits after '.'";
      return false;
    }
  }
  if (k < spec.size() && std::strchr("xXbo", spec[k]) != nullptr) segment.radix = spec[k++];
  if (k != spec.size() || segment.width > 4096 || segment.precision > kMaxFixedDecimals) {
    error = "unsupported format spec '{:" + std::string(spec) +
            "}' (valid: {}, {:05}, {:8}, {:.2}, {:x}, {:X}, {:b}, {:o})";
    return false;
  }
  return true;
}

}  // namespace

bool parse_format(std::string_view format, std::vector<FormatSegment>& segments, std::string& error,
                  bool escapes) {
  segments.clear();
  FormatSegment current;
  for (size_t i = 0; i < format.size(); ++i) {
    const char c = format[i];
    if (c == '{' && i + 1 < format.size() && format[i + 1] == '{') {
      current.literal.push_back('{');
      ++i;
    } else if (c == '}' && i + 1 < format.size() && format[i + 1] == '}') {
      current.literal.push_back('}');
      ++i;
    } else if (c == '{') {
      const size_t close = format.find('}', i);
      if (close == std::string_view::npos) {
        error = "unclosed '{' at offset " + std::to_string(i) + " (write '{{' for a literal brace)";
        return false;
      }
      current.placeholder = true;
      if (!parse_placeholder(format.substr(i + 1, close - i - 1), current, error, escapes)) {
        return false;
      }
      segments.push_back(current);
      current = FormatSegment();
      i = close;
    } else if (c == '}') {
      error = "unmatched '}' at offset " + std::to_string(i) + " (write '}}' for a literal brace)";
      return false;
    } else {
      current.literal.push_back(c);
    }
  }
  segments.push_back(current);
  return true;
}

std::string format_text(const std::vector<FormatSegment>& segments) {
  std::string out;
  for (const FormatSegment& seg : segments) {
    for (char c : seg.literal) {
      out.push_back(c);
      if (c == '{' || c == '}') out.push_back(c);
    }
    if (!seg.placeholder) continue;
    out += '{';
    const size_t opened = out.size();
    out += ':';
    if (seg.escape != TextEscape::None) {
      out += '!';
      out += seg.escape == TextEscape::JsonQuoted   ? 'q'
             : seg.escape == TextEscape::JsonInside ? 's'
                                                    : 'c';
    }
    if (seg.zero_pad) out += '0';
    if (seg.width) out += std::to_string(seg.width);
    if (seg.precision >= 0) out += "." + std::to_string(seg.precision);
    if (seg.radix) out += seg.radix;
    if (out.size() == opened + 1) out.resize(opened);  // no spec: {}
    out += '}';
  }
  return out;
}

size_t placeholder_count(const std::vector<FormatSegment>& segments) {
  size_t n = 0;
  for (const auto& s : segments) n += s.placeholder ? 1 : 0;
  return n;
}

namespace {

// The pattern's pieces as charsets ("A-Z" spelled out, a literal as itself).
bool parse_charsets(std::string_view pattern, std::vector<std::string>& charsets,
                    std::string& error) {
  charsets.clear();
  size_t start = 0;
  while (start <= pattern.size()) {
    size_t end = pattern.find(';', start);
    if (end == std::string_view::npos) end = pattern.size();
    std::string_view piece = pattern.substr(start, end - start);
    if (piece.empty()) {
      error = "empty piece in combinations pattern \"" + std::string(pattern) +
              "\" (pieces are separated by ';', e.g. \"A-Z;0-9\")";
      return false;
    }
    std::string set;
    for (size_t i = 0; i < piece.size(); ++i) {
      if (i + 2 < piece.size() && piece[i + 1] == '-') {
        const char lo = piece[i], hi = piece[i + 2];
        if (lo > hi) {
          error = "range '" + std::string(piece.substr(i, 3)) + "' runs backwards";
          return false;
        }
        for (int ch = lo; ch <= hi; ++ch) set.push_back((char)ch);
        i += 2;
      } else {
        set.push_back(piece[i]);
      }
    }
    charsets.push_back(set);
    start = end + 1;
  }
  return true;
}

// The digits and, past 2^63 combinations, their groups: consecutive
// charsets while their combinations fit 32 bits.
void plan_digits(Combinations& combinations) {
  const std::vector<std::string>& charsets = combinations.charsets;
  combinations.digits.clear();
  combinations.groups.clear();
  combinations.alphabet.clear();
  const bool grouped = combinations.modulus > (1ULL << 63);
  // The product of the sizes before the group, kept from growing once it
  // passes 2^64 - 1 (every later group's part of x is then 0).
  __extension__ unsigned __int128 base = 1;
  uint64_t place = 1;  // the product of the sizes before, in the group
  for (size_t i = 0; i < charsets.size(); ++i) {
    const uint64_t size = charsets[i].size();
    combinations.digits.push_back({(uint32_t)size, (uint32_t)combinations.alphabet.size()});
    combinations.alphabet += charsets[i];
    if (!grouped) continue;
    if (i == 0 || place * size > (1ULL << 32)) {
      if (i > 0 && base <= ~0ULL) base *= place;
      const uint64_t b = base > ~0ULL ? 0 : (uint64_t)base;
      combinations.groups.push_back({b, b ? ~0ULL / b : 0, 1, 0, 0, (uint32_t)i, 0});
      place = 1;
    }
    place *= size;  // at most 2^32
    CombinationGroup& g = combinations.groups.back();
    g.modulus = place;
    g.modulus_reciprocal = ~0ULL / place;
    g.fraction = place == 1 ? 0 : ~0ULL / place + 1;
    ++g.count;
  }
}

}  // namespace

bool parse_combinations(std::string_view pattern, Combinations& combinations, std::string& error) {
  if (!parse_charsets(pattern, combinations.charsets, error)) return false;
  __extension__ typedef unsigned __int128 u128;
  u128 modulus = 1;
  for (const auto& set : combinations.charsets) {
    modulus *= set.size();
    if (modulus > ~0ULL) {  // saturates, as polydat's saturating_mul does
      modulus = ~0ULL;
      break;
    }
  }
  combinations.modulus = (uint64_t)modulus;
  // ceil(2^128 / modulus): floor((2^128 - 1) / modulus) + 1 (0 for 1).
  const u128 fraction = ~(u128)0 / combinations.modulus + 1;
  combinations.fraction_high = (uint64_t)(fraction >> 64);
  combinations.fraction_low = (uint64_t)fraction;
  plan_digits(combinations);
  return true;
}

char* write_combinations(char* p, uint64_t x, const Combinations& combinations) {
  return write_combinations(p, x, combinations.counts(), combinations.digits.data(),
                            combinations.groups.data(), combinations.alphabet.data());
}

}  // namespace polyrt::rt
