#include "unicode_case.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

namespace polyrt::rt {
namespace {

struct CaseMapping {
  char32_t from;
  uint32_t at;     // into the table's pool
  uint32_t count;  // code points it becomes
};
struct CodeRange {
  char32_t lo, hi;
};

#include "unicode_case_tables.inc"

// A decoded character, or (code point kNotUtf8) one byte that is not UTF-8.
constexpr char32_t kNotUtf8 = 0xFFFFFFFF;
struct Decoded {
  char32_t point;
  uint32_t begin, size;  // its bytes in the text
};

std::vector<Decoded> decode(std::string_view text) {
  std::vector<Decoded> out;
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  for (uint32_t i = 0; i < text.size();) {
    const unsigned char b = s[i];
    const uint32_t size = b < 0x80         ? 1
                          : (b >> 5) == 6  ? 2
                          : (b >> 4) == 14 ? 3
                          : (b >> 3) == 30 ? 4
                                           : 0;
    char32_t point = kNotUtf8;
    if (size == 1) {
      point = b;
    } else if (size && i + size <= text.size()) {
      point = b & (0x7F >> size);
      bool valid = true;
      for (uint32_t k = 1; k < size; ++k) {
        valid = valid && (s[i + k] & 0xC0) == 0x80;
        point = (point << 6) | (s[i + k] & 0x3F);
      }
      static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
      if (!valid || point < kSmallest[size] || point > 0x10FFFF ||
          (point >= 0xD800 && point <= 0xDFFF)) {
        point = kNotUtf8;
      }
    }
    if (point == kNotUtf8) {
      out.push_back({kNotUtf8, i, 1});
      ++i;
    } else {
      out.push_back({point, i, size});
      i += size;
    }
  }
  return out;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back((char)c);
  } else if (c < 0x800) {
    out.push_back((char)(0xC0 | (c >> 6)));
    out.push_back((char)(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back((char)(0xE0 | (c >> 12)));
    out.push_back((char)(0x80 | ((c >> 6) & 0x3F)));
    out.push_back((char)(0x80 | (c & 0x3F)));
  } else {
    out.push_back((char)(0xF0 | (c >> 18)));
    out.push_back((char)(0x80 | ((c >> 12) & 0x3F)));
    out.push_back((char)(0x80 | ((c >> 6) & 0x3F)));
    out.push_back((char)(0x80 | (c & 0x3F)));
  }
}

bool in(const CodeRange* begin, const CodeRange* end, char32_t c) {
  const CodeRange* r = std::upper_bound(
      begin, end, c, [](char32_t v, const CodeRange& range) { return v < range.lo; });
  return r != begin && c <= r[-1].hi;
}

bool cased(char32_t c) {
  return in(std::begin(kCased), std::end(kCased), c);
}
bool case_ignorable(char32_t c) {
  return in(std::begin(kCaseIgnorable), std::end(kCaseIgnorable), c);
}

// Whether, past the case-ignorable characters from `i` on in direction
// `step`, a cased character comes.
bool cased_beyond(const std::vector<Decoded>& chars, ptrdiff_t i, ptrdiff_t step) {
  for (; i >= 0 && i < (ptrdiff_t)chars.size(); i += step) {
    if (chars[i].point == kNotUtf8) return false;
    if (!case_ignorable(chars[i].point)) return cased(chars[i].point);
  }
  return false;
}

template <size_t N, size_t P>
std::string mapped(std::string_view text, const CaseMapping (&table)[N], const char32_t (&pool)[P],
                   bool lower) {
  std::string out;
  out.reserve(text.size());
  if (std::all_of(text.begin(), text.end(), [](char c) { return (unsigned char)c < 0x80; })) {
    for (char c : text) {
      out.push_back(lower ? (c >= 'A' && c <= 'Z' ? (char)(c + 32) : c)
                          : (c >= 'a' && c <= 'z' ? (char)(c - 32) : c));
    }
    return out;
  }
  const std::vector<Decoded> chars = decode(text);
  for (size_t i = 0; i < chars.size(); ++i) {
    const Decoded& d = chars[i];
    if (d.point == kNotUtf8) {
      out.push_back(text[d.begin]);
      continue;
    }
    // Final_Sigma: a capital sigma after a cased letter and not before one.
    if (lower && d.point == 0x3A3 && cased_beyond(chars, (ptrdiff_t)i - 1, -1) &&
        !cased_beyond(chars, (ptrdiff_t)i + 1, 1)) {
      append_utf8(out, 0x3C2);
      continue;
    }
    const CaseMapping* m =
        std::lower_bound(std::begin(table), std::end(table), d.point,
                         [](const CaseMapping& mapping, char32_t c) { return mapping.from < c; });
    if (m != std::end(table) && m->from == d.point) {
      for (uint32_t k = 0; k < m->count; ++k) append_utf8(out, pool[m->at + k]);
    } else {
      out.append(text.substr(d.begin, d.size));
    }
  }
  return out;
}

}  // namespace

std::string utf8_lower(std::string_view text) {
  return mapped(text, kLowerMappings, kLowerMappings_pool, true);
}

std::string utf8_upper(std::string_view text) {
  return mapped(text, kUpperMappings, kUpperMappings_pool, false);
}

}  // namespace polyrt::rt
