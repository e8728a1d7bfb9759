// PCG-RXS-M-XS 64/64 (O'Neill's permuted congruential generator) read at any
// position in O(log n) by jumping the LCG (Brown's "arbitrary stride"
// method), and a bijection of [0, range) built on it: a balanced 6-round
// Feistel network over the next even bit width, cycle-walked into range.
// polydat's pcg, pcg_stream and cycle_walk, output for output.
#include "rtlib.h"

namespace {

constexpr uint64_t kLcgMultiplier = 6364136223846793005ULL;

PD_INLINE uint64_t rxs_m_xs(uint64_t state) {
  const uint64_t word = ((state >> ((state >> 59) + 5)) ^ state) * 12605985483714917081ULL;
  return (word >> 43) ^ word;
}

PD_INLINE uint64_t feistel_round(uint64_t half, uint64_t key) {
  uint64_t x = half * 0x9E3779B97F4A7C15ULL + key;
  x = ((x >> 32) ^ x) * 0xD6E8FEB86659FD93ULL;
  return (x >> 32) ^ x;
}

}  // namespace

PD_API uint64_t pd_pcg(uint64_t position, uint64_t seed, uint64_t stream) {
  const uint64_t increment = 2 * stream + 1;
  // state_n = A_n * seed + C_n, with (A, C) composed from the squarings of
  // one step (multiplier, increment) for each set bit of n.
  uint64_t step_mult = kLcgMultiplier, step_plus = increment;
  uint64_t mult = 1, plus = 0;
  for (uint64_t n = position; n; n >>= 1) {
    if (n & 1) {
      mult *= step_mult;
      plus = plus * step_mult + step_plus;
    }
    step_plus = (step_mult + 1) * step_plus;
    step_mult *= step_mult;
  }
  return rxs_m_xs(mult * seed + plus);
}

PD_API void pd_cycle_walk_setup(uint64_t range, uint64_t seed, uint64_t stream, uint64_t* state) {
  // The domain: the bit width of range - 1, rounded up to even (at least 2).
  uint64_t bits = 0;
  for (uint64_t top = range - 1; top; top >>= 1) ++bits;
  bits = bits < 2 ? 2 : bits + (bits & 1);
  state[0] = range;
  state[1] = bits / 2;
  for (uint64_t k = 0; k < PD_CYCLE_WALK_ROUNDS; ++k) {
    state[2 + k] = pd_pcg(k + 1000000000, seed, stream);
  }
}

PD_API uint64_t pd_cycle_walk(uint64_t position, const uint64_t* state) {
  const uint64_t range = state[0], half_bits = state[1];
  const uint64_t half_mask = (uint64_t(1) << half_bits) - 1;
  if (range == 1) return 0;
  uint64_t value = position % range;
  // Every value of [0, range) lies on a cycle of the permutation that comes
  // back into range: the walk ends.
  do {
    uint64_t left = (value >> half_bits) & half_mask, right = value & half_mask;
    for (uint64_t k = 0; k < PD_CYCLE_WALK_ROUNDS; ++k) {
      const uint64_t next = left ^ (feistel_round(right, state[2 + k]) & half_mask);
      left = right;
      right = next;
    }
    value = (left << half_bits) | right;
  } while (value >= range);
  return value;
}

PD_API uint64_t pd_shuffle(uint64_t position, const uint64_t* state) {
  const uint64_t min = state[PD_SHUFFLE_MIN], feedback = state[PD_SHUFFLE_FEEDBACK],
                 size = state[PD_SHUFFLE_SIZE];
  if (feedback == 0) return min + pd_cycle_walk(position, state);
  if (size == 0) return min;
  // polydat's: 1-based, Galois LFSR steps until the register is back in
  // [1, size] (the setup checked the polynomial's width, so the walk ends
  // within one period of at most 2^w - 1 steps).
  uint64_t reg = position % size + 1;
  do {
    reg = (reg >> 1) ^ ((0 - (reg & 1)) & feedback);
  } while (reg > size);
  return min + reg - 1;
}
