// XXH3-64 (xxHash 3, 64-bit, seed 0) of one u64's eight little-endian
// bytes: the per-value hash polydat's hashed_uuid and char_buf use, so
// polyrt's give the same strings. Only the 4-to-8-byte input path of the
// algorithm is needed; the two secret words are bytes 8..23 of XXH3's
// default secret. Tested against the reference implementation's outputs.
#pragma once

#include <cstdint>

namespace polyrt::rt {

inline uint64_t xxh3_u64(uint64_t x) {
  constexpr uint64_t kSecret8 = 0x1cad21f72c81017cULL, kSecret16 = 0xdb979083e96dd4deULL;
  constexpr uint64_t kPrime = 0x9FB21C651E98DF25ULL;
  const auto rotl = [](uint64_t v, int r) { return (v << r) | (v >> (64 - r)); };
  // The two 4-byte halves, swapped: input2 + (input1 << 32).
  uint64_t h = ((x >> 32) | (x << 32)) ^ (kSecret8 ^ kSecret16);
  h ^= rotl(h, 49) ^ rotl(h, 24);
  h *= kPrime;
  h ^= (h >> 35) + 8;  // + the input's length
  h *= kPrime;
  return h ^ (h >> 28);
}

}  // namespace polyrt::rt
