// Golden vectors of the language reference (section 5) and edge cases of
// every node family.
#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

#include "nodes/registry.hpp"
#include "rtlib/rtlib.h"
#include "rtlib/small_decimals.hpp"
#include "rtlib/text.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

uint64_t u(const std::string& expr, uint64_t x = 0) {
  return eval_expr(expr, x).as_u64();
}
double f(const std::string& expr, uint64_t x = 0) {
  return eval_expr(expr, x).as_f64();
}
std::string s(const std::string& expr, uint64_t x = 0) {
  return eval_expr(expr, x).as_str();
}

// How many of x = 0 .. count-1 give `expr` the value `want`, from one
// compiled program (compiling one per sample took most of the suite's time).
template <typename Wanted>
uint64_t count_of(const std::string& expr, uint64_t count, const Wanted& want) {
  const auto program = compile("input x\nv := " + expr + "\n");
  State state = program->new_state();
  uint64_t hits = 0;
  for (uint64_t x = 0; x < count; ++x) {
    state.set_inputs({x});
    const Value v = state.pull("v");
    if constexpr (std::is_convertible_v<Wanted, std::string>) {
      hits += v.as_str() == want;
    } else {
      hits += v.as_u64() == want;
    }
  }
  return hits;
}
uint64_t bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

TEST(Nodes, HashReadmeTable) {
  const uint64_t hashes[] = {0xe220a8397b1dcdafULL, 0x910a2dec89025cc1ULL, 0x975835de1c9756ceULL,
                             0x1d0b14e4db018fedULL, 0x6e73e372e2338acaULL};
  const uint64_t users[] = {607535, 822465, 348110, 139053, 603978};
  const uint64_t buckets[] = {47, 1, 14, 45, 10};
  const double units[] = {0.88331080821364272, 0.56656157517228101, 0.59118973419807952,
                          0.11345034205715465, 0.43145581774497382};
  for (uint64_t c = 0; c < 5; ++c) {
    EXPECT_EQ(u("hash(x)", c), hashes[c]);
    EXPECT_EQ(u("mod(hash(x), 1000000)", c), users[c]);
    EXPECT_EQ(u("hash(x) % 64", c), buckets[c]);
    EXPECT_DOUBLE_EQ(f("unit_interval(hash(x))", c), units[c]);
  }
  EXPECT_EQ(u("mod(hash(x), 1000000)", 42), 275413u);
  EXPECT_EQ(u("mod(hash(x), 1000000)", 200000), 70708u);
  EXPECT_EQ(u("mod(hash(x), 1000000)", 200001), 145486u);
  EXPECT_EQ(u("mod(hash(x), 1000000)", 499999), 795364u);
  EXPECT_NEAR(f("unit_interval(hash(hash(x)))", 45), 0.019101, 1e-6);
  EXPECT_NEAR(f("unit_interval(hash(hash(hash(x))))", 45), 0.155169, 1e-6);
  const uint64_t coins[] = {1, 1, 0, 1, 0, 0, 0, 1};
  for (uint64_t c = 0; c < 8; ++c) EXPECT_EQ(u("fair_coin(x)", c), coins[c]) << c;
}

TEST(Nodes, HashFamily) {
  EXPECT_EQ(u("hash_range(x, 1000)", 9), pd_hash(9) % 1000);
  EXPECT_EQ(u("hash_range(x, 0)", 9), 0u);
  EXPECT_EQ(f("hash_interval(x, 1.0, 100.0)", 3), 1.0 + pd_unit_interval(pd_hash(3)) * 99.0);
  EXPECT_NEAR(count_of("unfair_coin(x, 0.25)", 2000, 1u) / 2000.0, 0.25, 0.03);
  EXPECT_EQ(u("unfair_coin(x, 0.0)", 5), 0u);
  EXPECT_EQ(u("unfair_coin(x, 1)", 5), 1u);
}

