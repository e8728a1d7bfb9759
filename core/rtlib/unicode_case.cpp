#include "unicode_case.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "utf8.hpp"

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

// A decoded character, or (code point kNotUtf8) a sequence that is not
// UTF-8, kept as it is.
constexpr char32_t kNotUtf8 = 0xFFFFFFFF;
struct Decoded {
  char32_t point;
  uint32_t begin, size;  // its bytes in the text
};

std::vector<Decoded> decode(std::string_view text) {
  std::vector<Decoded> out;
  for (size_t i = 0; i < text.size();) {
    const Utf8Sequence c = utf8_at(text, i);
    out.push_back({c.valid ? c.point : kNotUtf8, (uint32_t)i, (uint32_t)c.size});
    i += c.size;
  }
  return out;
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
      out.append(text.substr(d.begin, d.size));
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
