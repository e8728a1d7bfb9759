// Accuracy of polyrt's own transcendental functions against long double libm.
// The bounds asserted here are the figures docs/nodes.md publishes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "rtlib/ln_vector.h"
#include "rtlib/rtlib.h"

namespace {

double ulp_error(double got, long double want) {
  if (std::isnan((double)want)) return std::isnan(got) ? 0.0 : 1e9;
  const double w = (double)want;
  if (std::isinf(w)) return got == w ? 0.0 : 1e9;
  const double spacing = std::nextafter(std::fabs(w), INFINITY) - std::fabs(w);
  return (double)(std::fabs((long double)got - want) / spacing);
}

struct Case {
  const char* name;
  double (*mine)(double);
  long double (*reference)(long double);
  double lo, hi;
  bool log_scale;
  double bound_ulp;
};

double max_error(const Case& c, int samples, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  double worst = 0;
  for (int i = 0; i < samples; ++i) {
    double x;
    if (c.log_scale) {
      const double e = std::log2(c.lo) + uniform(rng) * (std::log2(c.hi) - std::log2(c.lo));
      x = std::exp2(e) * (rng() & 1 ? 1.0 : -1.0);
    } else {
      x = c.lo + uniform(rng) * (c.hi - c.lo);
    }
    worst = std::max(worst, ulp_error(c.mine(x), c.reference((long double)x)));
  }
  return worst;
}

long double ref_exp(long double x) {
  return expl(x);
}
long double ref_ln(long double x) {
  return logl(x);
}
long double ref_sin(long double x) {
  return sinl(x);
}
long double ref_cos(long double x) {
  return cosl(x);
}
long double ref_tan(long double x) {
  return tanl(x);
}
long double ref_atan(long double x) {
  return atanl(x);
}
long double ref_asin(long double x) {
  return asinl(x);
}
long double ref_acos(long double x) {
  return acosl(x);
}
long double ref_sqrt(long double x) {
  return sqrtl(x);
}
double abs_ln(double x) {
  return pd_ln(std::fabs(x));
}
double abs_ln_vector(double x) {
  return pd_ln_vector(std::fabs(x));
}
double ln_vector(double x) {
  return pd_ln_vector(x);
}
long double ref_abs_ln(long double x) {
  return logl(fabsl(x));
}

TEST(MathAccuracy, WithinPublishedUlpBounds) {
  const Case cases[] = {
      {"exp", pd_exp, ref_exp, -745.0, 709.7, false, 1.0},
      {"exp small", pd_exp, ref_exp, -1.0, 1.0, false, 1.0},
      {"ln", abs_ln, ref_abs_ln, 1e-300, 1e300, true, 1.0},
      {"ln near 1", pd_ln, ref_ln, 0.5, 2.0, false, 1.0},
      {"ln_vector", abs_ln_vector, ref_abs_ln, 1e-300, 1e300, true, 1.0},
      {"ln_vector subnormal", abs_ln_vector, ref_abs_ln, 4.9e-324, 2.3e-308, true, 1.0},
      {"ln_vector near 1", ln_vector, ref_ln, 0.5, 2.0, false, 1.0},
      {"sqrt", pd_sqrt, ref_sqrt, 0.0, 1e6, false, 0.5},
      {"sin", pd_sin, ref_sin, -10.0, 10.0, false, 1.0},
      {"sin large", pd_sin, ref_sin, 1.0, 1e300, true, 1.0},
      {"cos", pd_cos, ref_cos, -10.0, 10.0, false, 1.0},
      {"cos large", pd_cos, ref_cos, 1.0, 1e300, true, 1.0},
      {"tan", pd_tan, ref_tan, -10.0, 10.0, false, 2.5},
      {"tan large", pd_tan, ref_tan, 1.0, 1e300, true, 2.5},
      {"atan", pd_atan, ref_atan, 1e-10, 1e10, true, 1.5},
      {"asin", pd_asin, ref_asin, -1.0, 1.0, false, 2.5},
      {"acos", pd_acos, ref_acos, -1.0, 1.0, false, 2.0},
  };
  for (const Case& c : cases) {
    const double worst = max_error(c, 200000, 42);
    std::printf("%-10s max error %.3f ulp\n", c.name, worst);
    EXPECT_LE(worst, c.bound_ulp) << c.name;
  }
}

TEST(MathAccuracy, PowWithinBound) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> base(0.0, 100.0), expo(-150.0, 150.0);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = base(rng), y = expo(rng);
    worst = std::max(worst, ulp_error(pd_pow(x, y), powl((long double)x, (long double)y)));
  }
  std::printf("pow        max error %.3f ulp\n", worst);
  EXPECT_LE(worst, 1.0);
}