TEST(Nodes, UnitIntervalTop) {
  EXPECT_EQ(f("unit_interval(x)", ~0ULL), 1.0);
  EXPECT_EQ(f("unit_interval(x)", ~0ULL - 1023), 1.0);
  EXPECT_LT(f("unit_interval(x)", ~0ULL - 1024 - 2048), 1.0);
  EXPECT_EQ(f("unit_interval(x)", 0), 0.0);
  EXPECT_EQ(f("scale_range(x, 10.0, 20.0)", ~0ULL), 20.0);
}

TEST(Nodes, IntegerArithmetic) {
  EXPECT_EQ(u("x + 1", ~0ULL), 0u);
  EXPECT_EQ(u("x - 1", 0), ~0ULL);
  EXPECT_EQ(u("x * 3", 1ULL << 63), 1ULL << 63);
  EXPECT_EQ(u("add(x, 5)", ~0ULL), 4u);
  EXPECT_EQ(u("mul(x, 4)", 1ULL << 62), 0u);
  EXPECT_EQ(u("div(x, 7)", 50), 7u);
  EXPECT_EQ(u("clamp(x, 10, 20)", 5), 10u);
  EXPECT_EQ(u("clamp(x, 10, 20)", 50), 20u);
  EXPECT_EQ(u("interleave(x, 0)", 0xffffffffULL), 0x5555555555555555ULL);
  EXPECT_EQ(u("interleave(0, x)", 0xffffffffULL), 0xaaaaaaaaaaaaaaaaULL);
  EXPECT_EQ(u("interleave(x, x)", 0xffffffff00000000ULL), 0u);  // high halves are ignored
  EXPECT_EQ(u("sum(x, 2, 3)", ~0ULL), 4u);
  EXPECT_EQ(u("sum()"), 0u);
  EXPECT_EQ(u("min()"), ~0ULL);
  EXPECT_EQ(u("max(x, 9, 4)", 2), 9u);
  EXPECT_EQ(u("min(x, 9, 4)", 2), 2u);
}

TEST(Nodes, MixedRadix) {
  auto p = compile(
      "input x\n(a, b) := mixed_radix(x, 100, 0)\n(c, d, e) := mixed_radix(x, 10, 10, 10)\n");
  State st = p->new_state();
  st.set_inputs({12345});
  EXPECT_EQ(st.pull("a").as_u64(), 45u);
  EXPECT_EQ(st.pull("b").as_u64(), 123u);
  EXPECT_EQ(st.pull("c").as_u64(), 5u);
  EXPECT_EQ(st.pull("d").as_u64(), 4u);
  EXPECT_EQ(st.pull("e").as_u64(), 3u);
}

TEST(Nodes, ShiftsAreMasked) {
  EXPECT_EQ(u("x << 64", 5), 5u);
  EXPECT_EQ(u("x << 65", 5), 10u);
  EXPECT_EQ(u("x >> 64", 5), 5u);
  EXPECT_EQ(u("x >> 1", 1ULL << 63), 1ULL << 62);  // logical
  EXPECT_EQ(u("!x", 0), ~0ULL);
  EXPECT_EQ(u("(x & 12) | (x ^ 3)", 10), (10u & 12u) | (10u ^ 3u));
}

TEST(Nodes, DivisionByZeroRules) {
  EXPECT_EQ(u("x / 0", 7), 0u);
  EXPECT_EQ(u("x % 0", 7), 0u);
  EXPECT_EQ(u("x / (x - 7)", 7), 0u);
  EXPECT_EQ(f("to_f64(x) / 0.0", 7), 0.0);
  EXPECT_EQ(f("to_f64(x) % 0.0", 7), 0.0);
  EXPECT_EQ(f("to_f64(x) / -0.0", 7), 0.0);
  // A zero modulus or divisor fails every row: refused when compiling.
  EXPECT_NE(
      compile_error("input x\nv := mod(x, 0)\n")
          .find(
              "t.polydat:2:13: error: bad argument of 'mod': modulus 0 would fail on every input"),
      std::string::npos);
  EXPECT_THROW(eval_expr("div(x, 0)", 3), CompileError);
}

