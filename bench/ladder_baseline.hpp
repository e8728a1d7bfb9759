// The hand-written C++ baseline of the engine-ladder graph (DESIGN.md section 8).
#pragma once

#include <cstdint>

namespace polyrt::bench {

struct LadderOutputs {
  uint64_t account_id, shard, payload_class, event_token;
};

// Computes the four outputs; called through a function pointer so the
// compiler cannot fold it into the benchmark loop.
using LadderFn = LadderOutputs (*)(uint64_t cycle, uint64_t tenant_seed, uint64_t operation_seed);
extern const LadderFn ladder_baseline;

// examples/ladder.polydat, the same computation in the DSL.
inline const char* kLadderFile = POLYRT_SOURCE_DIR "/examples/ladder.polydat";

}  // namespace polyrt::bench
