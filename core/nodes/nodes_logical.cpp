// The conversions `as` inserts for the logical types (polyrt/logical_type.hpp):
// exact decimals, times and dates between units (native: every tier and the
// GPU compute them), a logical value's text, and ISO 8601 text read as one.
#include "nodes/registry.hpp"
#include "nodes/text_fields.hpp"
#include "polyrt/logical_type.hpp"
#include "rtlib/rtlib.h"
#include "rtlib/shortest_double.hpp"
#include "value/logical_text.hpp"
#include "value/time_text.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;

std::string decimal_name(uint64_t precision, uint64_t scale) {
  return logical_type_name(LogicalType::decimal((int)precision, (int)scale));
}

// Why a decimal of `precision` digits and `scale` decimals cannot hold a value.
std::string too_many_digits(uint64_t precision, uint64_t scale) {
  return "does not fit " + decimal_name(precision, scale) + " (at most " +
         std::to_string(precision - scale) + " digits before the point)";
}

LogicalType logical_of(const std::vector<Value>& params) {
  return LogicalType{(LogicalKind)params[0].as_u64(), 0, (uint8_t)params[1].as_u64()};
}

}  // namespace

const NodeDef& decimal_from_f64_node() {
  static const NodeDef def{
      .name = "__decimal_from_f64",
      .family = "internal",
      .args = {wire("value", P::F64), konst("scale", P::U64), konst("precision", P::U64)},
      .results = {Type::I64},
      .can_fail = true,
      .summary = "`x as decimal(p, s)` of a float: x * 10^s exactly, rounded half to even.",
      .failure = "the value is NaN or infinite, or has more than p - s digits before the point",
      .eval =
          [](Call& c) {
            uint64_t out;
            const double x = c.f64(0);
            if (pd_decimal_from_f64(x, c.param_u64(0), c.param_u64(1), &out) != PD_OK) {
              throw NodeFailure{"value " + rt::f64_shortest(x) + " " +
                                (x != x || x - x != 0
                                     ? "has no decimal value"
                                     : too_many_digits(c.param_u64(1), c.param_u64(0)))};
            }
            c.set(Value::of_word(Type::I64, out));
          },
      .native = PD_NATIVE(pd_decimal_from_f64, in(0), param(0), param(1), outputs()),
  };
  return def;
}

const NodeDef& decimal_rescale_node() {
  static const NodeDef def{
      .name = "__decimal_rescale",
      .family = "internal",
      .args = {wire("value", P::I64), konst("from_scale", P::U64), konst("to_scale", P::U64),
               konst("precision", P::U64)},
      .results = {Type::I64},
      .can_fail = true,
      .summary =
          "A decimal (or an integer, scale 0) at another scale, rounded half to even; "
          "inserted by `as decimal(p, s)`.",
      .failure = "the value has more than p - s digits before the point",
      .eval =
          [](Call& c) {
            uint64_t out;
            const uint64_t n = c.word(0);
            if (pd_decimal_rescale(n, c.param_u64(0), c.param_u64(1), c.param_u64(2), &out) !=
                PD_OK) {
              throw NodeFailure{
                  "value " +
                  logical_text(LogicalType::decimal(kMaxDecimalPrecision, (int)c.param_u64(0)), n) +
                  " " + too_many_digits(c.param_u64(2), c.param_u64(1))};
            }
            c.set(Value::of_word(Type::I64, out));
          },
      .native = PD_NATIVE(pd_decimal_rescale, in(0), param(0), param(1), param(2), outputs()),
  };
  return def;
}

const NodeDef& decimal_to_f64_node() {
  static const NodeDef def{
      .name = "__decimal_to_f64",
      .family = "internal",
      .args = {wire("value", P::I64), konst("scale", P::U64)},
      .results = {Type::F64},
      .summary = "A decimal's nearest f64 (`as f64`).",
      .eval = [](Call& c) { c.set_f64(pd_decimal_to_f64(c.word(0), c.param_u64(0))); },
      .native = PD_NATIVE(pd_decimal_to_f64, in(0), param(0)),
  };
  return def;
}

const NodeDef& time_rescale_node() {
  static const NodeDef def{
      .name = "__time_rescale",
      .family = "internal",
      .args = {wire("value", P::I64), konst("multiplier", P::U64), konst("divisor", P::U64)},
      .results = {Type::I64},
      .can_fail = true,
      .summary =
          "floor(value * multiplier / divisor): a time or date in other units; "
          "inserted by `as timestamp`, `as timestamp_us` and `as date`.",
      .failure = "the value in the new units is outside the i64 range",
      .eval =
          [](Call& c) {
            uint64_t out;
            const uint64_t t = c.word(0);
            if (pd_time_rescale(t, c.param_u64(0), c.param_u64(1), &out) != PD_OK) {
              throw NodeFailure{"value " + std::to_string((int64_t)t) + " times " +
                                std::to_string(c.param_u64(0)) + " is outside the i64 range"};
            }
            c.set(Value::of_word(Type::I64, out));
          },
      .native = PD_NATIVE(pd_time_rescale, in(0), param(0), param(1), outputs()),
  };
  return def;
}

const NodeDef& logical_text_node() {
  static const NodeDef def{
      .name = "__logical_text",
      .family = "internal",
      .args = {wire("value", P::Any), konst("kind", P::U64), konst("scale", P::U64)},
      .results = {Type::Str},
      .summary = "A logical value's text, as the row writers give it (`as str`).",
      .eval = [](Call& c) { c.set_str(logical_text(logical_of(c.params()), c.word(0))); },
      .columnar =
          [](const ColumnCall& c) {
            const LogicalType type = logical_of(c.params);
            const ColumnInput in = c.inputs[0];
            for_each_text_row(c, [&](uint64_t r, char* p, const auto& ensure) {
              return write_logical_text(ensure(p, rt::kLogicalText), type, in.word(r));
            });
          },
  };
  return def;
}

const NodeDef& parse_time_node() {
  static const NodeDef def{
      .name = "__parse_time",
      .family = "internal",
      .args = {wire("text", P::Str), konst("digits", P::U64)},
      .results = {Type::I64},
      .can_fail = true,
      .summary =
          "ISO 8601 text as days since 1970-01-01 (digits 0: `as date`) or an instant "
          "in units of 10^-digits seconds (`as timestamp`, `as timestamp_us`).",
      .failure = "the text is not an ISO 8601 date or time in range",
      .eval =
          [](Call& c) {
            const auto digits = (int)c.param_u64(0);
            const ParsedTime parsed =
                digits == 0 ? parse_date_text(c.str(0)) : parse_instant_text(c.str(0), digits);
            if (const auto* why = std::get_if<std::string>(&parsed)) {
              throw NodeFailure{"not " + std::string(digits == 0 ? "a date" : "a time") + ": " +
                                *why};
            }
            c.set(Value::of_word(Type::I64, (uint64_t)std::get<int64_t>(parsed)));
          },
  };
  return def;
}

}  // namespace polyrt::nodes
