// Samplers with their distributions' true tails (rtlib/quantiles.cpp): the
// inverse CDF at a unit-interval u, accurate over the whole open interval
// (or, for gamma, beta, Poisson, binomial and Zipf, an exact method on
// uniforms drawn from a u64 input),
// where polydat's dist_* nodes interpolate a 1001-point table and so clip
// every tail (dist_normal never leaves mean +- 3.09 stddev). Native: batch
// kernels and GPUs compute them.
#include "nodes/alias_table.hpp"
#include "nodes/registry.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {

using P = PortType;

// Checks a constant argument: finite, and positive (or >= 0) when asked.
enum class Sign { Any, NonNegative, Positive };
void check(const std::vector<Value>& p, size_t i, const char* name, Sign sign) {
  const double v = p[i].as_f64();
  const bool ok = v - v == 0.0 && (sign == Sign::Any || (sign == Sign::NonNegative && v >= 0.0) ||
                                   (sign == Sign::Positive && v > 0.0));
  if (!ok) {
    throw ParamError{i, std::string(name) + " must be a " +
                            (sign == Sign::Positive      ? "positive finite"
                             : sign == Sign::NonNegative ? "finite, non-negative"
                                                         : "finite") +
                            " number"};
  }
}

template <Sign First, Sign Second>
std::shared_ptr<const Prepared> checked(const std::vector<Value>& p, const char* first,
                                        const char* second) {
  check(p, 0, first, First);
  if (p.size() > 1) check(p, 1, second, Second);
  return nullptr;
}

// sample_zipf's prepared data: its hat's integrals at 1.5 and n + 0.5 and
// its squeeze (pd_zipf_constants), and up to PD_ZIPF_TABLE_RANKS ranks the
// alias table of the ranks' probabilities, one word a rank
// (pd_zipf_table_word), which the row then reads instead of rejecting.
std::shared_ptr<const Prepared> zipf_constants(const std::vector<Value>& p) {
  const uint64_t n = p[0].as_u64();
  const double s = p[1].as_f64();
  if (n == 0) throw ParamError{0, "n must be at least 1"};
  check(p, 1, "s", Sign::Positive);
  auto prepared = std::make_shared<Prepared>();
  prepared->f64s.resize(3);
  pd_zipf_constants(n, s, prepared->f64s.data());
  if (n <= PD_ZIPF_TABLE_RANKS) {
    std::vector<double> weights(n);
    for (uint64_t k = 0; k < n; ++k) weights[k] = pd_pow((double)(k + 1), -s);
    const auto table = alias_table(weights, indices(n));
    prepared->u64s.resize(n);
    for (uint64_t k = 0; k < n; ++k) {
      const double bias = table->f64s[k];
      const uint64_t alias = bias >= 1.0 ? k : table->u64s[2 * k + 1];
      const uint64_t threshold = bias >= 1.0 ? (1ULL << 44) - 1 : (uint64_t)(bias * 0x1p44);
      prepared->u64s[k] = pd_zipf_table_word(threshold, alias);
    }
  }
  return prepared;
}

// sample_poisson's lambda: finite, >= 0 and at most 1e15 (past it a
// double no longer tells the counts near lambda apart).
std::shared_ptr<const Prepared> poisson_lambda(const std::vector<Value>& p) {
  check(p, 0, "lambda", Sign::NonNegative);
  if (p[0].as_f64() > 1e15) throw ParamError{0, "lambda must be at most 1e15"};
  return nullptr;
}

std::shared_ptr<const Prepared> binomial_p(const std::vector<Value>& p) {
  const double v = p[1].as_f64();
  if (!(v >= 0.0 && v <= 1.0)) throw ParamError{1, "p must be a probability in [0, 1]"};
  return nullptr;
}

}  // namespace

