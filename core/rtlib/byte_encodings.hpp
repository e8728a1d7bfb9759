// Bytes as text and back: lowercase hex (how a bytes value prints, as in
// polydat), standard base64 and base32 with padding (RFC 4648), as polydat's
// to_hex, from_hex, to_base64, from_base64, to_base32, from_base32 define
// them. Host-only.
#pragma once

#include <string>
#include <string_view>

namespace polyrt::rt {

// The value of a hex digit (either case), or -1 for any other character.
inline int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Lowercase hex into space for 2 * bytes.size() characters; returns the end.
char* write_hex(char* p, std::string_view bytes);
std::string hex_text(std::string_view bytes);
// Pairs of hex digits (either case) to bytes; a pair with a non-hex
// character is skipped and an odd last character ignored (polydat's rule).
std::string from_hex(std::string_view text);
std::string to_base64(std::string_view bytes);
// Empty when the text is not canonical padded base64 (polydat gives the
// default value, an empty buffer, on a decoding error).
std::string from_base64(std::string_view text);
std::string to_base32(std::string_view bytes);
std::string from_base32(std::string_view text);

}  // namespace polyrt::rt
