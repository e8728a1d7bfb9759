// Compiled by bench/CMakeLists.txt with clang++ -O3 -march=... and
// -DPOLYRT_LADDER_COLUMNS=<the function's name>.
#include "bench/ladder_columns_baseline.hpp"

namespace polyrt::bench {

namespace {
// The splitmix64 finalizer, as the DSL's hash() defines it.
inline uint64_t mix(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
}  // namespace

void POLYRT_LADDER_COLUMNS(uint64_t first, uint64_t count, uint64_t tenant_seed,
                           uint64_t operation_seed, uint64_t* __restrict account_id,
                           uint64_t* __restrict shard, uint64_t* __restrict payload_class,
                           uint64_t* __restrict event_token) {
  // 16 lanes: two 512-bit (or four 256-bit) registers per value, enough
  // independent multiplies to hide their latency. Of the widths 8, 16, 32
  // and 64, with and without interleaving, 16 with clang's interleaving was
  // fastest for both -march=native and x86-64-v3 (best of 3, 4 Mi rows).
#pragma clang loop vectorize_width(16)
  for (uint64_t r = 0; r < count; ++r) {
    const uint64_t identity = mix(first + r + tenant_seed);
    const uint64_t account = identity % 10000000;
    const uint64_t route = mix(account ^ operation_seed);
    const uint64_t payload = mix(identity + operation_seed);
    account_id[r] = account;
    shard[r] = route % 64;
    payload_class[r] = payload % 8;
    event_token[r] = mix(route + payload);
  }
}

}  // namespace polyrt::bench
