// XXH3-64 with seed 0 over any length, following the xxHash specification's
// five input classes (0, 1-3, 4-8, 9-16, 17-128, 129-240 bytes, and the
// striped long-input loop). Host-only.
#include "xxh3.hpp"

#include <cstring>

namespace polyrt::rt {

namespace {

// The specification's default 192-byte secret.
constexpr uint8_t kSecret[192] = {
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
    0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
    0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
    0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
    0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
    0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
    0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
};

constexpr uint64_t kPrime32_1 = 0x9E3779B1ULL, kPrime32_2 = 0x85EBCA77ULL,
                   kPrime32_3 = 0xC2B2AE3DULL;
constexpr uint64_t kPrime64_1 = 0x9E3779B185EBCA87ULL, kPrime64_2 = 0xC2B2AE3D27D4EB4FULL,
                   kPrime64_3 = 0x165667B19E3779F9ULL, kPrime64_4 = 0x85EBCA77C2B2AE63ULL,
                   kPrime64_5 = 0x27D4EB2F165667C5ULL;
constexpr uint64_t kPrimeMx1 = 0x165667919E3779F9ULL, kPrimeMx2 = 0x9FB21C651E98DF25ULL;

uint64_t read64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
uint32_t read32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
uint64_t rotl(uint64_t v, int r) {
  return (v << r) | (v >> (64 - r));
}
uint64_t mul128_fold64(uint64_t a, uint64_t b) {
  __extension__ typedef unsigned __int128 u128;
  const u128 p = (u128)a * b;
  return (uint64_t)p ^ (uint64_t)(p >> 64);
}
uint64_t avalanche(uint64_t h) {
  h ^= h >> 37;
  h *= kPrimeMx1;
  return h ^ (h >> 32);
}
uint64_t xxh64_avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kPrime64_2;
  h ^= h >> 29;
  h *= kPrime64_3;
  return h ^ (h >> 32);
}
uint64_t rrmxmx(uint64_t h, uint64_t len) {
  h ^= rotl(h, 49) ^ rotl(h, 24);
  h *= kPrimeMx2;
  h ^= (h >> 35) + len;
  h *= kPrimeMx2;
  return h ^ (h >> 28);
}
uint64_t mix16(const uint8_t* in, const uint8_t* secret) {
  return mul128_fold64(read64(in) ^ read64(secret), read64(in + 8) ^ read64(secret + 8));
}

uint64_t hash_up_to_16(const uint8_t* in, size_t len) {
  if (len > 8) {
    const uint64_t lo = read64(in) ^ (read64(kSecret + 24) ^ read64(kSecret + 32));
    const uint64_t hi = read64(in + len - 8) ^ (read64(kSecret + 40) ^ read64(kSecret + 48));
    return avalanche(len + __builtin_bswap64(lo) + hi + mul128_fold64(lo, hi));
  }
  if (len >= 4) {
    const uint64_t joined = read32(in + len - 4) + ((uint64_t)read32(in) << 32);
    return rrmxmx(joined ^ (read64(kSecret + 8) ^ read64(kSecret + 16)), len);
  }
  if (len > 0) {
    const uint32_t combined = ((uint32_t)in[0] << 16) | ((uint32_t)in[len >> 1] << 24) |
                              (uint32_t)in[len - 1] | ((uint32_t)len << 8);
    return xxh64_avalanche(combined ^ (uint64_t)(read32(kSecret) ^ read32(kSecret + 4)));
  }
  return xxh64_avalanche(read64(kSecret + 56) ^ read64(kSecret + 64));
}

uint64_t hash_up_to_128(const uint8_t* in, size_t len) {
  uint64_t acc = len * kPrime64_1;
  if (len > 32) {
    if (len > 64) {
      if (len > 96) {
        acc += mix16(in + 48, kSecret + 96);
        acc += mix16(in + len - 64, kSecret + 112);
      }
      acc += mix16(in + 32, kSecret + 64);
      acc += mix16(in + len - 48, kSecret + 80);
    }
    acc += mix16(in + 16, kSecret + 32);
    acc += mix16(in + len - 32, kSecret + 48);
  }
  acc += mix16(in, kSecret);
  acc += mix16(in + len - 16, kSecret + 16);
  return avalanche(acc);
}

uint64_t hash_up_to_240(const uint8_t* in, size_t len) {
  constexpr size_t kMidStartOffset = 3, kMidLastOffset = 17, kSecretSizeMin = 136;
  uint64_t acc = len * kPrime64_1;
  const size_t rounds = len / 16;
  for (size_t i = 0; i < 8; ++i) acc += mix16(in + 16 * i, kSecret + 16 * i);
  acc = avalanche(acc);
  for (size_t i = 8; i < rounds; ++i) {
    acc += mix16(in + 16 * i, kSecret + 16 * (i - 8) + kMidStartOffset);
  }
  acc += mix16(in + len - 16, kSecret + kSecretSizeMin - kMidLastOffset);
  return avalanche(acc);
}

void accumulate_stripe(uint64_t acc[8], const uint8_t* in, const uint8_t* secret) {
  for (size_t i = 0; i < 8; ++i) {
    const uint64_t value = read64(in + 8 * i);
    const uint64_t keyed = value ^ read64(secret + 8 * i);
    acc[i ^ 1] += value;
    acc[i] += (keyed & 0xffffffffULL) * (keyed >> 32);
  }
}

void scramble(uint64_t acc[8], const uint8_t* secret) {
  for (size_t i = 0; i < 8; ++i) {
    uint64_t a = acc[i];
    a ^= a >> 47;
    a ^= read64(secret + 8 * i);
    acc[i] = a * kPrime32_1;
  }
}

uint64_t hash_long(const uint8_t* in, size_t len) {
  constexpr size_t kStripe = 64, kConsumeRate = 8, kLastStripeOffset = 7, kMergeStart = 11;
  constexpr size_t kStripesPerBlock = (sizeof kSecret - kStripe) / kConsumeRate;
  constexpr size_t kBlock = kStripe * kStripesPerBlock;
  uint64_t acc[8] = {kPrime32_3, kPrime64_1, kPrime64_2, kPrime64_3,
                     kPrime64_4, kPrime32_2, kPrime64_5, kPrime32_1};
  const size_t blocks = (len - 1) / kBlock;
  for (size_t b = 0; b < blocks; ++b) {
    for (size_t s = 0; s < kStripesPerBlock; ++s) {
      accumulate_stripe(acc, in + b * kBlock + s * kStripe, kSecret + s * kConsumeRate);
    }
    scramble(acc, kSecret + sizeof kSecret - kStripe);
  }
  const size_t stripes = ((len - 1) - kBlock * blocks) / kStripe;
  for (size_t s = 0; s < stripes; ++s) {
    accumulate_stripe(acc, in + blocks * kBlock + s * kStripe, kSecret + s * kConsumeRate);
  }
  accumulate_stripe(acc, in + len - kStripe,
                    kSecret + sizeof kSecret - kStripe - kLastStripeOffset);
  uint64_t result = len * kPrime64_1;
  for (size_t i = 0; i < 4; ++i) {
    const uint8_t* secret = kSecret + kMergeStart + 16 * i;
    result += mul128_fold64(acc[2 * i] ^ read64(secret), acc[2 * i + 1] ^ read64(secret + 8));
  }
  return avalanche(result);
}

}  // namespace

uint64_t xxh3_64(std::string_view data) {
  const auto* in = reinterpret_cast<const uint8_t*>(data.data());
  const size_t len = data.size();
  if (len <= 16) return hash_up_to_16(in, len);
  if (len <= 128) return hash_up_to_128(in, len);
  if (len <= 240) return hash_up_to_240(in, len);
  return hash_long(in, len);
}

}  // namespace polyrt::rt
