// The exact-tail samplers (sample_normal, sample_lognormal,
// sample_exponential, sample_pareto, sample_weibull, sample_zipf,
// sample_gamma, sample_beta, sample_poisson, sample_binomial): their quantiles
// against independent values (Python's statistics.NormalDist.inv_cdf, the
// same AS241 on the C library's log; math.log1p), their tails where
// polydat's tabulated dist_* nodes clip, and every engine alike.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "rtlib/rtlib.h"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// Within `ulps` units in the last place of `want`.
void expect_ulps(double got, double want, double ulps, const char* what) {
  const double ulp = std::nextafter(std::fabs(want), INFINITY) - std::fabs(want);
  EXPECT_LE(std::fabs(got - want), ulps * ulp) << what << ": got " << got << ", want " << want;
}

TEST(Samplers, TheNormalQuantileIsAccurateOverTheWholeInterval) {
  const struct {
    double u, z;
  } golden[] = {{0.975, 1.9599639845400536},     {0.3, -0.5244005127080407},
                {1e-10, -6.361340902404056},     {0x1.fffffffffffffp-1, 8.209536151601386},
                {0x1p-1074, -38.46740561714434}, {0.02425, -1.9729610513118845},
                {0.999, 3.090232306167813}};
  for (const auto& g : golden) expect_ulps(pd_normal_quantile(g.u), g.z, 8, "normal quantile");
  EXPECT_EQ(pd_normal_quantile(0.5), 0.0);
  EXPECT_EQ(pd_normal_quantile(0.0), -INFINITY);
  EXPECT_EQ(pd_normal_quantile(1.0), INFINITY);
  // Symmetric to the bit where 1 - (1 - u) is u (0.01 is not: 1 - 0.99 is
  // 0.010000000000000009).
  for (double u : {0x1p-40, 0x1p-7, 0.1, 0.25, 0.4}) {
    EXPECT_EQ(pd_normal_quantile(u), -pd_normal_quantile(1.0 - u)) << u;
  }
}

TEST(Samplers, TheClosedFormsMatchTheirDefinitions) {
  expect_ulps(pd_sample_exponential(1e-20, 1.0), 1e-20, 2, "exponential near 0");
  expect_ulps(pd_sample_exponential(0.5, 1.0), 0.6931471805599453, 2, "exponential median");
  expect_ulps(pd_sample_exponential(0x1.fffffffffffffp-1, 1.0), 36.7368005696771, 4, "tail");
  expect_ulps(pd_sample_exponential(0.5, 4.0), 0.6931471805599453 / 4, 2, "rate");
  expect_ulps(pd_sample_pareto(0.75, 2.0, 2.0), 4.0, 4, "pareto");
  EXPECT_EQ(pd_sample_pareto(0.0, 3.0, 1.5), 3.0);
  expect_ulps(pd_sample_weibull(1.0 - std::exp(-1.0), 2.0, 3.0), 3.0, 8, "weibull");
  EXPECT_EQ(pd_sample_weibull(0.0, 2.0, 3.0), 0.0);
  EXPECT_EQ(pd_sample_lognormal(0.5, 0.0, 1.0), 1.0);
  expect_ulps(pd_sample_lognormal(0.975, 1.0, 0.5), std::exp(1.0 + 0.5 * 1.9599639845400536), 16,
              "lognormal");
}

const char* kProgram =
    "input cycle\n"
    "private u := unit_interval(hash(cycle))\n"
    "normal := sample_normal(u, 10.0, 2.0)\n"
    "tabled := dist_normal(u, 10.0, 2.0)\n"
    "lognormal := sample_lognormal(u, 0.0, 1.0)\n"
    "exponential := sample_exponential(u, 0.5)\n"
    "pareto := sample_pareto(u, 1.0, 1.5)\n"
    "weibull := sample_weibull(u, 1.5, 2.0)\n";

TEST(Samplers, TheTailsAreThereAndTheMomentsRight) {
  // A million rows: the largest normal lies near 4.9 stddev, where the
  // tabulated dist_normal stops at 3.09.
  const std::vector<Column> columns = BatchEvaluator(compile(kProgram), {}).evaluate(0, 1'000'000);
  double largest = 0, tabled = 0, sum = 0, squares = 0, exp_sum = 0;
  for (size_t r = 0; r < 1'000'000; ++r) {
    const double z = (std::bit_cast<double>(columns[0].words[r]) - 10.0) / 2.0;
    largest = std::max(largest, z);
    tabled = std::max(tabled, (std::bit_cast<double>(columns[1].words[r]) - 10.0) / 2.0);
    sum += z;
    squares += z * z;
    exp_sum += std::bit_cast<double>(columns[3].words[r]);
  }
  EXPECT_GT(largest, 4.4);
  EXPECT_LT(largest, 6.0);
  EXPECT_LT(tabled, 3.1);  // its table ends at probit(0.999)
  EXPECT_NEAR(sum / 1e6, 0.0, 0.005);
  EXPECT_NEAR(squares / 1e6, 1.0, 0.005);
  EXPECT_NEAR(exp_sum / 1e6, 2.0, 0.01);  // 1 / rate
}

