// The hand-written C++ loop of the engine-ladder graph over a coordinate range,
// writing the four output columns: the batch tier's baseline. Its file is
// compiled with the host's vector features and -ffp-contract=off.
#pragma once

#include <cstdint>

namespace polyrt::bench {

void ladder_columns(uint64_t first, uint64_t count, uint64_t tenant_seed, uint64_t operation_seed,
                    uint64_t* account_id, uint64_t* shard, uint64_t* payload_class,
                    uint64_t* event_token);

}  // namespace polyrt::bench
