// Samplers with their distributions' true tails (rtlib/quantiles.cpp): the
// inverse CDF at a unit-interval u, accurate over the whole open interval,
// where polydat's dist_* nodes interpolate a 1001-point table and so clip
// every tail (dist_normal never leaves mean +- 3.09 stddev). Native: batch
// kernels and GPUs compute them.
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
}

}  // namespace polyrt::nodes