TEST(Samplers, EveryEngineAndTierAgree) {
  const std::vector<std::string> names = compile(kProgram)->output_names();
  for (uint64_t x : {0ull, 1ull, 7ull, 123456789ull, ~0ull}) values_everywhere(kProgram, x, names);
}

// sample_zipf is Zipf exactly: over a million rows each bin of ranks holds
// its share (chi-square over 16 bins, 15 degrees of freedom; 37.7 is the
// 0.1 % point), where dist_zipf's table bends ranks 30-200 to 0.54x-1.77x.
// Chi-square of a million ranks of sample_zipf(x, n, s) over bins of ranks
// from 1 to n (below the 0.1 % critical value).
void expect_zipf_ranks(uint64_t n, double s) {
  const uint64_t rows = 1'000'000;
  const std::string program =
      "input x\nr := sample_zipf(x, " + std::to_string(n) + ", " + std::to_string(s) + ")\n";
  const std::vector<Column> columns = BatchEvaluator(compile(program), {}).evaluate(0, rows);
  std::vector<uint64_t> counts(n + 1, 0);
  for (uint64_t w : columns[0].words) {
    ASSERT_GE(w, 1u);
    ASSERT_LE(w, n);
    ++counts[w];
  }
  double total = 0;
  for (uint64_t k = 1; k <= n; ++k) total += std::pow((double)k, -s);
  std::vector<uint64_t> edges;
  for (uint64_t decade = 1; decade < n; decade *= 10) {
    for (uint64_t step : {1, 2, 5}) {
      if (decade * step < n) edges.push_back(decade * step);
    }
  }
  edges.push_back(n + 1);
  double chi = 0;
  for (size_t b = 0; b + 1 < edges.size(); ++b) {
    double expected = 0, observed = 0;
    for (uint64_t k = edges[b]; k < edges[b + 1]; ++k) {
      expected += std::pow((double)k, -s) / total * (double)rows;
      observed += (double)counts[k];
    }
    chi += (observed - expected) * (observed - expected) / expected;
  }
  // The 0.1 % critical value (Wilson and Hilferty's approximation).
  const double dof = (double)edges.size() - 2, z = 3.090232;
  const double critical = dof * std::pow(1 - 2 / (9 * dof) + z * std::sqrt(2 / (9 * dof)), 3);
  EXPECT_LT(chi, critical) << "n " << n << ", s " << s;
}

TEST(Samplers, ZipfRanksFollowZipfExactly) {
  expect_zipf_ranks(100000, 1.1);   // the alias table
  expect_zipf_ranks(1000000, 1.1);  // rejection-inversion
  // Every engine alike, on both methods.
  const char* wide = "input x\nr := sample_zipf(x, 18446744073709551615, 0.5)\n";
  for (uint64_t x : {0ull, 3ull, 99ull}) {
    values_everywhere("input x\nr := sample_zipf(x, 100000, 1.1)\n", x, {"r"});
    values_everywhere("input x\nr := sample_zipf(x, 262145, 2.0)\n", x, {"r"});
    values_everywhere(wide, x, {"r"});
  }
}

// Mean and variance of a million rows of each rejection sampler, within
// five standard errors (the variance's from the fourth moment).
struct Moments {
  const char* expression;
  double mean, variance, kurtosis;  // excess kurtosis: the variance's error
};

TEST(Samplers, RejectionSamplersHaveTheirMoments) {
  const Moments cases[] = {{"sample_gamma(x, 0.3, 2.0)", 0.6, 1.2, 6 / 0.3},
                           {"sample_gamma(x, 2.5, 1.0)", 2.5, 2.5, 6 / 2.5},
                           {"sample_gamma(x, 40.0, 0.5)", 20.0, 10.0, 6 / 40.0},
                           {"sample_beta(x, 0.5, 0.5)", 0.5, 0.125, -1.5},
                           {"sample_beta(x, 2.0, 5.0)", 2.0 / 7, 10.0 / 392, -0.12},
                           {"sample_beta(x, 0.05, 0.05)", 0.5, 0.25 / 1.1, -1.9},
                           {"sample_poisson(x, 0.5)", 0.5, 0.5, 2.0},
                           {"sample_poisson(x, 9.99)", 9.99, 9.99, 0.1},
                           {"sample_poisson(x, 10.0)", 10.0, 10.0, 0.1},
                           {"sample_poisson(x, 1e6)", 1e6, 1e6, 0},
                           {"sample_poisson(x, 1e12)", 1e12, 1e12, 0},
                           {"sample_binomial(x, 100, 0.05)", 5.0, 4.75, 0.2},
                           {"sample_binomial(x, 100, 0.5)", 50.0, 25.0, -0.02},
                           {"sample_binomial(x, 1000000, 0.7)", 7e5, 2.1e5, 0},
                           {"sample_binomial(x, 50, 0.99)", 49.5, 0.495, 1.9},
                           {"sample_binomial(x, 1000000000000, 0.25)", 2.5e11, 1.875e11, 0}};
  const uint64_t rows = 1'000'000;
  for (const Moments& m : cases) {
    const std::string program =
        std::string("input cycle\nprivate x := hash(cycle)\nv := ") + m.expression + "\n";
    const std::vector<Column> columns = BatchEvaluator(compile(program), {}).evaluate(0, rows);
    const bool counts = columns[0].type == Type::U64;
    double sum = 0, squares = 0;
    for (const uint64_t w : columns[0].words) {
      const double v = counts ? (double)w : std::bit_cast<double>(w);
      sum += v - m.mean;
      squares += (v - m.mean) * (v - m.mean);
    }
    const double n = (double)rows;
    EXPECT_NEAR(sum / n, 0.0, 5 * std::sqrt(m.variance / n)) << m.expression;
    EXPECT_NEAR(squares / n, m.variance, 5 * m.variance * std::sqrt((2 + m.kurtosis) / n))
        << m.expression;
  }
}

