#include "byte_encodings.hpp"

#include <algorithm>
#include <cstdint>

#include "text_writers.h"

namespace polyrt::rt {

namespace {

int index_in(const char* alphabet, int size, char c) {
  for (int i = 0; i < size; ++i) {
    if (alphabet[i] == c) return i;
  }
  return -1;
}

// RFC 4648's groups (write_groups, text_writers.h: GPU kernels write them
// too).
std::string encode_groups(std::string_view bytes, const char* alphabet, int in_bytes, int out_chars,
                          int bits) {
  std::string out(encoded_group_chars(bytes.size(), in_bytes, out_chars), '\0');
  write_groups(out.data(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
               alphabet, in_bytes, out_chars, bits);
  return out;
}

// The inverse of encode_groups; empty when the text is not what it makes.
std::string decode_groups(std::string_view text, const char* alphabet, int alphabet_size,
                          size_t in_bytes, size_t out_chars, int bits) {
  if (text.size() % out_chars != 0) return {};
  std::string out;
  for (size_t i = 0; i < text.size(); i += out_chars) {
    uint64_t group = 0;
    size_t data_chars = 0;
    for (size_t c = 0; c < out_chars; ++c) {
      const char ch = text[i + c];
      int v = 0;
      if (ch == '=') {
        if (i + out_chars != text.size()) return {};  // padding only at the end
      } else {
        if (data_chars != c) return {};  // data after padding
        v = index_in(alphabet, alphabet_size, ch);
        if (v < 0) return {};
        ++data_chars;
      }
      group = group << bits | (uint64_t)v;
    }
    const size_t n = data_chars * bits / 8;
    if (n == 0 || (n * 8 + bits - 1) / bits != data_chars) {
      return {};  // a padding length the encoder never makes
    }
    for (size_t k = 0; k < n; ++k) out.push_back((char)(group >> (8 * (in_bytes - 1 - k)) & 0xff));
    // Bits of the last data character beyond the bytes must be zero.
    const uint64_t spare = (uint64_t)(in_bytes - n) * 8;
    if (n < in_bytes && (group & ((1ULL << spare) - 1)) != 0) return {};
  }
  return out;
}

}  // namespace

char* write_hex(char* p, std::string_view bytes) {
  return write_hex_bytes(p, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

std::string hex_text(std::string_view bytes) {
  std::string out(bytes.size() * 2, '\0');
  write_hex(out.data(), bytes);
  return out;
}

std::string from_hex(std::string_view text) {
  std::string out;
  for (size_t i = 0; i + 1 < text.size(); i += 2) {
    const int high = hex_digit_value(text[i]), low = hex_digit_value(text[i + 1]);
    if (high >= 0 && low >= 0) out.push_back((char)(high << 4 | low));
  }
  return out;
}

std::string to_base64(std::string_view bytes) {
  return encode_groups(bytes, kBase64Alphabet, 3, 4, 6);
}
std::string from_base64(std::string_view text) {
  return decode_groups(text, kBase64Alphabet, 64, 3, 4, 6);
}
std::string to_base32(std::string_view bytes) {
  return encode_groups(bytes, kBase32Alphabet, 5, 8, 5);
}
std::string from_base32(std::string_view text) {
  return decode_groups(text, kBase32Alphabet, 32, 5, 8, 5);
}

}  // namespace polyrt::rt
