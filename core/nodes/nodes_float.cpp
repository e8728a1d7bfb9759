#include <bit>
#include <string>

#include "nodes/registry.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {

using BinaryF64 = double (*)(double, double);
using CompareF64 = uint64_t (*)(double, double);
using UnaryF64 = double (*)(double);
using F64ToU64 = uint64_t (*)(double);

template <BinaryF64 fn>
void add_binary(Registry& r, std::string_view name, std::string_view symbol,
                std::string_view summary, std::string_view family = "f64 operators",
                std::string_view first = "a", std::string_view second = "b") {
  r.add({.name = name,
         .family = family,
         .args = {wire(first, PortType::F64), wire(second, PortType::F64)},
         .results = {Type::F64},
         .summary = summary,
         .eval = [](Call& c) { c.set_f64(fn(c.f64(0), c.f64(1))); },
         .native = native<fn>(symbol, {in(0), in(1)})});
}

template <CompareF64 fn>
void add_compare(Registry& r, std::string_view name, std::string_view symbol,
                 std::string_view summary) {
  r.add({.name = name,
         .family = "f64 operators",
         .args = {wire("a", PortType::F64), wire("b", PortType::F64)},
         .results = {Type::U64},
         .summary = summary,
         .eval = [](Call& c) { c.set_u64(fn(c.f64(0), c.f64(1))); },
         .native = native<fn>(symbol, {in(0), in(1)})});
}

template <UnaryF64 fn>
void add_math(Registry& r, std::string_view name, std::string_view symbol, std::string_view summary,
              std::string_view family = "f64 math") {
  r.add({.name = name,
         .family = family,
         .args = {wire("input", PortType::F64)},
         .results = {Type::F64},
         .summary = summary,
         .eval = [](Call& c) { c.set_f64(fn(c.f64(0))); },
         .native = native<fn>(symbol, {in(0)})});
}

template <F64ToU64 fn>
void add_to_u64(Registry& r, std::string_view name, std::string_view symbol,
                std::string_view summary) {
  r.add({.name = name,
         .family = "conversions",
         .args = {wire("input", PortType::F64)},
         .results = {Type::U64},
         .summary = summary,
         .eval = [](Call& c) { c.set_u64(fn(c.f64(0))); },
         .native = native<fn>(symbol, {in(0)})});
}

std::shared_ptr<const Prepared> check_f64_bounds(const std::vector<Value>& params) {
  const double lo = params[0].as_f64(), hi = params[1].as_f64();
  if (lo != lo || hi != hi) throw ParamError{lo != lo ? 0u : 1u, "bound must not be NaN"};
  if (lo > hi) {
    throw ParamError{
        1, "max " + Value::f64(hi).to_string() + " is below min " + Value::f64(lo).to_string()};
  }
  return nullptr;
}

// ADD_F64(add_math, r, sqrt, "..."): node sqrt implemented by rtlib pd_sqrt.
#define ADD_F64(adder, r, name, ...) adder<pd_##name>(r, #name, "pd_" #name, __VA_ARGS__)

