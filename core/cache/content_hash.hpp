// A 128-bit content hash (two independent 64-bit FNV-1a streams) used to key
// compiled objects; rendered as 32 hex digits.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace polyrt::cache {

class ContentHash {
 public:
  ContentHash& add(std::string_view bytes) {
    for (unsigned char c : bytes) {
      a_ = (a_ ^ c) * 0x100000001b3ULL;
      b_ = (b_ ^ c) * 0x100000001b3ULL;
      b_ ^= b_ >> 29;
    }
    // A separator, so ("ab", "c") and ("a", "bc") differ.
    a_ = (a_ ^ 0xff) * 0x100000001b3ULL;
    b_ = (b_ ^ bytes.size()) * 0x100000001b3ULL;
    return *this;
  }
  std::string hex() const {
    static const char* digits = "0123456789abcdef";
    std::string out(32, '0');
    for (int i = 0; i < 16; ++i) {
      out[15 - i] = digits[(a_ >> (4 * i)) & 15];
      out[31 - i] = digits[(b_ >> (4 * i)) & 15];
    }
    return out;
  }
  uint64_t low() const { return a_; }

 private:
  uint64_t a_ = 0xcbf29ce484222325ULL;
  uint64_t b_ = 0x84222325cbf29ce4ULL;
};

}  // namespace polyrt::cache