TEST(Nodes, SaturatingConversions) {
  EXPECT_EQ(u("f64_to_u64(to_f64(x) - 10.5)", 3), 0u);
  EXPECT_EQ(u("f64_to_u64(to_f64(x) * 1e30)", 3), ~0ULL);
  EXPECT_EQ(u("f64_to_u64(sqrt(0.0 - to_f64(x)))", 3), 0u);  // NaN
  EXPECT_EQ(u("f64_to_u64(to_f64(x) + 0.99)", 3), 3u);
  EXPECT_EQ(u("f64_to_u64(18446744073709549568.0 + to_f64(x))", 0), 18446744073709549568ULL);
  EXPECT_EQ(u("round_to_u64(to_f64(x) + 0.5)", 2), 3u);
  EXPECT_EQ(u("round_to_u64(to_f64(x) + 0.49)", 2), 2u);
  EXPECT_EQ(u("round_to_u64(to_f64(x) - 0.5)", 0), 0u);
  EXPECT_EQ(u("floor_to_u64(to_f64(x) + 0.9)", 2), 2u);
  EXPECT_EQ(u("floor_to_u64(to_f64(x) - 0.5)", 0), 0u);
  EXPECT_EQ(u("ceil_to_u64(to_f64(x) + 0.1)", 2), 3u);
  EXPECT_EQ(u("ceil_to_u64(to_f64(x) - 0.5)", 0), 0u);
  EXPECT_EQ(u("ceil_to_u64(to_f64(x) * 1e300)", 1), ~0ULL);
  EXPECT_EQ(f("to_f64(x)", ~0ULL), 18446744073709551616.0);
}

TEST(Nodes, NanAndNegativeZero) {
  const std::string nan = "sqrt(0.0 - 1.0 - to_f64(x))";
  EXPECT_EQ(u(nan + " == " + nan), 0u);
  EXPECT_EQ(u(nan + " != " + nan), 1u);
  EXPECT_EQ(u(nan + " < 1.0"), 0u);
  EXPECT_EQ(u(nan + " >= 1.0"), 0u);
  EXPECT_EQ(u("(0.0 - to_f64(x)) == 0.0"), 1u);  // -0.0 == 0.0
  EXPECT_EQ(u("(0.0 - to_f64(x)) < 0.0"), 0u);
  EXPECT_TRUE(std::isnan(f("clamp_f64(" + nan + ", 0.0, 1.0)")));
  EXPECT_EQ(bits(f("clamp_f64(to_f64(x) * -1.0, 0.0, 1.0)")), bits(-0.0));  // -0.0 is kept
  EXPECT_EQ(f("clamp_f64(to_f64(x), 0.0, 1.0)", 5), 1.0);
  EXPECT_EQ(f("clamp_f64(-to_f64(x), -2.0, 1.0)", 5), -2.0);
  EXPECT_EQ(bits(f("-to_f64(x)")), bits(0.0));  // unary minus is f64_sub(0.0, x)
  EXPECT_EQ(f("abs_f64(-to_f64(x))", 3), 3.0);
}

TEST(Nodes, FloatArithmetic) {
  EXPECT_EQ(f("to_f64(x) % 2.0 - 5.5", 0), -5.5);
  EXPECT_EQ(f("(to_f64(x) - 5.5) % 2.0", 0), -1.5);
  EXPECT_EQ(f("to_f64(x) % 0.1", 1), std::fmod(1.0, 0.1));
  EXPECT_EQ(f("(to_f64(x) * 1e300) % 3.0", 7), std::fmod(7e300, 3.0));
  EXPECT_EQ(f("(to_f64(x) * 5e-324) % 3e-324", 1), std::fmod(5e-324, 3e-324));
  EXPECT_EQ(f("lerp(to_f64(x), 10.0, 20.0)", 2), 30.0);
  EXPECT_EQ(f("lerp(0.25 + to_f64(x))"), 0.25);
  EXPECT_EQ(f("x ** 2", 3), 9.0);
  EXPECT_EQ(f("pow(to_f64(x), 0.5)", 4), 2.0);
  EXPECT_EQ(u("select_u64(x, 1, 2)", 0), 2u);
  EXPECT_EQ(f("if(x, 1, 2.5)", 1), 1.0);
  EXPECT_EQ(s("if(x > 3, \"big\", x)", 2), "2");
}

