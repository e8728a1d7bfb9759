// Seekable pseudo-random sequences and permutations: polydat's pcg,
// pcg_stream and cycle_walk (native: the kernels compute them, on the GPU
// too).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "nodes/registry.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {

// cycle_walk's keyed state for [0, range), and `extra` words after it.
std::shared_ptr<Prepared> cycle_walk_state(uint64_t range, uint64_t seed, uint64_t stream,
                                           size_t extra) {
  auto state = std::make_shared<Prepared>();
  state->u64s.resize(PD_CYCLE_WALK_STATE + extra);
  pd_cycle_walk_setup(range, seed, stream, state->u64s.data());
  return state;
}

// shuffle's state: cycle_walk's (feedback 0), then min, feedback and size.
// A feedback of another width than the size's could walk without end
// (its steps need not be a permutation) or far beyond the range.
std::shared_ptr<const Prepared> prepare_shuffle(const std::vector<Value>& p) {
  const uint64_t feedback = p[0].as_u64(), size = p[1].as_u64(), min = p[2].as_u64();
  const int width = std::max(4, 64 - (size ? __builtin_clzll(size) : 64));
  if (feedback != 0 && size != 0 && (feedback >> (width - 1)) != 1) {
    char hex[19];
    std::snprintf(hex, sizeof hex, "0x%llX", (unsigned long long)feedback);
    throw ParamError{0, "feedback " + std::string(hex) + " is no Galois LFSR polynomial of " +
                            std::to_string(width) + " bits for size " + std::to_string(size) +
                            ": its top bit must be 2^" + std::to_string(width - 1) +
                            " (polydat's tables give one per width, e.g. 0xB8 for 8 bits); 0 "
                            "shuffles by polyrt's cycle walk"};
  }
  auto state = cycle_walk_state(size == 0 ? 1 : size, 0, 0, 3);
  state->u64s[PD_SHUFFLE_MIN] = min;
  state->u64s[PD_SHUFFLE_FEEDBACK] = feedback;
  state->u64s[PD_SHUFFLE_SIZE] = size;
  return state;
}

}  // namespace

void register_permutation_nodes(Registry& r) {
  using P = PortType;
  r.add({.name = "pcg",
         .family = "permutations",
         .args = {wire("input", P::U64), konst("seed", P::U64, Value::u64(0)),
                  konst("stream", P::U64, Value::u64(0))},
         .results = {Type::U64},
         .summary = "Element `input` of the PCG-RXS-M-XS 64/64 sequence from state seed with "
                    "increment 2 * stream + 1, reached in O(log input) steps.",
         .eval = [](Call& c) { c.set_u64(pd_pcg(c.u64(0), c.param_u64(0), c.param_u64(1))); },
         .native = PD_NATIVE(pd_pcg, in(0), param(0), param(1))});
  r.add({.name = "pcg_stream",
         .family = "permutations",
         .args = {wire("input", P::U64), wire("stream", P::U64),
                  konst("seed", P::U64, Value::u64(0))},
         .results = {Type::U64},
         .summary = "pcg with the stream a wire: one independent sequence per stream value.",
         .eval = [](Call& c) { c.set_u64(pd_pcg(c.u64(0), c.param_u64(0), c.u64(1))); },
         .native = PD_NATIVE(pd_pcg, in(0), param(0), in(1))});
  r.add({.name = "cycle_walk",
         .family = "permutations",
         .args = {wire("position", P::U64), konst("range", P::U64),
                  konst("seed", P::U64, Value::u64(0)), konst("stream", P::U64, Value::u64(0))},
         .results = {Type::U64},
         .summary = "A bijection of [0, range) applied to position mod range: a 6-round Feistel "
                    "network keyed by pcg over the next even bit width, cycle-walked into range "
                    "(about two rounds on average). Every row of a table once, in a shuffled "
                    "order.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           if (p[0].as_u64() == 0) throw ParamError{0, "range must be at least 1"};
           return cycle_walk_state(p[0].as_u64(), p[1].as_u64(), p[2].as_u64(), 0);
         },
         .eval = [](Call& c) { c.set_u64(pd_cycle_walk(c.u64(0), c.prepared().u64s.data())); },
         .native = PD_NATIVE(pd_cycle_walk, in(0), u64_table())});
  r.add({.name = "shuffle",
         .family = "permutations",
         .args = {wire("input", P::U64), konst("feedback", P::U64, Value::u64(0)),
                  konst("size", P::U64, Value::u64(0)), konst("min", P::U64, Value::u64(0))},
         .results = {Type::U64},
         .summary = "A bijection of [min, min + size) applied to input mod size, as polydat's: "
                    "input mod size + 1 stepped by the Galois LFSR of polynomial feedback until "
                    "it is at most size again, minus 1, plus min; min when size is 0. feedback "
                    "is a polynomial of w = max(4, bit width of size) bits (its top bit 2^(w-1): "
                    "polydat's feedback tables give one per width, e.g. 0xB8 for 8 bits), or 0, "
                    "polyrt's choice where polydat's is no permutation: min + cycle_walk(input, "
                    "size).",
         .prepare = prepare_shuffle,
         .eval = [](Call& c) { c.set_u64(pd_shuffle(c.u64(0), c.prepared().u64s.data())); },
         .native = PD_NATIVE(pd_shuffle, in(0), u64_table())});
}

}  // namespace polyrt::nodes