TEST(MathAccuracy, Atan2WithinBoundAndItsSpecialCases) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> coordinate(-1000.0, 1000.0), exponent(-300.0, 300.0);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    // Half near the origin's scale, half spread over the exponent range.
    double y = coordinate(rng), x = coordinate(rng);
    if (i % 2) {
      y = std::ldexp(y, (int)exponent(rng));
      x = std::ldexp(x, (int)exponent(rng));
    }
    worst = std::max(worst, ulp_error(pd_atan2(y, x), atan2l((long double)y, (long double)x)));
  }
  std::printf("atan2      max error %.3f ulp\n", worst);
  EXPECT_LE(worst, 2.0);
  // C99's special cases, exactly as the C library gives them.
  const double specials[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, 1e-310, -1e300};
  for (double y : specials) {
    for (double x : specials) {
      const double want = std::atan2(y, x), got = pd_atan2(y, x);
      EXPECT_LE(ulp_error(got, (long double)want), 1.0) << y << ", " << x;
      EXPECT_EQ(std::signbit(got), std::signbit(want)) << y << ", " << x;
    }
  }
  EXPECT_TRUE(std::isnan(pd_atan2(NAN, 1.0)));
  EXPECT_TRUE(std::isnan(pd_atan2(1.0, NAN)));
}

TEST(MathAccuracy, SpecialValues) {
  EXPECT_EQ(pd_exp(0.0), 1.0);
  EXPECT_EQ(pd_exp(-INFINITY), 0.0);
  EXPECT_EQ(pd_exp(INFINITY), INFINITY);
  EXPECT_TRUE(std::isnan(pd_exp(NAN)));
  EXPECT_EQ(pd_ln(1.0), 0.0);
  EXPECT_EQ(pd_ln(0.0), -INFINITY);
  EXPECT_TRUE(std::isnan(pd_ln(-1.0)));
  EXPECT_EQ(pd_ln(INFINITY), INFINITY);
  EXPECT_LE(ulp_error(pd_ln(5e-324), logl((long double)5e-324)), 1.0);
  EXPECT_EQ(pd_ln_vector(1.0), 0.0);
  EXPECT_EQ(pd_ln_vector(0.0), -INFINITY);
  EXPECT_EQ(pd_ln_vector(-0.0), -INFINITY);
  EXPECT_TRUE(std::isnan(pd_ln_vector(-1.0)));
  EXPECT_TRUE(std::isnan(pd_ln_vector(NAN)));
  EXPECT_EQ(pd_ln_vector(INFINITY), INFINITY);
  EXPECT_LE(ulp_error(pd_ln_vector(5e-324), logl((long double)5e-324)), 1.0);
  EXPECT_LE(ulp_error(pd_ln_vector(0x1.fffffffffffffp1023), logl(0x1.fffffffffffffp1023L)), 1.0);
  EXPECT_EQ(pd_sin(0.0), 0.0);
  EXPECT_TRUE(std::signbit(pd_sin(-0.0)));
  EXPECT_TRUE(std::isnan(pd_sin(INFINITY)));
  EXPECT_EQ(pd_cos(0.0), 1.0);
  EXPECT_EQ(pd_atan(INFINITY), (double)atanl(INFINITY));
  EXPECT_EQ(pd_atan(-INFINITY), -(double)atanl(INFINITY));
  EXPECT_EQ(pd_asin(1.0), (double)asinl(1.0L));
  EXPECT_EQ(pd_acos(-1.0), (double)acosl(-1.0L));
  EXPECT_EQ(pd_acos(1.0), 0.0);
  EXPECT_TRUE(std::isnan(pd_asin(1.5)));
  EXPECT_TRUE(std::signbit(pd_asin(-0.0)));
  EXPECT_TRUE(std::signbit(pd_tan(-0.0)));
  EXPECT_TRUE(std::signbit(pd_atan(-0.0)));
}

}  // namespace