TEST(Nodes, PowSpecialCases) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(pd_pow(std::nan(""), 0.0), 1.0);
  EXPECT_EQ(pd_pow(1.0, std::nan("")), 1.0);
  EXPECT_TRUE(std::isnan(pd_pow(-2.0, 0.5)));
  EXPECT_EQ(pd_pow(-2.0, 3.0), -8.0);
  EXPECT_EQ(pd_pow(-2.0, 2.0), 4.0);
  EXPECT_EQ(pd_pow(0.0, -1.0), inf);
  EXPECT_EQ(pd_pow(-0.0, -3.0), -inf);
  EXPECT_EQ(pd_pow(-inf, 3.0), -inf);
  EXPECT_EQ(pd_pow(0.5, inf), 0.0);
  EXPECT_EQ(pd_pow(2.0, -inf), 0.0);
  EXPECT_EQ(pd_pow(-1.0, inf), 1.0);
  EXPECT_EQ(pd_pow(10.0, 400.0), inf);
  EXPECT_EQ(pd_pow(10.0, -400.0), 0.0);
  EXPECT_EQ(pd_pow(2.0, -1074.0), 5e-324);
  EXPECT_EQ(pd_pow(2.0, 1023.0), 0x1p1023);
}

TEST(Nodes, Distributions) {
  EXPECT_NEAR(f("dist_normal(0.5 + to_f64(x), 10.0, 2.0)"), 10.0, 2 * 4.5e-4);
  EXPECT_NEAR(f("dist_normal(0.975 + to_f64(x), 0.0, 1.0)"), 1.96, 4.5e-3);
  EXPECT_EQ(f("dist_normal(-1.0 + to_f64(x), 0.0, 1.0)"),
            f("dist_normal(0.001 + to_f64(x), 0.0, 1.0)"));
  EXPECT_EQ(f("dist_uniform(0.25 + to_f64(x), 10.0, 20.0)"), 12.5);
  EXPECT_NEAR(f("dist_exponential(0.5 + to_f64(x), 2.0)"), std::log(2.0) / 2.0, 1e-15);
  EXPECT_EQ(f("dist_zipf(to_f64(x), 100, 1.0)"), 1.0);
  EXPECT_EQ(f("dist_zipf(1.0 + to_f64(x), 100, 1.0)"), 100.0);
  double total = 0;
  for (uint64_t c = 0; c < 200; ++c)
    total += f("dist_normal(unit_interval(hash(x)), 50.0, 5.0)", c);
  EXPECT_NEAR(total / 200, 50.0, 1.5);
}

TEST(Nodes, WeightedSelection) {
  EXPECT_NEAR(count_of("weighted_u64(hash(x), \"1:1;2:3\")", 4000, 1u) / 4000.0, 0.25, 0.03);
  EXPECT_NEAR(count_of("one_of_weighted(x, \"ana:1,bo:3\")", 4000, "ana") / 4000.0, 0.25, 0.03);
  const char* names[] = {"a", "b", "c"};
  for (uint64_t c = 0; c < 10; ++c)
    EXPECT_EQ(s("one_of(x, \"a\", \"b\", \"c\")", c), names[pd_hash(c) % 3]);
  EXPECT_EQ(u("weighted_u64(x, \"7:1\")", 12345), 7u);
}

