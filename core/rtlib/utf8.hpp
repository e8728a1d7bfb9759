// UTF-8 decoding and encoding for the host text nodes: one definition of
// what a valid sequence is (no overlong forms, surrogates or code points
// above U+10FFFF), shared by case mapping, charset specs and lossy repair.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace polyrt::rt {

// One character of UTF-8 text, or an invalid sequence: then `size` is the
// maximal prefix of a valid sequence (at least one byte), which a lossy
// decoder replaces with one U+FFFD (Unicode's recommended practice, what
// Rust's and Python's decoders do).
struct Utf8Char {
  char32_t point = 0;
  size_t size = 1;
  bool valid = false;
};

inline Utf8Char utf8_at(std::string_view text, size_t i) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char b = s[i];
  if (b < 0x80) return {b, 1, true};
  // The continuation bytes a lead byte takes, and the range of the first
  // (narrower after E0, ED, F0, F4: no overlong, surrogate or too-large form).
  size_t need = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) {
    need = 1;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 2;
    lo = b == 0xE0 ? 0xA0 : 0x80;
    hi = b == 0xED ? 0x9F : 0xBF;
  } else if (b >= 0xF0 && b <= 0xF4) {
    need = 3;
    lo = b == 0xF0 ? 0x90 : 0x80;
    hi = b == 0xF4 ? 0x8F : 0xBF;
  }
  char32_t point = b & (0x3F >> need);
  size_t taken = 1;
  while (taken <= need && i + taken < text.size()) {
    const unsigned char c = s[i + taken];
    if (c < (taken == 1 ? lo : 0x80) || c > (taken == 1 ? hi : 0xBF)) break;
    point = (point << 6) | (c & 0x3F);
    ++taken;
  }
  if (need && taken == need + 1) return {point, taken, true};
  return {b, taken, false};
}

inline void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back((char)c);
  } else if (c < 0x800) {
    out += {(char)(0xC0 | (c >> 6)), (char)(0x80 | (c & 0x3F))};
  } else if (c < 0x10000) {
    out += {(char)(0xE0 | (c >> 12)), (char)(0x80 | ((c >> 6) & 0x3F)), (char)(0x80 | (c & 0x3F))};
  } else {
    out += {(char)(0xF0 | (c >> 18)), (char)(0x80 | ((c >> 12) & 0x3F)),
            (char)(0x80 | ((c >> 6) & 0x3F)), (char)(0x80 | (c & 0x3F))};
  }
}

}  // namespace polyrt::rt
