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
         .args = {wire("input", P::U64)},
         .results = {Type::U64},
         .summary = "SplitMix64 of input: the SplitMix64 output function at state input + "
                    "0x9E3779B97F4A7C15.",
         .eval = [](Call& c) { c.set_u64(pd_hash(c.u64(0))); },
         .native = PD_NATIVE(pd_hash, in(0))});
  r.add({.name = "hash_range",
         .family = "hashing",
         .args = {wire("input", P::U64), konst("max", P::U64)},
         .results = {Type::U64},
         .summary = "hash(input) mod max; 0 when max is 0.",
         .eval = [](Call& c) { c.set_u64(pd_hash_range(c.u64(0), c.param_u64(0))); },
         .native = PD_NATIVE(pd_hash_range, in(0), param(0))});
  r.add({.name = "hash_interval",
         .family = "hashing",
         .args = {wire("input", P::U64), konst("min", P::F64), konst("max", P::F64)},
         .results = {Type::F64},
         .summary = "min + unit_interval(hash(input)) * (max - min).",
         .eval =
             [](Call& c) { c.set_f64(pd_hash_interval(c.u64(0), c.param_f64(0), c.param_f64(1))); },
         .native = PD_NATIVE(pd_hash_interval, in(0), param(0), param(1))});
  r.add({.name = "fair_coin",
         .family = "hashing",
         .args = {wire("input", P::U64)},
         .results = {Type::U64},
         .summary = "hash(input) & 1.",
         .eval = [](Call& c) { c.set_u64(pd_fair_coin(c.u64(0))); },
         .native = PD_NATIVE(pd_fair_coin, in(0))});
  r.add({.name = "unfair_coin",
         .family = "hashing",
         .args = {wire("input", P::U64), konst("p", P::F64)},
         .results = {Type::U64},
         .summary =
             "1 when unit_interval(hash(input)) < p, else 0; p in [0, 1] is checked at compile "
             "time.",
         .prepare = check_probability,
         .eval = [](Call& c) { c.set_u64(pd_unfair_coin(c.u64(0), c.param_f64(0))); },
         .native = PD_NATIVE(pd_unfair_coin, in(0), param(0))});
}

}  // namespace polyrt::nodes