// polydat's round numbers (rtlib/round_numbers.cpp), with its values.
void register_round_numbers(Registry& r) {
  constexpr std::string_view k = "round numbers";
  ADD_F64(add_math, r, floor_base10,
          "The largest power of ten <= x (fractional below 1: 0.5 gives 0.1): "
          "floor_base10(1732) = 1000. 0 for x <= 0, NaN or infinite.",
          k);
  ADD_F64(add_math, r, ceiling_base10,
          "The smallest power of ten >= x: ceiling_base10(1732) = 10000. 0 for x <= 0, NaN or "
          "infinite.",
          k);
  ADD_F64(add_math, r, closest_base10,
          "The power of ten nearest x (the lower on a tie): closest_base10(6000) = 10000. 0 "
          "for x <= 0, NaN or infinite.",
          k);
  ADD_F64(add_math, r, floor_decade,
          "x down to a multiple of its power of ten: floor_decade(2734) = 2000. 0 for x <= 0, "
          "NaN or infinite.",
          k);
  ADD_F64(add_math, r, ceiling_decade,
          "x up to a multiple of its power of ten: ceiling_decade(2734) = 3000. 0 for x <= 0, "
          "NaN or infinite.",
          k);
  ADD_F64(add_math, r, closest_decade,
          "x to the nearest multiple of its power of ten (half away from zero): "
          "closest_decade(1732) = 2000. 0 for x <= 0, NaN or infinite.",
          k);
  ADD_F64(add_math, r, floor_fibonacci,
          "The largest Fibonacci number (1, 2, 3, 5, 8, ...) <= x: floor_fibonacci(1732) = "
          "1597; 0 below 1, for NaN or infinite.",
          k);
  ADD_F64(add_math, r, ceiling_fibonacci,
          "The smallest Fibonacci number >= x (1 up to 1): ceiling_fibonacci(1732) = 2584. 0 "
          "for x <= 0, NaN or infinite.",
          k);
  ADD_F64(add_math, r, closest_fibonacci,
          "The Fibonacci number nearest x (the lower on a tie): closest_fibonacci(1732) = "
          "1597. 0 for x <= 0, NaN or infinite.",
          k);
  ADD_F64(add_math, r, floor_binomial,
          "The largest power of two <= x: floor_binomial(1732) = 1024. 0 for x <= 0, NaN or "
          "infinite.",
          k);
  ADD_F64(add_math, r, ceiling_binomial,
          "The smallest power of two >= x: ceiling_binomial(1732) = 2048. 0 for x <= 0, NaN or "
          "infinite.",
          k);
  ADD_F64(add_math, r, closest_binomial,
          "The power of two nearest x (the lower on a tie): closest_binomial(1732) = 2048. 0 "
          "for x <= 0, NaN or infinite.",
          k);
  ADD_F64(add_binary, r, round_floor,
          "x down to a multiple of interval: round_floor(1732, 500) = 1500; x itself when "
          "interval is not positive and finite.",
          k, "x", "interval");
  ADD_F64(add_binary, r, round_ceiling,
          "x up to a multiple of interval: round_ceiling(1732, 500) = 2000; x itself when "
          "interval is not positive and finite.",
          k, "x", "interval");
  ADD_F64(add_binary, r, round_nearest,
          "x to the nearest multiple of interval (half away from zero): round_nearest(1732, "
          "500) = 1500; x itself when interval is not positive and finite.",
          k, "x", "interval");
}

}  // namespace

