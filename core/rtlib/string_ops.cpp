#include "string_ops.hpp"

#include <algorithm>
#include <charconv>

#include "row_fields.h"
#include "utf8.hpp"
#include "xxh3.hpp"

namespace polyrt::rt {
namespace {

constexpr const char* kOnes[20] = {"zero",    "one",     "two",       "three",    "four",
                                   "five",    "six",     "seven",     "eight",    "nine",
                                   "ten",     "eleven",  "twelve",    "thirteen", "fourteen",
                                   "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
constexpr const char* kTens[10] = {"",      "",      "twenty",  "thirty", "forty",
                                   "fifty", "sixty", "seventy", "eighty", "ninety"};
constexpr const char* kScales[7] = {"",         "thousand",    "million",    "billion",
                                    "trillion", "quadrillion", "quintillion"};

// 1..999 in words.
void append_hundreds(std::string& out, uint32_t n) {
  const uint32_t hundreds = n / 100, rest = n % 100;
  if (hundreds) {
    out += kOnes[hundreds];
    out += " hundred";
  }
  if (rest == 0) return;
  if (hundreds) out += ' ';
  if (rest < 20) {
    out += kOnes[rest];
    return;
  }
  out += kTens[rest / 10];
  if (rest % 10) {
    out += '-';
    out += kOnes[rest % 10];
  }
}

}  // namespace

std::string number_to_words(uint64_t n) {
  if (n < 20) return kOnes[n];
  uint32_t groups[7];
  int count = 0;
  for (uint64_t rest = n; rest; rest /= 1000) groups[count++] = (uint32_t)(rest % 1000);
  std::string out;
  for (int g = count - 1; g >= 0; --g) {
    if (groups[g] == 0) continue;
    if (!out.empty()) out += ' ';
    append_hundreds(out, groups[g]);
    if (g > 0) {
      out += ' ';
      out += kScales[g];
    }
  }
  return out;
}

std::vector<std::string> expand_charset(std::string_view spec) {
  // Code points; a byte that is not UTF-8 stands for itself.
  std::vector<char32_t> points;
  for (size_t i = 0; i < spec.size();) {
    const Utf8Sequence c = utf8_at(spec, i);
    points.push_back(c.valid ? c.point : (unsigned char)spec[i]);
    i += c.valid ? c.size : 1;
  }
  std::vector<std::string> out;
  const auto character = [](char32_t c) {
    std::string text;
    append_utf8(text, c);
    return text;
  };
  for (size_t i = 0; i < points.size();) {
    if (i + 2 < points.size() && points[i + 1] == U'-') {
      for (char32_t c = points[i]; c <= points[i + 2]; ++c) {
        if (c < 0xD800 || c > 0xDFFF) out.push_back(character(c));  // chars skip surrogates
      }
      i += 3;
    } else {
      out.push_back(character(points[i]));
      i += 1;
    }
  }
  if (out.empty()) {
    for (char c = 'a'; c <= 'z'; ++c) out.emplace_back(1, c);
  }
  return out;
}

std::string char_buf(uint64_t seed, const std::vector<std::string>& charset, uint64_t length) {
  std::string out;
  uint64_t h = seed;
  for (uint64_t k = 0; k < length; ++k) {
    h = xxh3_u64(h);
    out += charset[h % charset.size()];
  }
  return out;
}

std::string_view trim_space(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t\n\v\f\r");
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(" \t\n\v\f\r") - begin + 1);
}

uint64_t str_to_u64(std::string_view text) {
  text = trim_space(text);
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);  // Rust's parse takes a '+'
  uint64_t v = 0;
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size()) return 0;
  return v;
}

uint64_t str_digit_suffix(std::string_view text) {
  const size_t end = text.find_last_not_of(" \t\n\r\f\v");
  if (end == std::string_view::npos) return 0;
  size_t begin = end + 1;
  while (begin > 0 && text[begin - 1] >= '0' && text[begin - 1] <= '9') --begin;
  uint64_t v = 0;
  const auto res = std::from_chars(text.data() + begin, text.data() + end + 1, v);
  return begin <= end && res.ec == std::errc() ? v : 0;
}

uint64_t char_count(std::string_view text) {
  return utf8_char_count(text.data(), text.size());
}

std::string substring(std::string_view text, uint64_t start, uint64_t length) {
  size_t i = 0;
  for (uint64_t skipped = 0; skipped < start && i < text.size(); ++skipped) {
    i += utf8_at(text, i).size;
  }
  size_t end = i;
  for (uint64_t taken = 0; taken < length && end < text.size(); ++taken) {
    end += utf8_at(text, end).size;
  }
  return std::string(text.substr(i, end - i));
}

std::string replace_all(std::string_view text, std::string_view from, std::string_view to) {
  std::string out;
  size_t i = 0;
  for (size_t hit = text.find(from); hit != std::string_view::npos; hit = text.find(from, i)) {
    out.append(text.substr(i, hit - i)).append(to);
    i = hit + from.size();
  }
  out.append(text.substr(i));
  return out;
}

char* write_json_escaped(char* p, std::string_view text) {
  ByteWriter out{p};
  put_json_escaped(out, text.data(), text.size());
  return out.p;
}

std::string escape_json(std::string_view text) {
  std::string out(text.size() * kJsonEscapedBytesPerByte, '\0');
  out.resize((size_t)(write_json_escaped(out.data(), text) - out.data()));
  return out;
}

}  // namespace polyrt::rt
