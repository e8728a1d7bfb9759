// pcg, pcg_stream and cycle_walk: the O(log n) seek against stepping the
// generator, golden values (from an independent Python rendering of the
// algorithm), and cycle_walk's bijection.
#include <gtest/gtest.h>

#include <set>

#include "rtlib/rtlib.h"
#include "tests/test_support.hpp"

namespace polyrt {
namespace {

uint64_t u(const std::string& expr, uint64_t x = 0) {
  return test::eval_expr(expr, x).as_u64();
}

// The n-th output by stepping the LCG n times.
uint64_t stepped(uint64_t n, uint64_t seed, uint64_t stream) {
  uint64_t state = seed;
  for (uint64_t k = 0; k < n; ++k) state = state * 6364136223846793005ULL + 2 * stream + 1;
  const uint64_t word = ((state >> ((state >> 59) + 5)) ^ state) * 12605985483714917081ULL;
  return (word >> 43) ^ word;
}

TEST(Permutations, SeekingEqualsStepping) {
  for (uint64_t stream : {0ULL, 1ULL, 7ULL, ~0ULL}) {
    for (uint64_t n : {0ULL, 1ULL, 2ULL, 3ULL, 50ULL, 77ULL, 1000ULL, 4097ULL}) {
      ASSERT_EQ(pd_pcg(n, 42, stream), stepped(n, 42, stream)) << n << " " << stream;
    }
  }
}

TEST(Permutations, Goldens) {
  EXPECT_EQ(u("pcg(x, 42)", 0), 0x628ea758c80e9ba7ULL);
  EXPECT_EQ(u("pcg(x, 42)", 1000), 0x8d744ddcc0479207ULL);
  EXPECT_EQ(u("pcg(x, 99, 7)", 12345678901234ULL), 0x76d475ea6072b15fULL);
  EXPECT_EQ(u("pcg_stream(x, 7, 99)", 12345678901234ULL), 0x76d475ea6072b15fULL);
  const uint64_t walked[] = {5, 7, 0, 6, 4, 3, 8, 2, 9, 1};
  for (uint64_t x = 0; x < 10; ++x) EXPECT_EQ(u("cycle_walk(x, 10, 42)", x), walked[x]);
  EXPECT_EQ(u("cycle_walk(x, 1000, 7, 3)", 123456), 253u);
}

TEST(Permutations, CycleWalkIsABijection) {
  for (uint64_t range :
       {1ULL, 2ULL, 3ULL, 4ULL, 5ULL, 63ULL, 64ULL, 65ULL, 255ULL, 1000ULL, 4096ULL}) {
    uint64_t state[PD_CYCLE_WALK_STATE];
    pd_cycle_walk_setup(range, 123, 7, state);
    std::set<uint64_t> seen;
    for (uint64_t x = 0; x < range; ++x) {
      const uint64_t y = pd_cycle_walk(x, state);
      ASSERT_LT(y, range);
      ASSERT_TRUE(seen.insert(y).second) << "range " << range << ": " << y << " twice";
      ASSERT_EQ(pd_cycle_walk(x + range, state), y);  // position mod range
    }
  }
  uint64_t state[PD_CYCLE_WALK_STATE];
  pd_cycle_walk_setup(~0ULL, 5, 0, state);  // the widest domain: 32-bit halves
  std::set<uint64_t> seen;
  for (uint64_t x = 0; x < 20000; ++x) ASSERT_TRUE(seen.insert(pd_cycle_walk(x, state)).second);
}

TEST(Permutations, ARangeOfZeroIsACompileError) {
  test::expect_contains(test::compile_error("input x: u64\ny := cycle_walk(x, 0)\n"),
                        {"range must be at least 1"});
}

}  // namespace
}  // namespace polyrt
