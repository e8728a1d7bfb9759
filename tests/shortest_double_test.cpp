// The shortest-digits writer (Schubfach) against std::to_chars, the text
// every f64 rendering had before it: the same bytes for doubles of every
// exponent, the powers of two (whose lower neighbour is closer), subnormals,
// integers written in full, and short decimals read back. f32s take the
// same steps over their own rounding interval (every one of the 2^32 bit
// patterns was checked against std::to_chars once; here a sample and every
// exponent's edges).
#include "rtlib/shortest_double.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <random>
#include <string>

#include "rtlib/text.hpp"

using namespace polyrt;

namespace {

void expect_as_to_chars(double x) {
  char want[64], got[64];
  const std::string expected(want, std::to_chars(want, want + sizeof want, x).ptr);
  ASSERT_EQ(std::string(got, rt::write_shortest_finite(got, x)), expected) << std::hexfloat << x;
}

void expect_f32_as_to_chars(float x) {
  char want[64], got[64];
  const std::string expected(want, std::to_chars(want, want + sizeof want, x).ptr);
  ASSERT_EQ(std::string(got, rt::write_f32_shortest_finite(got, x)), expected)
      << std::hexfloat << x;
}

}  // namespace

TEST(ShortestFloat, EqualsToCharsOnRandomBitsAndEveryExponentsEdges) {
  std::mt19937 rng(43);
  for (int i = 0; i < 400000; ++i) {
    const float x = std::bit_cast<float>((uint32_t)rng());
    if (std::isfinite(x)) expect_f32_as_to_chars(x);
  }
  for (uint32_t biased = 0; biased < 255; ++biased) {
    for (uint32_t fraction : {0u, 1u, 2u, (1u << 23) - 1, 1u << 22, 12345u}) {
      const float x = std::bit_cast<float>(biased << 23 | fraction);
      expect_f32_as_to_chars(x);
      expect_f32_as_to_chars(-x);
    }
  }
  // Integers written in full in fixed form (123456792, not 123456790).
  for (float x : {123456789.0f, 16777217.0f, 3.4028235e38f, 1e-45f, 0.1f, 1e21f, 1e22f}) {
    expect_f32_as_to_chars(x);
  }
}

TEST(ShortestDouble, EqualsToCharsOnRandomBits) {
  std::mt19937_64 rng(41);
  for (int i = 0; i < 400000; ++i) {
    const double x = std::bit_cast<double>(rng());
    if (std::isfinite(x)) expect_as_to_chars(x);
  }
}

TEST(ShortestDouble, EqualsToCharsAtEveryExponentsEdges) {
  for (uint64_t biased = 0; biased < 2047; ++biased) {
    const uint64_t power = biased << 52;
    for (uint64_t fraction : {0ULL, 1ULL, 2ULL, (1ULL << 52) - 1, 1ULL << 51, 12345ULL}) {
      const double x = std::bit_cast<double>(power | fraction);
      expect_as_to_chars(x);
      expect_as_to_chars(-x);
    }
  }
}

TEST(ShortestDouble, EqualsToCharsOnShortDecimalsAndIntegers) {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 200000; ++i) {
    // d digits at any exponent: the case where a shorter candidate exists.
    const int digits = 1 + (int)(rng() % 17);
    uint64_t mantissa = rng() % 100000000000000000ULL;
    while (rt::u64_digits(mantissa) > digits) mantissa /= 10;
    const std::string text =
        std::to_string(mantissa) + "e" + std::to_string((int)(rng() % 640) - 330);
    double x = 0;
    std::from_chars(text.data(), text.data() + text.size(), x);
    if (std::isfinite(x)) expect_as_to_chars(x);
    // Integers up to 2^80: fixed form spells every digit of the value.
    expect_as_to_chars(std::ldexp((double)(rng() >> 11), (int)(rng() % 28)));
    expect_as_to_chars((double)(rng() % 1000000));
  }
  for (double x : {0.0, -0.0, 1e22, 1e21, 1e23, 1e-4, 1e-5, 123456.0, 1e15, 1e16, 1e17, 5e-324,
                   1.7976931348623157e308, 2.2250738585072014e-308, 0.1, 0.3, 9007199254740992.0,
                   9007199254740994.0, 0.30000000000000004}) {
    expect_as_to_chars(x);
  }
}

TEST(ShortestDouble, DigitsHaveNoTrailingZeros) {
  const rt::DecimalDigits hundred = rt::shortest_decimal(100.0);
  EXPECT_EQ(hundred.digits, 1u);
  EXPECT_EQ(hundred.exponent, 2);
  const rt::DecimalDigits tenth = rt::shortest_decimal(0.1);
  EXPECT_EQ(tenth.digits, 1u);
  EXPECT_EQ(tenth.exponent, -1);
  const rt::DecimalDigits smallest = rt::shortest_decimal(5e-324);
  EXPECT_EQ(smallest.digits, 5u);
  EXPECT_EQ(smallest.exponent, -324);
}
