// XXH3-64 (xxHash 3, 64-bit, seed 0, the default secret): the hash polydat
// takes of whole texts (a partition spec's random order) and, through the
// 8-byte fast path, of one u64 (hashed_uuid, char_buf). Tested against the
// reference implementation's outputs for every length class.
#pragma once

#include <cstdint>
#include <string_view>

#include "rtlib/pd_rt.h"

namespace polyrt::rt {

// XXH3_64bits of the bytes of `data`.
uint64_t xxh3_64(std::string_view data);

// xxh3_64 of one u64's eight little-endian bytes (pd_xxh3_u64_inline).
inline uint64_t xxh3_u64(uint64_t x) {
  return pd_xxh3_u64_inline(x);
}

}  // namespace polyrt::rt