TEST(Nodes, Formatting) {
  EXPECT_EQ(s("format_u64(x, 16)", 255), "0xff");
  EXPECT_EQ(s("format_u64(x, 2)", 5), "0b101");
  EXPECT_EQ(s("format_u64(x, 8)", 8), "0o10");
  EXPECT_EQ(s("format_u64(x)", 8), "8");
  EXPECT_EQ(s("format_f64(0.295 + to_f64(x), 2)"), "0.29");
  EXPECT_EQ(s("format_f64(2.5 + to_f64(x), 0)"), "2");
  EXPECT_EQ(s("format_f64(to_f64(x))", 3), "3.00");
  EXPECT_EQ(s("zero_pad_u64(x, 4)", 42), "0042");
  EXPECT_EQ(s("zero_pad_u64(x, 2)", 12345), "12345");
  EXPECT_EQ(s("printf(\"{:05}|{:8}|{:x}|{:X}|{:b}|{:o}\", x, x, x, x, x, x)", 42),
            "00042|      42|2a|2A|101010|52");
  EXPECT_EQ(s("printf(\"{:.2} {} {}\", 3.14159 + to_f64(x), 1.0 + to_f64(x), 1e16 + to_f64(x))"),
            "3.14 1.0 1e16");
  EXPECT_EQ(s("printf(\"{} {} {}\", 1.5e-7 + to_f64(x), 0.1 + to_f64(x), to_f64(x) * -1.0)"),
            "1.5e-7 0.1 -0.0");
  EXPECT_EQ(s("printf(\"{{{}}}\", x)", 7), "{7}");
  EXPECT_EQ(s("\"id={x}\"", 7), "id=7");
  EXPECT_EQ(s("\"a\" + x + 1.0 + \"b\"", 7), "a71b");
  EXPECT_EQ(s("str_concat(1e21 + to_f64(x))"), "1000000000000000000000");
  EXPECT_EQ(s("x as str", 12), "12");
  EXPECT_EQ(u("(\"12\" + \"3\") as u64"), 123u);
  EXPECT_EQ(s("\"12\" + \"3\" as u64"), "123");  // as binds to the atom
  EXPECT_THROW(eval_expr("printf(\"n{}\", x) as u64", 1), EvalError);
  EXPECT_EQ(u("\"a\" == x as str", 0), 0u);
  EXPECT_EQ(u("\"7\" == x", 7), 1u);
}

TEST(Nodes, Combinations) {
  EXPECT_EQ(s("combinations(x, \"A-Z;0-9\")", 0), "A0");
  EXPECT_EQ(s("combinations(x, \"A-Z;0-9\")", 27), "B1");
  EXPECT_EQ(s("combinations(x, \"A-Z;0-9\")", 260), "A0");  // wraps at 26 * 10
  EXPECT_EQ(s("combinations(x, \"a-c;-;x\")", 2), "c-x");
}

// The inlined decimal writer against std::to_chars at every digit count's
// edges (10^k - 1, 10^k, the 8- and 16-digit block seams) and at random.
TEST(Nodes, DecimalWriterMatchesToChars) {
  std::vector<uint64_t> xs = {0, ~0ULL, ~0ULL - 1};
  for (uint64_t p = 1; p <= 10000000000000000000ULL; p *= 10) {
    for (uint64_t d : {p - 1, p, p + 1}) xs.push_back(d);
    if (p == 10000000000000000000ULL) break;
  }
  std::mt19937_64 rng(5);
  for (int i = 0; i < 100000; ++i) xs.push_back(rng() >> (rng() % 64));
  // Every short number's fixed-point digits up to 10^6, then a stride to 10^8
  // and the 8-digit heads of longer numbers.
  for (uint64_t x = 0; x < 1000000; ++x) xs.push_back(x);
  for (uint64_t x = 1000000; x < 100000000; x += 997) {
    xs.push_back(x);
    xs.push_back(x * 100000000 + 12345678);
  }
  for (uint64_t x : xs) {
    char want[24], got[24], padded[32];
    const std::string expected(want, std::to_chars(want, want + 24, x).ptr);
    ASSERT_EQ(std::string(got, rt::write_u64(got, x)), expected);
    ASSERT_EQ(rt::u64_digits(x), (int)expected.size()) << x;
    for (uint64_t width : {0, 1, 2, 5, 7, 8, 9, 22}) {
      const std::string zero_padded(padded, rt::write_u64_zero_pad(padded, x, width));
      ASSERT_EQ(zero_padded,
                std::string(width > expected.size() ? width - expected.size() : 0, '0') + expected)
          << x << " width " << width;
    }
  }
}

