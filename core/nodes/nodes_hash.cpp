#include "nodes/registry.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {
std::shared_ptr<const Prepared> check_probability(const std::vector<Value>& params) {
  const double p = params[0].as_f64();
  if (!(p >= 0.0 && p <= 1.0)) {
    throw ParamError{0, "probability must be in [0, 1], got " + Value::f64(p).to_string()};
  }
  return nullptr;
}
}  // namespace

void register_hash_nodes(Registry& r) {
  using P = PortType;
  r.add({.name = "hash",
         .family = "hashing",
         .keyed_by_seed = true,
         .args = {wire("input", P::U64)},
         .results = {Type::U64},
         .summary = "SplitMix64 of input: the SplitMix64 output function at state input + "
                    "0x9E3779B97F4A7C15.",
         .eval = [](Call& c) { c.set_u64(pd_hash(c.u64(0))); },
         .native = PD_NATIVE(pd_hash, in(0))});
  r.add_alias("splitmix64", "hash");
  r.add_alias("scatter", "hash");
  r.add({.name = "xxh3",
         .family = "hashing",
         .keyed_by_seed = true,
         .args = {wire("input", P::U64)},
         .results = {Type::U64},
         .summary = "XXH3-64 (seed 0) of input's eight little-endian bytes, as the xxHash "
                    "library computes it: xxh3(0) = 0xC77B3ABB6F87ACD9.",
         .eval = [](Call& c) { c.set_u64(pd_xxh3(c.u64(0))); },
         .native = PD_NATIVE(pd_xxh3, in(0))});
  r.add_alias("xxhash3", "xxh3");
  r.add({.name = "hash_range",
         .family = "hashing",
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("max", P::U64)},
         .results = {Type::U64},
         .summary = "hash(input) mod max; 0 when max is 0.",
         .eval = [](Call& c) { c.set_u64(pd_hash_range(c.u64(0), c.param_u64(0))); },
         .native = PD_NATIVE(pd_hash_range, in(0), param(0))});
  r.add({.name = "hash_interval",
         .family = "hashing",
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("min", P::F64), konst("max", P::F64)},
         .results = {Type::F64},
         .summary = "min + unit_interval(hash(input)) * (max - min).",
         .eval =
             [](Call& c) { c.set_f64(pd_hash_interval(c.u64(0), c.param_f64(0), c.param_f64(1))); },
         .native = PD_NATIVE(pd_hash_interval, in(0), param(0), param(1))});
  r.add({.name = "fair_coin",
         .family = "hashing",
         .keyed_by_seed = true,
         .args = {wire("input", P::U64)},
         .results = {Type::U64},
         .summary = "hash(input) & 1.",
         .eval = [](Call& c) { c.set_u64(pd_fair_coin(c.u64(0))); },
         .native = PD_NATIVE(pd_fair_coin, in(0))});
  r.add({.name = "unfair_coin",
         .family = "hashing",
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("p", P::F64)},
         .results = {Type::U64},
         .summary =
             "1 when unit_interval(hash(input)) < p, else 0; p in [0, 1] is checked at compile "
             "time.",
         .prepare = check_probability,
         .eval = [](Call& c) { c.set_u64(pd_unfair_coin(c.u64(0), c.param_f64(0))); },
         .native = PD_NATIVE(pd_unfair_coin, in(0), param(0))});
  r.add({.name = "chance",
         .family = "hashing",
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("p", P::F64)},
         .results = {Type::U64},
         .summary = "unfair_coin's test as the bit pattern of 1.0 (0x3FF0000000000000) or 0.0.",
         .prepare = check_probability,
         .eval = [](Call& c) { c.set_u64(pd_chance(c.u64(0), c.param_f64(0))); },
         .native = PD_NATIVE(pd_chance, in(0), param(0))});
  r.add({.name = "n_of",
         .family = "hashing",
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("n", P::U64), konst("m", P::U64)},
         .results = {Type::U64},
         .summary = "1 for exactly n of every m consecutive inputs: in the window input / m, "
                    "position input mod m is 1 when fewer than n positions rank ahead of it by "
                    "hash((window * 0x517CC1B727220A95) ^ (position * 0x9E3779B97F4A7C15)), ties "
                    "by position. O(m) per value.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           const uint64_t n = p[0].as_u64(), m = p[1].as_u64();
           if (m < 1 || m > 65536) throw ParamError{1, "m must be in [1, 65536]"};
           if (n > m) throw ParamError{0, "n must be at most m"};
           return nullptr;
         },
         .eval = [](Call& c) { c.set_u64(pd_n_of(c.u64(0), c.param_u64(0), c.param_u64(1))); },
         .native = PD_NATIVE(pd_n_of, in(0), param(0), param(1))});
}

}  // namespace polyrt::nodes
