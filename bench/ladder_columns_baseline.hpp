// The engine-ladder graph's four output columns over a coordinate range,
// written as the best loop we can write by hand: the batch tier's baseline.
// Its file is compiled by clang -O3 with a vectorization pragma, twice:
// ladder_columns for the host's vector units (-march=native), as the JIT's
// kernels are, and ladder_columns_avx2 for AVX2 (-march=x86-64-v3), to set
// against the kernels of POLYRT_JIT_CPU=x86-64-v3. No floating point, so
// contraction cannot matter.
#pragma once

#include <cstdint>

namespace polyrt::bench {

void ladder_columns(uint64_t first, uint64_t count, uint64_t tenant_seed, uint64_t operation_seed,
                    uint64_t* account_id, uint64_t* shard, uint64_t* payload_class,
                    uint64_t* event_token);

void ladder_columns_avx2(uint64_t first, uint64_t count, uint64_t tenant_seed,
                         uint64_t operation_seed, uint64_t* account_id, uint64_t* shard,
                         uint64_t* payload_class, uint64_t* event_token);

}  // namespace polyrt::bench
