#include "comprehension/measures.hpp"

#include <algorithm>
#include <cmath>

#include "polyrt/value.hpp"
#include "rtlib/probit.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::comprehension {

namespace {

struct MeasureShape {
  std::string_view name;
  std::vector<std::string_view> parameters;
  std::vector<double> standard;
  bool sampled;  // polyrt samples it (beta and gamma need the incomplete beta and gamma)
};

const std::vector<MeasureShape>& shapes() {
  static const std::vector<MeasureShape> kShapes = {
      {"normal", {"mean", "stddev"}, {0.0, 1.0}, true},
      {"exponential", {"rate"}, {1.0}, true},
      {"pareto", {"scale", "shape"}, {1.0, 1.0}, true},
      {"beta", {"alpha", "beta"}, {1.0, 1.0}, false},
      {"log_normal", {"mean", "stddev"}, {0.0, 1.0}, true},
      {"gamma", {"shape", "scale"}, {1.0, 1.0}, false},
      {"uniform01", {}, {}, true},
  };
  return kShapes;
}

const MeasureShape* shape_of(std::string_view name) {
  for (const MeasureShape& s : shapes()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// The standard normal CDF by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7).
double normal_cdf(double z) {
  const double x = std::fabs(z) / 1.4142135623730951;
  const double t = 1.0 / (1.0 + 0.3275911 * x);
  const double poly =
      t *
      (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const double erfc = poly * pd_exp(-x * x);
  return z >= 0 ? 1.0 - 0.5 * erfc : 0.5 * erfc;
}

double cdf(const Measure& m, double x) {
  const std::vector<double>& p = m.params;
  if (std::isnan(x)) return x;
  if (m.name == "normal") return normal_cdf((x - p[0]) / p[1]);
  if (m.name == "exponential") return x <= 0.0 ? 0.0 : 1.0 - pd_exp(-p[0] * x);
  if (m.name == "pareto") return x <= p[0] ? 0.0 : 1.0 - pd_pow(p[0] / x, p[1]);
  if (m.name == "log_normal") return x <= 0.0 ? 0.0 : normal_cdf((pd_ln(x) - p[0]) / p[1]);
  return std::clamp(x, 0.0, 1.0);  // uniform01
}

double quantile(const Measure& m, double u) {
  const std::vector<double>& p = m.params;
  if (m.name == "normal") return p[0] + p[1] * probit_as26223(u);
  if (m.name == "exponential") return -pd_ln(1.0 - u) / p[0];
  if (m.name == "pareto") return p[0] / pd_pow(1.0 - u, 1.0 / p[1]);
  if (m.name == "log_normal") return pd_exp(p[0] + p[1] * probit_as26223(u));
  return std::clamp(u, 0.0, 1.0);  // uniform01
}

}  // namespace

bool is_measure_name(std::string_view name) {
  return shape_of(name) != nullptr;
}

std::optional<Measure> make_measure(std::string_view name, const std::vector<double>& params,
                                    std::string& error) {
  const MeasureShape& shape = *shape_of(name);
  const std::string n(name);
  if (!shape.sampled) {
    error = "the " + n + " measure (it needs the incomplete " + n +
            " function) is not sampled by polyrt yet";
    return std::nullopt;
  }
  if (!params.empty() && params.size() != shape.parameters.size()) {
    std::string names;
    for (std::string_view p : shape.parameters)
      names += (names.empty() ? "" : ", ") + std::string(p);
    error = n + " takes " + std::to_string(shape.parameters.size()) + " parameter(s) (" + names +
            "); found " + std::to_string(params.size());
    return std::nullopt;
  }
  Measure m{n, params.empty() ? shape.standard : params};
  for (size_t k = 0; k < m.params.size(); ++k) {
    const double v = m.params[k];
    // Every parameter but a location (normal's and log_normal's mean) is a
    // scale or a shape: positive, or the CDF is no distribution's.
    const bool location = (n == "normal" || n == "log_normal") && k == 0;
    if (!std::isfinite(v) || (!location && !(v > 0.0))) {
      error = n + "'s " + std::string(shape.parameters[k]) + " is " + Value::f64(v).to_string() +
              "; it is " + (location ? "a finite number" : "a positive finite number");
      return std::nullopt;
    }
  }
  return m;
}

AxisInterval support(const Measure& m) {
  const double inf = INFINITY;
  if (m.name == "normal") return {-inf, inf, true, true};
  if (m.name == "exponential") return {0.0, inf, false, true};
  if (m.name == "pareto") return {m.params[0], inf, false, true};
  if (m.name == "log_normal") return {0.0, inf, true, true};
  return {0.0, 1.0, false, false};  // uniform01
}

namespace {

// x moved off an open end of `interval` onto the next float inside; an
// infinite end has no next float and stays.
double inside(double x, const AxisInterval& interval) {
  if (interval.lo_open && x == interval.lo && std::isfinite(x)) {
    return std::min(std::nextafter(x, INFINITY), interval.hi);
  }
  if (interval.hi_open && x == interval.hi && std::isfinite(x)) {
    return std::max(std::nextafter(x, -INFINITY), interval.lo);
  }
  return x;
}

}  // namespace

double endpoint(const AxisInterval& interval, bool upper) {
  return inside(upper ? interval.hi : interval.lo, interval);
}

double map_unit(const Measure* m, double u, const AxisInterval& interval) {
  double x;
  if (!m) {
    x = interval.lo + u * (interval.hi - interval.lo);
  } else {
    const double f_lo = cdf(*m, interval.lo), f_hi = cdf(*m, interval.hi);
    const double q = quantile(*m, f_lo + u * (f_hi - f_lo));
    x = std::isnan(q) ? interval.lo : q;
  }
  return inside(std::clamp(x, interval.lo, interval.hi), interval);
}

std::string measure_text(const Measure& m) {
  std::string out = m.name + "(";
  for (size_t k = 0; k < m.params.size(); ++k)
    out += (k ? ", " : "") + Value::f64(m.params[k]).to_string();
  return out + ")";
}

}  // namespace polyrt::comprehension