// The digit-pair writers write the general writers' bytes: every value
// below 100,000 and values at every power of ten's edge.
TEST(Nodes, SmallDecimalsEqualTheGeneralWriters) {
  std::vector<uint64_t> values;
  for (uint64_t x = 0; x < 100000; ++x) values.push_back(x);
  for (uint64_t power = 10; power < UINT64_MAX / 10; power *= 10) {
    values.insert(values.end(), {power - 1, power, power + 1});
  }
  values.push_back(UINT64_MAX);
  char got[64], want[64];
  for (uint64_t x : values) {
    ASSERT_EQ(std::string(got, rt::write_decimal(got, x)),
              std::string(want, rt::write_u64(want, x)))
        << x;
    ASSERT_EQ(std::string(got, rt::write_two_digits(got, x)),
              std::string(want, rt::write_u64_zero_pad(want, x, 2)))
        << x;
  }
}

// Fixed decimals come from exact one-word (up to 3 decimals) or 128-bit
// arithmetic when the value fits (a faster path than std::to_chars), else
// from exact limbs: the same text as
// std::to_chars for every kind of double: random bit patterns, values near
// the 2^64 bound, exact ties of the rounding (k + 1/2) / 10^p, zeros,
// subnormals.
TEST(Nodes, FixedDecimalsEqualToChars) {
  std::mt19937_64 rng(11);
  std::vector<double> values = {0.0,    -0.0, 0.125,  0.375, 2.5,   -2.5,  0.295, 1e-300,
                                5e-324, 1e19, 1.8e19, 1e20,  -1e20, 1e300, 0.005, 0.015};
  for (int i = 0; i < 20000; ++i) {
    values.push_back(std::bit_cast<double>(rng()));
    values.push_back((double)(rng() >> (rng() % 64)) / (double)(1ULL << (rng() % 40)));
    values.push_back(((double)(rng() % 100000) + 0.5) / std::pow(10.0, (double)(rng() % 10)));
  }
  // Where the one-word path for up to 3 decimals shifts by 62 to 65 bits.
  for (int e = -65; e <= -62; ++e) {
    for (double m : {0x1p52, 0x1.8p52, 0x1.fffffffffffffp52}) values.push_back(std::ldexp(m, e));
  }
  // Past 2^64 or 9 decimals the exact product in limbs (fixed_decimal.h)
  // writes them: up to 12 decimals for every value, 30 for some, and the longest texts
  // (1074 decimals of the smallest subnormal, 309 digits of the largest
  // double) for some.
  const auto expect_to_chars = [](double x, int precision) {
    std::vector<char> got(rt::f64_fixed_bound(precision) + 8), want(got.size());
    const std::string text(got.data(), rt::write_f64_fixed(got.data(), x, precision));
    const std::string expected(want.data(), std::to_chars(want.data(), want.data() + want.size(), x,
                                                          std::chars_format::fixed, precision)
                                                .ptr);
    ASSERT_EQ(text, expected) << std::hexfloat << x << " precision " << precision;
  };
  for (size_t i = 0; i < values.size(); ++i) {
    const double x = values[i];
    if (!std::isfinite(x)) continue;
    for (int precision = 0; precision <= (i % 5 == 0 ? 30 : 12); ++precision) {
      expect_to_chars(x, precision);
    }
    if (i % 97 == 0) {
      for (int precision : {100, 340, 1074}) expect_to_chars(x, precision);
    }
  }
  for (double x : {5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -1e308, 0.5,
                   1.5, 2.5, 1e22, 1e23, 9007199254740993.0, 0.1}) {
    for (int precision : {0, 1, 17, 20, 21, 324, 767, 1074}) expect_to_chars(x, precision);
  }
}

