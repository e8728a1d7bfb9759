#include "bench/ladder_baseline.hpp"

#include "rtlib/rtlib.h"

namespace polyrt::bench {

namespace {
LadderOutputs ladder(uint64_t cycle, uint64_t tenant_seed, uint64_t operation_seed) {
  const uint64_t identity_entropy = pd_hash(cycle + tenant_seed);
  const uint64_t account_id = identity_entropy % 10000000;
  const uint64_t route_entropy = pd_hash(account_id ^ operation_seed);
  const uint64_t payload_entropy = pd_hash(identity_entropy + operation_seed);
  return LadderOutputs{account_id, route_entropy % 64, payload_entropy % 8,
                       pd_hash(route_entropy + payload_entropy)};
}
}  // namespace

const LadderFn ladder_baseline = ladder;

}  // namespace polyrt::bench