void register_float_nodes(Registry& r) {
  using P = PortType;
  ADD_F64(add_binary, r, f64_add, "a + b (infix + on f64).");
  ADD_F64(add_binary, r, f64_sub, "a - b (infix - on f64).");
  ADD_F64(add_binary, r, f64_mul, "a * b (infix * on f64).");
  ADD_F64(add_binary, r, f64_div, "a / b; 0.0 when b is 0.0 or -0.0 (infix / on f64).");
  ADD_F64(add_binary, r, f64_mod,
          "fmod(a, b), exact, with the sign of a; 0.0 when b is 0.0 (infix %).");
  ADD_F64(add_compare, r, f64_eq, "1 when a == b (IEEE: NaN is unequal, -0.0 == 0.0).");
  ADD_F64(add_compare, r, f64_ne, "1 when a != b (IEEE).");
  ADD_F64(add_compare, r, f64_lt, "1 when a < b (IEEE: false with NaN).");
  ADD_F64(add_compare, r, f64_le, "1 when a <= b (IEEE).");
  ADD_F64(add_compare, r, f64_gt, "1 when a > b (IEEE).");
  ADD_F64(add_compare, r, f64_ge, "1 when a >= b (IEEE).");
  r.add({.name = "select_f64",
         .family = "f64 operators",
         .args = {wire("cond", P::U64), wire("then", P::F64), wire("else", P::F64)},
         .results = {Type::F64},
         .summary = "then when cond != 0, else else; both branches are evaluated.",
         .eval = [](Call& c) { c.set_f64(pd_select_f64(c.u64(0), c.f64(1), c.f64(2))); },
         .native = PD_NATIVE(pd_select_f64, in(0), in(1), in(2))});

  r.add({.name = "unit_interval",
         .family = "conversions",
         .args = {wire("input", P::U64)},
         .results = {Type::F64},
         .summary = "double(x) * 2^-64 (= x / (2^64 - 1) as the reference computes it): [0, 1], "
                    "x >= 2^64 - 2^10 gives exactly 1.0.",
         .eval = [](Call& c) { c.set_f64(pd_unit_interval(c.u64(0))); },
         .native = PD_NATIVE(pd_unit_interval, in(0))});
  r.add({.name = "to_f64",
         .family = "conversions",
         .args = {wire("input", P::U64)},
         .results = {Type::F64},
         .summary = "Nearest double (round to nearest even).",
         .eval = [](Call& c) { c.set_f64(pd_to_f64(c.u64(0))); },
         .native = PD_NATIVE(pd_to_f64, in(0))});
  ADD_F64(add_to_u64, r, f64_to_u64,
          "Truncate toward zero, saturating: NaN and negatives give 0, >= 2^64 "
          "gives 2^64-1.");
  ADD_F64(add_to_u64, r, round_to_u64, "Round half away from zero, then saturate.");
  ADD_F64(add_to_u64, r, floor_to_u64, "Floor, then saturate.");
  ADD_F64(add_to_u64, r, ceil_to_u64, "Ceiling, then saturate.");
  r.add_alias("trunc_u64", "f64_to_u64");
  r.add_alias("round_u64", "round_to_u64");
  r.add(
      {.name = "discretize",
       .family = "conversions",
       .args = {wire("input", P::F64), konst("range", P::F64, Value::f64(100.0)),
                konst("buckets", P::U64, Value::u64(10))},
       .results = {Type::U64},
       .summary = "The bucket of input over [0, range) cut in buckets: floor(input / range * "
                  "buckets), NaN and input <= 0 in bucket 0, input >= range in the last.",
       .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
         const double range = p[0].as_f64();
         if (!(range > 0.0) || range - range != 0.0) {
           throw ParamError{0, "range must be a positive finite number"};
         }
         if (p[1].as_u64() == 0) throw ParamError{1, "buckets must be at least 1"};
         return nullptr;
       },
       .eval = [](Call& c) { c.set_u64(pd_discretize(c.f64(0), c.param_f64(0), c.param_u64(1))); },
       .native = PD_NATIVE(pd_discretize, in(0), param(0), param(1))});
  r.add({.name = "lerp",
         .family = "conversions",
         .args = {wire("t", P::F64), konst("a", P::F64, Value::f64(0.0)),
                  konst("b", P::F64, Value::f64(1.0))},
         .results = {Type::F64},
         .summary = "a + t * (b - a); extrapolates outside [0, 1].",
         .eval = [](Call& c) { c.set_f64(pd_lerp(c.f64(0), c.param_f64(0), c.param_f64(1))); },
         .native = PD_NATIVE(pd_lerp, in(0), param(0), param(1))});
  r.add({.name = "blend",
         .family = "conversions",
         .args = {wire("a_bits", P::U64), wire("b_bits", P::U64), konst("mix", P::F64)},
         .results = {Type::U64},
         .summary = "polydat's blend: a_bits and b_bits read as f64 bit patterns, a + (b - a) * "
                    "mix, written back as its bit pattern (so on small integers, whose patterns "
                    "are subnormal f64s, blend(10, 20, 0.5) is 15). mix is in [0, 1]. A host "
                    "step: a GPU would flush the subnormals.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           const double mix = p[0].as_f64();
           if (!(mix >= 0.0 && mix <= 1.0)) {
             throw ParamError{0, "mix must be in [0, 1], got " + p[0].to_string()};
           }
           return nullptr;
         },
         .eval =
             [](Call& c) {
               const double a = std::bit_cast<double>(c.u64(0));
               const double b = std::bit_cast<double>(c.u64(1));
               c.set_u64(std::bit_cast<uint64_t>(a + (b - a) * c.param_f64(0)));
             }});
  r.add({.name = "inv_lerp",
         .family = "conversions",
         .args = {wire("input", P::F64), konst("a", P::F64, Value::f64(0.0)),
                  konst("b", P::F64, Value::f64(1.0))},
         .results = {Type::F64},
         .summary = "(input - a) * (1 / (b - a)), clamped to [0, 1]: lerp's inverse.",
         .eval = [](Call& c) { c.set_f64(pd_inv_lerp(c.f64(0), c.param_f64(0), c.param_f64(1))); },
         .native = PD_NATIVE(pd_inv_lerp, in(0), param(0), param(1))});
  r.add(
      {.name = "remap",
       .family = "conversions",
       .args = {wire("input", P::F64), konst("in_min", P::F64, Value::f64(0.0)),
                konst("in_max", P::F64, Value::f64(1.0)), konst("out_min", P::F64, Value::f64(0.0)),
                konst("out_max", P::F64, Value::f64(1.0))},
       .results = {Type::F64},
       .summary = "input mapped linearly from [in_min, in_max] onto [out_min, out_max]; not "
                  "clamped.",
       .eval =
           [](Call& c) {
             c.set_f64(pd_remap(c.f64(0), c.param_f64(0), c.param_f64(1), c.param_f64(2),
                                c.param_f64(3)));
           },
       .native = PD_NATIVE(pd_remap, in(0), param(0), param(1), param(2), param(3))});
  r.add({.name = "quantize",
         .family = "conversions",
         .args = {wire("input", P::F64), konst("step", P::F64, Value::f64(1.0))},
         .results = {Type::F64},
         .summary = "round(input / step) * step, rounding half away from zero: the nearest point "
                    "of a grid (quantize(price, 0.01)).",
         .eval = [](Call& c) { c.set_f64(pd_quantize(c.f64(0), c.param_f64(0))); },
         .native = PD_NATIVE(pd_quantize, in(0), param(0))});
  r.add(
      {.name = "scale_range",
       .family = "conversions",
       .args = {wire("input", P::U64), konst("min", P::F64, Value::f64(0.0)),
                konst("max", P::F64, Value::f64(1.0))},
       .results = {Type::F64},
       .summary = "min + unit_interval(x) * (max - min).",
       .eval = [](Call& c) { c.set_f64(pd_scale_range(c.u64(0), c.param_f64(0), c.param_f64(1))); },
       .native = PD_NATIVE(pd_scale_range, in(0), param(0), param(1))});
  r.add({.name = "clamp_f64",
         .family = "conversions",
         .args = {wire("input", P::F64), konst("min", P::F64), konst("max", P::F64)},
         .results = {Type::F64},
         .summary = "x limited to [min, max] by comparisons: NaN passes through, -0.0 is kept. "
                    "min <= max and non-NaN bounds are checked at compile time.",
         .prepare = check_f64_bounds,
         .eval = [](Call& c) { c.set_f64(pd_clamp_f64(c.f64(0), c.param_f64(0), c.param_f64(1))); },
         .native = PD_NATIVE(pd_clamp_f64, in(0), param(0), param(1))});

  ADD_F64(add_math, r, abs_f64, "|x| (clears the sign bit).");
  ADD_F64(add_math, r, sqrt, "Correctly rounded square root; NaN for x < 0.");
  ADD_F64(add_math, r, ln, "Natural logarithm; -inf at 0, NaN below 0.");
  ADD_F64(add_math, r, exp, "e^x; overflows to inf above 709.78, 0 below -745.13.");
  ADD_F64(add_math, r, sin, "Sine; Payne-Hanek reduction, so accurate for every finite x.");
  ADD_F64(add_math, r, cos, "Cosine; Payne-Hanek reduction.");
  ADD_F64(add_math, r, tan, "Tangent, sin/cos of the reduced argument.");
  ADD_F64(add_math, r, asin, "Arcsine; NaN outside [-1, 1].");
  ADD_F64(add_math, r, acos, "Arccosine; NaN outside [-1, 1].");
  ADD_F64(add_math, r, atan, "Arctangent.");
  r.add({.name = "atan2",
         .family = "f64 math",
         .args = {wire("y", P::F64), wire("x", P::F64)},
         .results = {Type::F64},
         .summary = "The angle of the point (x, y) in (-pi, pi], with C99's special cases "
                    "(signed zeros, infinities).",
         .eval = [](Call& c) { c.set_f64(pd_atan2(c.f64(0), c.f64(1))); },
         .native = PD_NATIVE(pd_atan2, in(0), in(1))});
  r.add({.name = "pow",
         .family = "f64 math",
         .args = {wire("base", P::F64), wire("exponent", P::F64)},
         .results = {Type::F64},
         .summary = "base^exponent with the C99 special cases (pow(x, 0) = 1, pow(1, y) = 1, "
                    "negative base needs an integral exponent, else NaN); double-double "
                    "ln and exp inside.",
         .eval = [](Call& c) { c.set_f64(pd_pow(c.f64(0), c.f64(1))); },
         .native = PD_NATIVE(pd_pow, in(0), in(1))});
  register_round_numbers(r);
}

}  // namespace polyrt::nodes
