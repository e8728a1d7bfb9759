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

const char* const kLadderSource =
    "input cycle: u64\n"
    "input tenant_seed: u64\n"
    "input operation_seed: u64\n"
    "seeded_cycle     := u64_add(cycle, tenant_seed)\n"
    "identity_entropy := hash(seeded_cycle)\n"
    "account_id       := mod(identity_entropy, 10000000)\n"
    "route_seed       := u64_xor(account_id, operation_seed)\n"
    "route_entropy    := hash(route_seed)\n"
    "shard            := mod(route_entropy, 64)\n"
    "payload_seed     := u64_add(identity_entropy, operation_seed)\n"
    "payload_entropy  := hash(payload_seed)\n"
    "payload_class    := mod(payload_entropy, 8)\n"
    "token_seed       := u64_add(route_entropy, payload_entropy)\n"
    "event_token      := hash(token_seed)\n";

}  // namespace polyrt::bench
