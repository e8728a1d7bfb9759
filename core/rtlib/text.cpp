#include "text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace polyrt::rt {
namespace {

bool special_f64(double x, std::string& out) {
  if (x != x) {
    out = "NaN";
    return true;
  }
  if (x == __builtin_inf()) {
    out = "inf";
    return true;
  }
  if (x == -__builtin_inf()) {
    out = "-inf";
    return true;
  }
  return false;
}

// Shortest round-trip digits and decimal exponent: x = 0.DIGITS * 10^point.
void shortest_digits(double x, std::string& digits, int& point, bool& negative) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string s(buf, res.ptr);
  negative = s[0] == '-';
  if (negative) s.erase(0, 1);
  const size_t e = s.find('e');
  const int exponent = std::stoi(s.substr(e + 1));
  digits.clear();
  for (size_t i = 0; i < e; ++i) {
    if (s[i] != '.') digits.push_back(s[i]);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  point = exponent + 1;
}

std::string plain_decimal(const std::string& digits, int point, bool force_fraction) {
  std::string out;
  if (point <= 0) {
    out = "0." + std::string(-point, '0') + digits;
  } else if ((size_t)point >= digits.size()) {
    out = digits + std::string(point - digits.size(), '0');
    if (force_fraction) out += ".0";
  } else {
    out = digits.substr(0, point) + "." + digits.substr(point);
  }
  return out;
}

}  // namespace

std::string f64_shortest(double x) {
  std::string special;
  if (special_f64(x, special)) return special;
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

std::string f64_display(double x) {
  std::string out;
  if (special_f64(x, out)) return out;
  if (x == 0.0) return std::signbit(x) ? "-0" : "0";
  std::string digits;
  int point;
  bool negative;
  shortest_digits(x, digits, point, negative);
  return (negative ? "-" : "") + plain_decimal(digits, point, false);
}

std::string f64_debug(double x) {
  std::string out;
  if (special_f64(x, out)) return out;
  if (x == 0.0) return std::signbit(x) ? "-0.0" : "0.0";
  std::string digits;
  int point;
  bool negative;
  shortest_digits(x, digits, point, negative);
  const double a = std::fabs(x);
  std::string body;
  if (a >= 1e-4 && a < 1e16) {
    body = plain_decimal(digits, point, true);
  } else {
    body = digits.substr(0, 1);
    if (digits.size() > 1) body += "." + digits.substr(1);
    body += "e" + std::to_string(point - 1);
  }
  return (negative ? "-" : "") + body;
}

std::string f64_fixed(double x, int precision) {
  std::string out;
  if (special_f64(x, out)) return out;
  std::vector<char> buf(400 + precision);
  auto res =
      std::to_chars(buf.data(), buf.data() + buf.size(), x, std::chars_format::fixed, precision);
  return std::string(buf.data(), res.ptr);
}

std::string u64_radix(uint64_t x, int radix, bool with_prefix) {
  char buf[80];
  auto res = std::to_chars(buf, buf + sizeof buf, x, radix);
  std::string digits(buf, res.ptr);
  if (!with_prefix) return digits;
  switch (radix) {
    case 2:
      return "0b" + digits;
    case 8:
      return "0o" + digits;
    case 16:
      return "0x" + digits;
    default:
      return digits;
  }
}

std::string u64_zero_pad(uint64_t x, uint64_t width) {
  std::string digits = std::to_string(x);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

bool parse_format(std::string_view format, std::vector<FormatSegment>& segments,
                  std::string& error) {
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
      std::string_view spec = format.substr(i + 1, close - i - 1);
      current.placeholder = true;
      if (!spec.empty()) {
        if (spec[0] != ':') {
          error = "placeholder '{" + std::string(spec) +
                  "}' is not supported: placeholders take the next argument, write '{}' or "
                  "'{:SPEC}'";
          return false;
        }
        spec.remove_prefix(1);
        size_t k = 0;
        if (k < spec.size() && spec[k] == '0') {
          current.zero_pad = true;
          ++k;
        }
        while (k < spec.size() && spec[k] >= '0' && spec[k] <= '9') {
          current.width = current.width * 10 + (spec[k++] - '0');
          if (current.width > 4096) break;
        }
        if (k < spec.size() && spec[k] == '.') {
          ++k;
          current.precision = 0;
          const size_t start = k;
          while (k < spec.size() && spec[k] >= '0' && spec[k] <= '9') {
            current.precision = current.precision * 10 + (spec[k++] - '0');
            if (current.precision > 1074) break;
          }
          if (k == start) {
            error = "precision in '{:" + std::string(spec) + "}' needs digits after '.'";
            return false;
          }
        }
        if (k < spec.size() && std::strchr("xXbo", spec[k]) != nullptr) current.radix = spec[k++];
        if (k != spec.size() || current.width > 4096 || current.precision > 1074) {
          error = "unsupported format spec '{:" + std::string(spec) +
                  "}' (valid: {}, {:05}, {:8}, {:.2}, {:x}, {:X}, {:b}, {:o})";
          return false;
        }
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

size_t placeholder_count(const std::vector<FormatSegment>& segments) {
  size_t n = 0;
  for (const auto& s : segments) n += s.placeholder ? 1 : 0;
  return n;
}

std::string pad_field(std::string text, const FormatSegment& spec) {
  if (text.size() >= (size_t)spec.width) return text;
  const size_t fill = spec.width - text.size();
  if (spec.zero_pad) {
    const size_t sign = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
    text.insert(sign, fill, '0');
  } else {
    text.insert(0, fill, ' ');
  }
  return text;
}

bool parse_combinations(std::string_view pattern, std::vector<std::string>& charsets,
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

std::string render_combinations(uint64_t x, const std::vector<std::string>& charsets) {
  // The value is reduced modulo the number of combinations (saturating on overflow),
  // then consumed as mixed-radix digits, the first charset least significant.
  __extension__ unsigned __int128 modulus = 1;
  for (const auto& set : charsets) {
    modulus *= set.size();
    if (modulus > ~0ULL) {
      modulus = 0;
      break;
    }
  }
  if (modulus != 0) x %= (uint64_t)modulus;
  std::string out;
  for (const auto& set : charsets) {
    out.push_back(set[x % set.size()]);
    x /= set.size();
  }
  return out;
}

}  // namespace polyrt::rt