void register_sampler_nodes(Registry& r) {
  constexpr std::string_view kFamily = "distributions with exact tails";
  r.add({.name = "sample_normal",
         .family = kFamily,
         .args = {wire("u", P::F64), konst("mean", P::F64), konst("stddev", P::F64)},
         .results = {Type::F64},
         .summary = "Normal: mean + stddev * the standard normal quantile at u (Wichura's AS241, "
                    "about 1e-16 relative, on polyrt's ln and sqrt): the tails are exact, the "
                    "largest of 10^9 samples near 6.1 stddev. u <= 0 gives -inf, u >= 1 +inf.",
         .prepare =
             [](const std::vector<Value>& p) {
               return checked<Sign::Any, Sign::NonNegative>(p, "mean", "stddev");
             },
         .eval =
             [](Call& c) { c.set_f64(pd_sample_normal(c.f64(0), c.param_f64(0), c.param_f64(1))); },
         .native = PD_NATIVE(pd_sample_normal, in(0), param(0), param(1))});
  r.add({.name = "sample_lognormal",
         .family = kFamily,
         .args = {wire("u", P::F64), konst("mu", P::F64), konst("sigma", P::F64)},
         .results = {Type::F64},
         .summary = "Log-normal: exp(mu + sigma * the normal quantile at u), its long right tail "
                    "exact. u <= 0 gives 0, u >= 1 +inf.",
         .prepare =
             [](const std::vector<Value>& p) {
               return checked<Sign::Any, Sign::NonNegative>(p, "mu", "sigma");
             },
         .eval =
             [](Call& c) {
               c.set_f64(pd_sample_lognormal(c.f64(0), c.param_f64(0), c.param_f64(1)));
             },
         .native = PD_NATIVE(pd_sample_lognormal, in(0), param(0), param(1))});
  r.add({.name = "sample_exponential",
         .family = kFamily,
         .args = {wire("u", P::F64), konst("rate", P::F64)},
         .results = {Type::F64},
         .summary = "Exponential: -ln(1 - u) / rate, with an accurate ln(1 - u) for small u. "
                    "u <= 0 gives 0, u >= 1 +inf.",
         .prepare =
             [](const std::vector<Value>& p) {
               return checked<Sign::Positive, Sign::Any>(p, "rate", "");
             },
         .eval = [](Call& c) { c.set_f64(pd_sample_exponential(c.f64(0), c.param_f64(0))); },
         .native = PD_NATIVE(pd_sample_exponential, in(0), param(0))});
  r.add({.name = "sample_pareto",
         .family = kFamily,
         .args = {wire("u", P::F64), konst("scale", P::F64), konst("shape", P::F64)},
         .results = {Type::F64},
         .summary = "Pareto (type I): scale * (1 - u)^(-1 / shape), at least scale, its heavy "
                    "tail exact. u <= 0 gives scale, u >= 1 +inf.",
         .prepare =
             [](const std::vector<Value>& p) {
               return checked<Sign::Positive, Sign::Positive>(p, "scale", "shape");
             },
         .eval =
             [](Call& c) { c.set_f64(pd_sample_pareto(c.f64(0), c.param_f64(0), c.param_f64(1))); },
         .native = PD_NATIVE(pd_sample_pareto, in(0), param(0), param(1))});
  r.add(
      {.name = "sample_weibull",
       .family = kFamily,
       .args = {wire("u", P::F64), konst("shape", P::F64), konst("scale", P::F64)},
       .results = {Type::F64},
       .summary = "Weibull: scale * (-ln(1 - u))^(1 / shape). u <= 0 gives 0, u >= 1 +inf.",
       .prepare =
           [](const std::vector<Value>& p) {
             return checked<Sign::Positive, Sign::Positive>(p, "shape", "scale");
           },
       .eval =
           [](Call& c) { c.set_f64(pd_sample_weibull(c.f64(0), c.param_f64(0), c.param_f64(1))); },
       .native = PD_NATIVE(pd_sample_weibull, in(0), param(0), param(1))});
  r.add({.name = "sample_zipf",
         .family = kFamily,
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("n", P::U64), konst("s", P::F64)},
         .results = {Type::U64},
         .summary = "Zipf: a rank 1..n with probability proportional to 1 / rank^s, exactly (to "
                    "the rounding of each rank's probability), for any n up to 2^64 - 1 and s > "
                    "0. Up to 262,144 ranks, a Walker alias table of the n probabilities built at "
                    "compile time, one lookup a row; above, rejection-inversion (Hoermann and "
                    "Derflinger 1996), one or two uniforms a row. Its uniforms come from "
                    "SplitMix64 at input's next states, so it hashes its input. dist_zipf's "
                    "table bends the ranks between its points.",
         .prepare = zipf_constants,
         .eval =
             [](Call& c) {
               const Prepared& prepared = c.prepared();
               c.set_u64(pd_sample_zipf(c.u64(0), prepared.f64s.data(), prepared.u64s.data(),
                                        prepared.u64s.size(), c.param_u64(0), c.param_f64(1)));
             },
         .native = PD_NATIVE(pd_sample_zipf, in(0), f64_table(), u64_table(), u64_count(), param(0),
                             param(1))});
  r.add({.name = "sample_gamma",
         .family = kFamily,
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("shape", P::F64), konst("scale", P::F64)},
         .results = {Type::F64},
         .summary = "Gamma: exactly Gamma(shape, scale) distributed (Marsaglia and Tsang 2000; "
                    "below shape 1, Gamma(shape + 1) * U^(1 / shape)), its uniforms from "
                    "SplitMix64 at input's next states, about 2.1 a row, so it hashes its input. "
                    "Mean shape * scale.",
         .prepare =
             [](const std::vector<Value>& p) {
               return checked<Sign::Positive, Sign::Positive>(p, "shape", "scale");
             },
         .eval =
             [](Call& c) { c.set_f64(pd_sample_gamma(c.u64(0), c.param_f64(0), c.param_f64(1))); },
         .native = PD_NATIVE(pd_sample_gamma, in(0), param(0), param(1))});
  r.add(
      {.name = "sample_beta",
       .family = kFamily,
       .keyed_by_seed = true,
       .args = {wire("input", P::U64), konst("a", P::F64), konst("b", P::F64)},
       .results = {Type::F64},
       .summary = "Beta: exactly Beta(a, b) distributed in [0, 1], X / (X + Y) of two gamma "
                  "samples (sample_gamma's method, kept as logarithms so that tiny a and b "
                  "still give values near 0 and 1 rather than 0 / 0). Mean a / (a + b).",
       .prepare =
           [](const std::vector<Value>& p) {
             return checked<Sign::Positive, Sign::Positive>(p, "a", "b");
           },
       .eval = [](Call& c) { c.set_f64(pd_sample_beta(c.u64(0), c.param_f64(0), c.param_f64(1))); },
       .native = PD_NATIVE(pd_sample_beta, in(0), param(0), param(1))});
  r.add({.name = "sample_poisson",
         .family = kFamily,
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("lambda", P::F64)},
         .results = {Type::U64},
         .summary = "Poisson: a count exactly Poisson(lambda) distributed, lambda in [0, 1e15] "
                    "(inversion below 10, one uniform; Hoermann's PTRS above, about 2.3), its "
                    "uniforms from SplitMix64 at input's next states, so it hashes its input.",
         .prepare = poisson_lambda,
         .eval = [](Call& c) { c.set_u64(pd_sample_poisson(c.u64(0), c.param_f64(0))); },
         .native = PD_NATIVE(pd_sample_poisson, in(0), param(0))});
  r.add(
      {.name = "sample_binomial",
       .family = kFamily,
       .keyed_by_seed = true,
       .args = {wire("input", P::U64), konst("n", P::U64), konst("p", P::F64)},
       .results = {Type::U64},
       .summary = "Binomial: the successes of n trials of probability p, exactly Binomial(n, "
                  "p) distributed (inversion below n min(p, 1 - p) = 10, Hoermann's BTRS "
                  "above), its uniforms from SplitMix64 at input's next states, so it hashes "
                  "its input.",
       .prepare = binomial_p,
       .eval =
           [](Call& c) { c.set_u64(pd_sample_binomial(c.u64(0), c.param_u64(0), c.param_f64(1))); },
       .native = PD_NATIVE(pd_sample_binomial, in(0), param(0), param(1))});
}

}  // namespace polyrt::nodes
