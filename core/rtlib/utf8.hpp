// UTF-8 decoding and encoding for the host text nodes, over the one
// definition of what a valid sequence is (utf8_decode.h), shared by case
// mapping, charset specs, lossy repair and the JSON escapes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "utf8_decode.h"

namespace polyrt::rt {

// The character of UTF-8 text at byte i, or an invalid sequence there.
inline Utf8Sequence utf8_at(std::string_view text, size_t i) {
  return utf8_sequence(reinterpret_cast<const unsigned char*>(text.data()) + i, text.size() - i);
}

// Whether `text` is valid UTF-8 throughout: eight ASCII bytes at a time (the
// common case of generated text runs at memory speed), each other sequence
// by utf8_sequence's one definition.
inline bool valid_utf8(std::string_view text) {
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    if (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, text.data() + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    if ((unsigned char)text[i] < 0x80) {
      ++i;
      continue;
    }
    const Utf8Sequence c = utf8_at(text, i);
    if (!c.valid) return false;
    i += c.size;
  }
  return true;
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