// The digits come from multiplies (Lemire's remainders when the combinations
// fit 32 bits, estimated quotients with corrections when they pass 32 or 64
// bits): the same characters as dividing, for charset sizes up to 256, up to
// 48 charsets and any x, at each digit's edges too.
TEST(Nodes, CombinationsReciprocalsEqualDivision) {
  std::string all(256, ' ');
  for (int c = 0; c < 256; ++c) all[c] = (char)c;
  std::mt19937_64 rng(3);
  // Besides random patterns, numbers of combinations at the edges of the
  // one-fraction form (at most 2^63) and of the groups (past it, saturated).
  auto repeated = [](const std::string& charset, int times, const std::string& last = "") {
    std::string pattern = charset;
    for (int k = 1; k < times; ++k) pattern += ";" + charset;
    return last.empty() ? pattern : pattern + ";" + last;
  };
  const std::vector<std::string> edge_patterns = {
      repeated("0-1", 63),        repeated("0-1", 64),      repeated("0-1", 62, "a-c"),
      repeated("0-1", 61, "a-c"), repeated("a-c", 39),      repeated("a-z", 13),
      repeated("a-z", 14),        repeated("\x01-\xff", 8), repeated("a-z", 6)};
  for (int round = 0; round < 200 + (int)edge_patterns.size(); ++round) {
    rt::Combinations combinations;
    std::string pattern = round >= 200 ? edge_patterns[round - 200] : "";
    // Up to 4 charsets, up to 12 (past 32 and 64 bits), or up to 48 (groups
    // whose base passes 2^64 and 2^128).
    const size_t most = round % 3 == 0 ? 4 : round % 3 == 1 ? 12 : 48;
    for (size_t k = pattern.empty() ? 1 + rng() % most : 0; k > 0; --k) {
      const size_t size = round % 2 ? 1 + rng() % 256 : 1 + rng() % 16;
      const size_t lo = rng() % (257 - size);
      pattern += (pattern.empty() ? "" : ";") + std::string(1, (char)lo) +
                 (size > 1 ? "-" + std::string(1, (char)(lo + size - 1)) : "");
    }
    std::string error;
    if (!rt::parse_combinations(pattern, combinations, error)) continue;  // a ';' in a range
    // The edges of each digit: multiples of a place and the value just
    // below them, where a reciprocal's error would first show.
    std::vector<uint64_t> edges;
    __extension__ unsigned __int128 place = 1;
    for (const std::string& set : combinations.charsets) {
      if (place > ~0ULL) break;
      const auto at = (uint64_t)place * (1 + rng() % set.size());
      edges.insert(edges.end(), {at - 1, at, (uint64_t)place * set.size() - 1});
      place *= set.size();
    }
    // And around multiples of the number of combinations.
    if (const uint64_t m = combinations.modulus; m > 1) {
      const uint64_t last = ~0ULL / m * m;
      edges.insert(edges.end(), {m - 1, m, m + 1, last - 1, last});
    }
    for (int i = 0; i < 200 + (int)edges.size(); ++i) {
      const uint64_t x = i >= 200 ? edges[i - 200] : i == 0 ? ~0ULL : rng() >> (rng() % 64);
      char got[80];
      const std::string text(got, rt::write_combinations(got, x, combinations));
      uint64_t v = combinations.modulus ? x % combinations.modulus : x;
      std::string want;
      for (const std::string& set : combinations.charsets) {
        want.push_back(set[v % set.size()]);
        v /= set.size();
      }
      ASSERT_EQ(text, want) << "pattern of " << combinations.charsets.size() << " sets, x " << x;
    }
  }
}

TEST(Nodes, Predicates) {
  EXPECT_EQ(u("in_range(x, 1, 64)", 64), 64u);
  EXPECT_THROW(eval_expr("in_range(x, 1, 64)", 65), EvalError);
  EXPECT_THROW(eval_expr("in_range(x, 1, 64)", 0), EvalError);
  EXPECT_EQ(u("is_positive(x)", 3), 3u);
  EXPECT_THROW(eval_expr("is_positive(x, \"workers\")", 0), EvalError);
  EXPECT_EQ(u("is_one_of(x, 2, 4)", 4), 4u);
  EXPECT_THROW(eval_expr("is_one_of(x, 2, 4)", 3), EvalError);
}