// The edges: p of 0 and 1, n of 0 and 2^64 - 1, lambda 0, shapes far below
// 1 (a beta's values pile at 0 and 1, never NaN); every engine alike.
TEST(Samplers, RejectionSamplersAtTheirEdges) {
  const char* program =
      "input x\n"
      "none := sample_binomial(x, 1000, 0.0)\n"
      "all := sample_binomial(x, 1000, 1.0)\n"
      "zero := sample_binomial(x, 0, 0.5)\n"
      "huge := sample_binomial(x, 18446744073709551615, 0.5)\n"
      "quiet := sample_poisson(x, 0.0)\n"
      "tiny := sample_beta(x, 0.001, 0.001)\n"
      "small := sample_gamma(x, 0.001, 1.0)\n";
  const std::vector<Column> columns = BatchEvaluator(compile(program), {}).evaluate(0, 10'000);
  for (size_t r = 0; r < 10'000; ++r) {
    EXPECT_EQ(columns[0].words[r], 0u);
    EXPECT_EQ(columns[1].words[r], 1000u);
    EXPECT_EQ(columns[2].words[r], 0u);
    const double huge = (double)columns[3].words[r];
    EXPECT_NEAR(huge / 0x1p63, 1.0, 1e-8);
    EXPECT_EQ(columns[4].words[r], 0u);
    const double tiny = std::bit_cast<double>(columns[5].words[r]);
    ASSERT_TRUE(tiny >= 0.0 && tiny <= 1.0) << tiny;
    const double small = std::bit_cast<double>(columns[6].words[r]);
    ASSERT_TRUE(small >= 0.0 && std::isfinite(small)) << small;
  }
  const std::vector<std::string> names = compile(program)->output_names();
  for (uint64_t x : {0ull, 5ull, 123456789ull, ~0ull}) values_everywhere(program, x, names);
  const char* moderate =
      "input x\ng := sample_gamma(x, 2.5, 3.0)\nb := sample_beta(x, 2.0, 3.0)\n"
      "p := sample_poisson(x, 37.5)\nk := sample_binomial(x, 200, 0.3)\n";
  for (uint64_t x : {0ull, 5ull, 99ull, ~0ull}) {
    values_everywhere(moderate, x, compile(moderate)->output_names());
  }
}

TEST(Samplers, BadParametersAreCompileErrors) {
  expect_contains(compile_error("input x\nv := sample_normal(unit_interval(x), 0.0, -1.0)\n"),
                  {"stddev must be a finite, non-negative number"});
  expect_contains(compile_error("input x\nv := sample_exponential(unit_interval(x), 0.0)\n"),
                  {"rate must be a positive finite number"});
  expect_contains(compile_error("input x\nv := sample_pareto(unit_interval(x), 1.0, 0.0)\n"),
                  {"shape must be a positive finite number"});
  expect_contains(compile_error("input x\nv := sample_zipf(x, 0, 1.1)\n"),
                  {"n must be at least 1"});
  expect_contains(compile_error("input x\nv := sample_zipf(x, 10, -1.0)\n"),
                  {"s must be a positive finite number"});
  expect_contains(compile_error("input x\nv := sample_gamma(x, 0.0, 1.0)\n"),
                  {"shape must be a positive finite number"});
  expect_contains(compile_error("input x\nv := sample_beta(x, 1.0, -2.0)\n"),
                  {"b must be a positive finite number"});
  expect_contains(compile_error("input x\nv := sample_poisson(x, -1.0)\n"),
                  {"lambda must be a finite, non-negative number"});
  expect_contains(compile_error("input x\nv := sample_poisson(x, 1e16)\n"),
                  {"lambda must be at most 1e15"});
  expect_contains(compile_error("input x\nv := sample_binomial(x, 10, 1.5)\n"),
                  {"p must be a probability in [0, 1]"});
}

}  // namespace
}  // namespace polyrt::test
