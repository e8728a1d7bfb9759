// The noise nodes: values to the bit against an independent Python
// rendering of polydat's algorithms (with the reference xxHash for the
// permutation), ranges, smoothness and the octave bounds.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "tests/test_support.hpp"

namespace polyrt {
namespace {

constexpr const char* kNoise =
    "input x: u64\ninput y: u64\na := perlin_1d(x, 42, 0.01)\nb := perlin_2d(x, y, 42, 0.01)\n"
    "c := simplex_2d(x, y, 42, 0.01)\nd := fractal_noise_1d(x, 42, 0.01)\n"
    "e := fractal_noise_2d(x, y, 42, 0.013, 5)\n";

TEST(Noise, BitsEqualTheReference) {
  struct Case {
    uint64_t x, y;
    uint64_t bits[5];
  };
  const Case cases[] = {
      {0, 0, {0x8000000000000000, 0, 0, 0, 0}},
      {123,
       77,
       {0x3fd19b9124be1fc7, 0xbfbe30468b2b7040, 0x3fe02104decec18c, 0x3fc17a7553f0dbc9,
        0xbfd017df4a914851}},
      {999,
       5,
       {0xbf847ff0f6701f00, 0x3fa504a83e0e4a77, 0xbfead17462e1cc7e, 0xbf86aa6c00a0885a,
        0xbfa272101c6caaff}},
      {1000000000000, 3, {0, 0xbf9ef7e4e591815c, 0, 0, 0xbfba5fb9283911d6}},
      {~0ULL, 1ULL << 40, {0, 0x3fd276a00b0ce22e, 0, 0, 0x3fc8b8ffdf1a6ed7}},
  };
  for (Engine engine : {Engine::Interpreter, Engine::Native}) {
    State state = compile(kNoise, CompileOptions{.engine = engine})->new_state();
    for (const Case& c : cases) {
      state.set_inputs({c.x, c.y});
      const char* names[] = {"a", "b", "c", "d", "e"};
      for (size_t k = 0; k < 5; ++k) {
        EXPECT_EQ(std::bit_cast<uint64_t>(state.pull(names[k]).as_f64()), c.bits[k])
            << names[k] << " at " << c.x << ", " << c.y;
      }
    }
  }
}

TEST(Noise, PerlinIsBoundedAndSmooth) {
  State state = compile(kNoise)->new_state();
  double previous = 0;
  int jumps = 0;
  for (uint64_t x = 0; x < 2000; ++x) {
    state.set_inputs({x, 7});
    const double v = state.pull("a").as_f64();
    ASSERT_LE(std::fabs(v), 1.0);
    if (x && std::fabs(v - previous) > 0.1) ++jumps;
    previous = v;
  }
  EXPECT_EQ(jumps, 0);  // at 0.01 a step moves a hundredth of a cell
}

TEST(Noise, OctavesAreOneToSixtyFour) {
  test::expect_contains(test::compile_error("input x: u64\ny := fractal_noise_1d(x, 1, 0.1, 0)\n"),
                        {"octaves must be 1 to 64"});
  test::expect_contains(
      test::compile_error("input x: u64\ny := fractal_noise_2d(x, x, 1, 0.1, 65)\n"),
      {"octaves must be 1 to 64"});
}

}  // namespace
}  // namespace polyrt
