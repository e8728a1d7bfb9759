// polydat's round-number nodes (floor_/ceiling_/closest_ x base10, decade,
// fibonacci, binomial; round_floor/ceiling/nearest) give polydat's values:
// the vectors of its unit tests (crates/polydat-nodes/src/round_numbers.rs
// in nosqlbench/polydat), its edges (0 for x <= 0, NaN or infinite; the
// interval rounders' identity on a bad interval), and every engine alike.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "polyrt/polyrt.hpp"
#include "rtlib/rtlib.h"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

struct Vector {
  double (*fn)(double);
  double x, want;
};

TEST(RoundNumbers, PolydatsVectors) {
  const Vector vectors[] = {
      {pd_floor_base10, 1732.234, 1000.0},    {pd_ceiling_base10, 1732.0, 10000.0},
      {pd_closest_base10, 1732.0, 1000.0},    {pd_closest_base10, 6000.0, 10000.0},
      {pd_floor_base10, 1000.0, 1000.0},      {pd_ceiling_base10, 1000.0, 1000.0},
      {pd_floor_decade, 2734.0, 2000.0},      {pd_ceiling_decade, 2734.0, 3000.0},
      {pd_closest_decade, 2734.0, 3000.0},    {pd_floor_decade, 1732.0, 1000.0},
      {pd_closest_decade, 1732.0, 2000.0},    {pd_ceiling_decade, 1732.0, 2000.0},
      {pd_floor_fibonacci, 1732.0, 1597.0},   {pd_ceiling_fibonacci, 1732.0, 2584.0},
      {pd_closest_fibonacci, 1732.0, 1597.0}, {pd_floor_fibonacci, 0.5, 0.0},
      {pd_floor_fibonacci, 1597.0, 1597.0},   {pd_ceiling_fibonacci, 1597.0, 1597.0},
      {pd_floor_binomial, 1732.0, 1024.0},    {pd_ceiling_binomial, 1732.0, 2048.0},
      {pd_closest_binomial, 1732.0, 2048.0},  {pd_floor_binomial, 1024.0, 1024.0},
      {pd_ceiling_binomial, 1024.0, 1024.0},  {pd_floor_base10, 0.0, 0.0},
      {pd_floor_base10, -5.0, 0.0},           {pd_ceiling_binomial, -1.0, 0.0},
      {pd_closest_fibonacci, 0.0, 0.0},       {pd_closest_decade, -1000.0, 0.0},
      {pd_floor_base10, INFINITY, 0.0},       {pd_floor_binomial, NAN, 0.0},
  };
  for (const Vector& v : vectors) EXPECT_EQ(v.fn(v.x), v.want) << v.x << " -> " << v.want;
  EXPECT_NEAR(pd_floor_base10(0.5), 0.1, 1e-12);
  EXPECT_EQ(pd_round_floor(1732.0, 500.0), 1500.0);
  EXPECT_EQ(pd_round_ceiling(1732.0, 500.0), 2000.0);
  EXPECT_EQ(pd_round_nearest(1732.0, 500.0), 1500.0);
  EXPECT_EQ(pd_round_nearest(1700.0, 500.0), 1500.0);
  EXPECT_EQ(pd_round_floor(1732.0, 0.0), 1732.0);
  EXPECT_EQ(pd_round_nearest(1732.0, -5.0), 1732.0);
  EXPECT_EQ(pd_round_ceiling(1732.0, INFINITY), 1732.0);
  EXPECT_EQ(pd_round_floor(1732.0, NAN), 1732.0);
}

// The floor of a power of ten lies in its decade and at most x (the powers
// are powi's, which can differ from the nearest double by an ulp: then it
// is the power below), across the whole range; every power of two is its
// own floor and ceiling.
TEST(RoundNumbers, PowersAreTheirOwnFloorAndCeiling) {
  for (int e = -300; e <= 300; ++e) {
    const double p = std::pow(10.0, e);
    if (std::nextafter(p, 0.0) <= 0.0) continue;
    const double floor = pd_floor_base10(p);
    EXPECT_LE(floor, p) << e;
    EXPECT_GT(floor, p / 10.000001) << e;
    EXPECT_EQ(pd_floor_base10(std::nextafter(floor, INFINITY) * 1.5), floor) << e;
  }
  for (int e = -1000; e <= 1000; ++e) {
    const double p = std::ldexp(1.0, e);
    EXPECT_EQ(pd_floor_binomial(p), p) << e;
    EXPECT_EQ(pd_ceiling_binomial(p), p) << e;
    EXPECT_EQ(pd_floor_binomial(p * 1.75), p) << e;
    if (e < 1000) EXPECT_EQ(pd_ceiling_binomial(p * 1.25), p * 2.0) << e;
  }
}

TEST(RoundNumbers, EveryEngineAndTierAgree) {
  const char* program =
      "input x\nf := x as f64 * 37.25 + 0.5\n"
      "a := floor_base10(f)\nb := ceiling_base10(f)\nc := closest_base10(f)\n"
      "d := floor_decade(f)\ne := ceiling_decade(f)\ng := closest_decade(f)\n"
      "h := floor_fibonacci(f)\ni := ceiling_fibonacci(f)\nj := closest_fibonacci(f)\n"
      "k := floor_binomial(f)\nl := ceiling_binomial(f)\nm := closest_binomial(f)\n"
      "n := round_floor(f, 7.5)\no := round_ceiling(f, 7.5)\np := round_nearest(f, 7.5)\n";
  for (uint64_t x : {0ull, 1ull, 46ull, 999ull, 123456789ull}) {
    values_everywhere(program, x, compile(program)->output_names());
  }
}

}  // namespace
}  // namespace polyrt::test
