// What a valid UTF-8 sequence is, freestanding (see text_writers.h): the one
// definition that the host's text nodes (utf8.hpp) and the JSON escapes of
// the row writers, on the host and in GPU kernels, read. No overlong forms,
// surrogates or code points above U+10FFFF.
#pragma once

#include "pd_rt.h"

namespace polyrt::rt {

// The character at s (of `remaining` > 0 bytes), or an invalid sequence:
// then `size` is the maximal prefix of a valid sequence (at least one byte),
// which a lossy decoder replaces with one U+FFFD (Unicode's recommended
// practice, what Rust's and Python's decoders do).
struct Utf8Sequence {
  uint32_t point = 0;
  uint32_t size = 1;
  bool valid = false;
};

inline Utf8Sequence utf8_sequence(const unsigned char* s, uint64_t remaining) {
  const unsigned char b = s[0];
  if (b < 0x80) return {b, 1, true};
  // The continuation bytes a lead byte takes, and the range of the first
  // (narrower after E0, ED, F0, F4: no overlong, surrogate or too-large form).
  uint32_t need = 0;
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
  uint32_t point = b & (0x3F >> need);
  uint32_t taken = 1;
  while (taken <= need && taken < remaining) {
    const unsigned char c = s[taken];
    if (c < (taken == 1 ? lo : 0x80) || c > (taken == 1 ? hi : 0xBF)) break;
    point = (point << 6) | (c & 0x3F);
    ++taken;
  }
  if (need && taken == need + 1) return {point, taken, true};
  return {b, taken, false};
}

// How many characters n bytes hold: a valid sequence is one, and so is each
// maximal invalid piece (str_length; substring counts alike).
inline uint64_t utf8_char_count(const char* s, uint64_t n) {
  uint64_t count = 0;
  for (uint64_t i = 0; i < n; i += utf8_sequence((const unsigned char*)s + i, n - i).size) ++count;
  return count;
}

}  // namespace polyrt::rt
