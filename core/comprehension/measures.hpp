// polydat's named measures, a continuous comprehension axis drawn through a
// distribution: `x in normal(0, 1)`, `t in exponential(2) on 0.0..1.0`. A
// sampling order draws a unit point u per axis; the measure carries it onto
// the axis's interval by its inverse CDF, restricted to the interval: u
// lands between the CDF values of the two ends, then is inverted, so the
// draws keep the distribution's shape inside the interval (polydat's
// comprehension_forms.md §10.2). Without `on`, the interval is the
// measure's support. The math is polyrt's own ln, exp, pow and sqrt with
// polydat's approximations (the A&S 26.2.23 probit, the A&S 7.1.26 error
// function), so every host computes the same bits.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polyrt::comprehension {

// An axis's interval; an infinite end is open.
struct AxisInterval {
  double lo = 0, hi = 0;
  bool lo_open = false, hi_open = true;
};

struct Measure {
  std::string name;            // normal, exponential, pareto, log_normal, uniform01
  std::vector<double> params;  // resolved: the authored ones or the standard ones
};

// Whether `name` is one of polydat's measures (beta and gamma included).
bool is_measure_name(std::string_view name);

// The measure `name` with `params` (empty: its standard parameters), or
// the error to report: a wrong count or a non-finite or out-of-range
// parameter, or a measure polyrt does not sample yet.
std::optional<Measure> make_measure(std::string_view name, const std::vector<double>& params,
                                    std::string& error);

// The measure's support, the interval an axis without `on` draws from.
AxisInterval support(const Measure& m);

// Unit point u in [0, 1) carried onto `interval` under `m` (nullptr: the
// uniform measure, affine), kept inside and off an open end.
double map_unit(const Measure* m, double u, const AxisInterval& interval);

// An end of `interval` as polydat's extrema takes it: the end itself, or
// the next float inside when the end is open (an infinite end stays).
double endpoint(const AxisInterval& interval, bool upper);

// polydat's spelling of the measure's parameters in its canonical text.
std::string measure_text(const Measure& m);

}  // namespace polyrt::comprehension