TEST(Nodes, EveryRegisteredNodeHasDocsAndAnImplementation) {
  for (const nodes::NodeDef* d : nodes::all_nodes()) {
    EXPECT_FALSE(d->summary.empty()) << d->name;
    EXPECT_TRUE(d->eval != nullptr || d->table_pick) << d->name;
    EXPECT_EQ(d->can_fail, !d->failure.empty()) << d->name;
  }
}

// polydat's interpolation helpers: inv_lerp clamps (NaN passes), remap does
// not, quantize rounds half away from zero and keeps the sign of zero.
TEST(Nodes, InterpolationHelpers) {
  EXPECT_EQ(f("inv_lerp(to_f64(x), 10.0, 20.0)", 15), 0.5);
  EXPECT_EQ(f("inv_lerp(to_f64(x), 10.0, 20.0)", 5), 0.0);
  EXPECT_EQ(f("inv_lerp(to_f64(x), 10.0, 20.0)", 50), 1.0);
  EXPECT_TRUE(std::isnan(f("inv_lerp(sqrt(0.0 - to_f64(x) - 1.0), 0.0, 1.0)", 1)));
  EXPECT_EQ(f("remap(to_f64(x), 32.0, 212.0, 0.0, 100.0)", 72), (72.0 - 32.0) / 180.0 * 100.0);
  EXPECT_EQ(f("remap(to_f64(x), 0.0, 10.0, 0.0, 1.0)", 20), 2.0);  // extrapolates
  EXPECT_EQ(f("quantize(to_f64(x), 10.0)", 15), 20.0);             // half away from zero
  EXPECT_EQ(f("quantize(to_f64(x), 10.0)", 14), 10.0);
  EXPECT_EQ(f("quantize(0.0 - to_f64(x), 10.0)", 15), -20.0);
  EXPECT_EQ(f("quantize(to_f64(x) / 10.0, 0.25)", 13), 1.25);
  EXPECT_TRUE(std::signbit(f("quantize(0.0 - to_f64(x) / 10.0, 1.0)", 3)));  // -0.0
  EXPECT_EQ(f("quantize(to_f64(x), 1.0)", (1ULL << 60) + 1), (double)((1ULL << 60) + 1));
}

// polydat's wire-operand arithmetic: a zero divisor fails the row (polydat
// panics), the rounding helpers saturate or fall back as documented.
TEST(Nodes, WireArithmetic) {
  EXPECT_EQ(u("mod_wire(x, 7)", 100), 2u);
  EXPECT_EQ(u("div_wire(x, 7)", 100), 14u);
  EXPECT_THROW(eval_expr("mod_wire(x, x - x)", 5), EvalError);
  EXPECT_THROW(eval_expr("div_wire(x, x - x)", 5), EvalError);
  EXPECT_EQ(u("ceil_to_multiple(x, 8)", 17), 24u);
  EXPECT_EQ(u("ceil_to_multiple(x, 8)", 16), 16u);
  EXPECT_EQ(u("ceil_to_multiple(x, x - x)", 17), 17u);
  EXPECT_EQ(u("ceil_to_multiple(x, 7)", ~0ULL), ~0ULL);  // saturates
  EXPECT_EQ(u("multiples_at_least(x, 8)", 17), 3u);
  EXPECT_EQ(u("multiples_at_least(x, x - x)", 17), 0u);
  EXPECT_EQ(u("set_or_get(x, 9)", 0), 9u);
  EXPECT_EQ(u("set_or_get(x, 9)", 4), 4u);
  EXPECT_EQ(u("product(x, 3, x)", ~0ULL), 3u);  // wrapping
  EXPECT_EQ(u("product()", 0), 1u);
}

}  // namespace
}  // namespace polyrt::test
