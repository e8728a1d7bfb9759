// SplitMix64's output function at state x + 0x9E3779B97F4A7C15: polydat's
// `hash` (pd_hash), inline for host loops that hash per element.
#pragma once

#include "pd_rt.h"

namespace polyrt::rt {

inline uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// SplitMix64's successive outputs from `state`'s next states: the words of
// a node that makes several draws from one input (a sampler's uniforms, an
// identifier's digits).
struct SplitMixStream {
  uint64_t state;
  uint64_t next() {
    const uint64_t z = splitmix64(state);
    state += 0x9E3779B97F4A7C15ULL;
    return z;
  }
};

}  // namespace polyrt::rt
