// XXH3-64 (xxHash 3, 64-bit, seed 0, the default secret): the hash polydat
// takes of whole texts (a partition spec's random order) and, through the
// 8-byte fast path, of one u64 (hashed_uuid, char_buf). Tested against the
// reference implementation's outputs for every length class.
#pragma once

#include <cstdint>
#include <string_view>

namespace polyrt::rt {

// XXH3_64bits of the bytes of `data`.
uint64_t xxh3_64(std::string_view data);

// xxh3_64 of one u64's eight little-endian bytes, inlined for the per-value
// nodes: the 4-to-8-byte path of the algorithm, whose two secret words are
// bytes 8..23 of the default secret.
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
