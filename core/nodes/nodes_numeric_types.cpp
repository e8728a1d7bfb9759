// Nodes of the signed integers and of the conversions between the numeric
// types (i8..i64, u8..u64, f32, f64): the infix operators lower to the i64
// nodes when an operand is signed, and `as` lowers to the conversions.
#include <string>
#include <string_view>
#include <type_traits>

#include "nodes/registry.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {

using P = PortType;
using BinaryWord = uint64_t (*)(uint64_t, uint64_t);

// A two-wire i64 node giving `result` (i64, or u64 1/0 for the comparisons).
// The wrapping operations are the u64 functions: the low 64 bits of a sum,
// difference or product do not depend on the sign.
template <BinaryWord fn, Type result>
void add_i64_binary(Registry& r, std::string_view name, std::string_view symbol,
                    std::string_view summary) {
  r.add({.name = name,
         .family = "i64 operators",
         .args = {wire("a", P::I64), wire("b", P::I64)},
         .results = {result},
         .summary = summary,
         .eval = [](Call& c) { c.set(Value::of_word(result, fn(c.word(0), c.word(1)))); },
         .native = native<fn>(symbol, {in(0), in(1)})});
}

template <typename R, typename A>
A argument_of(R (*)(A));

// A one-wire conversion node calling rtlib `fn` (of a double or a word),
// giving a value of `result` (its NaN the canonical one).
template <auto fn, Type result>
void add_conversion(Registry& r, std::string_view name, std::string_view symbol, PortType port,
                    std::string_view summary) {
  r.add({.name = name,
         .family = "conversions",
         .args = {wire("input", port)},
         .results = {result},
         .summary = summary,
         .eval =
             [](Call& c) {
               using A = decltype(argument_of(fn));
               const A input = [&] {
                 if constexpr (std::is_same_v<A, double>) {
                   return c.f64(0);
                 } else {
                   return c.word(0);
                 }
               }();
               c.set(Value::of_word(result, kit_detail::to_word(fn(input))));
             },
         .native = native<fn>(symbol, {in(0)})});
}

Type integer_type(uint64_t bits, bool is_signed) {
  switch (bits) {
    case 8:
      return is_signed ? Type::I8 : Type::U8;
    case 16:
      return is_signed ? Type::I16 : Type::U16;
    case 32:
      return is_signed ? Type::I32 : Type::U32;
    default:
      return is_signed ? Type::I64 : Type::U64;
  }
}

// The integer type __int_convert's constants name.
Type convert_target(const std::vector<Value>& params) {
  return integer_type(params[1].as_u64(), params[2].as_u64() != 0);
}

std::string value_text(uint64_t word, bool is_signed) {
  return is_signed ? std::to_string((int64_t)word) : std::to_string(word);
}

}  // namespace

void register_numeric_type_nodes(Registry& r) {
  add_i64_binary<pd_u64_add, Type::I64>(r, "i64_add", "pd_u64_add",
                                        "a + b, wrapping (infix + on signed integers).");
  add_i64_binary<pd_u64_sub, Type::I64>(r, "i64_sub", "pd_u64_sub",
                                        "a - b, wrapping (infix - on signed integers).");
  add_i64_binary<pd_u64_mul, Type::I64>(r, "i64_mul", "pd_u64_mul",
                                        "a * b, wrapping (infix * on signed integers).");
  add_i64_binary<pd_i64_div, Type::I64>(
      r, "i64_div", "pd_i64_div",
      "a / b truncated toward zero; 0 when b is 0; -2^63 / -1 wraps to -2^63 (infix /).");
  add_i64_binary<pd_i64_mod, Type::I64>(
      r, "i64_mod", "pd_i64_mod",
      "Remainder of a / b with the sign of a; 0 when b is 0 or -1 (infix %).");
  add_i64_binary<pd_u64_eq, Type::U64>(r, "i64_eq", "pd_u64_eq", "1 if a == b else 0.");
  add_i64_binary<pd_u64_ne, Type::U64>(r, "i64_ne", "pd_u64_ne", "1 if a != b else 0.");
  add_i64_binary<pd_i64_lt, Type::U64>(r, "i64_lt", "pd_i64_lt", "1 if a < b else 0 (signed).");
  add_i64_binary<pd_i64_le, Type::U64>(r, "i64_le", "pd_i64_le", "1 if a <= b else 0 (signed).");
  add_i64_binary<pd_i64_gt, Type::U64>(r, "i64_gt", "pd_i64_gt", "1 if a > b else 0 (signed).");
  add_i64_binary<pd_i64_ge, Type::U64>(r, "i64_ge", "pd_i64_ge", "1 if a >= b else 0 (signed).");
  r.add({.name = "i64_neg",
         .family = "i64 operators",
         .args = {wire("a", P::I64)},
         .results = {Type::I64},
         .summary = "-a, wrapping (-(-2^63) is -2^63; prefix - on signed integers).",
         .eval = [](Call& c) { c.set(Value::of_word(Type::I64, pd_i64_neg(c.word(0)))); },
         .native = PD_NATIVE(pd_i64_neg, in(0))});

  r.add({.name = "select_i64",
         .family = "i64 operators",
         .args = {wire("cond", P::U64), wire("a", P::I64), wire("b", P::I64)},
         .results = {Type::I64},
         .summary = "a if cond != 0 else b (if/else on signed integers).",
         .eval =
             [](Call& c) {
               c.set(Value::of_word(Type::I64, pd_select_u64(c.u64(0), c.word(1), c.word(2))));
             },
         .native = PD_NATIVE(pd_select_u64, in(0), in(1), in(2))});

  add_conversion<pd_i64_to_f64, Type::F64>(r, "i64_to_f64", "pd_i64_to_f64", P::I64,
                                           "Nearest double (round to nearest even).");
  r.add({.name = "to_i64",
         .family = "conversions",
         .args = {wire("input", P::U64)},
         .results = {Type::I64},
         .can_fail = true,
         .summary = "input as an i64 (polydat's to_i64; `input as i64` is the same check).",
         .failure = "input is above 9223372036854775807",
         .eval = [](Call& c) {
           const uint64_t input = c.u64(0);
           if (input > (uint64_t)INT64_MAX) {
             throw NodeFailure{"value " + std::to_string(input) +
                               " does not fit i64 (above 9223372036854775807)"};
           }
           c.set(Value::i64((int64_t)input));
         }});
  add_conversion<pd_f64_to_i64, Type::I64>(
      r, "f64_to_i64", "pd_f64_to_i64", P::F64,
      "Truncate toward zero, saturating at -2^63 and 2^63-1; NaN gives 0.");
  add_conversion<pd_round_to_i64, Type::I64>(
      r, "round_to_i64", "pd_round_to_i64", P::F64,
      "Round half away from zero, saturating at -2^63 and 2^63-1; NaN gives 0.");
  add_conversion<pd_f64_to_f32, Type::F32>(
      r, "f64_to_f32", "pd_f64_to_f32", P::F64,
      "The nearest f32 (round to nearest even); +-inf past the f32 range (`as f32`).");
  add_conversion<pd_u64_to_f32, Type::F32>(
      r, "u64_to_f32", "pd_u64_to_f32", P::U64,
      "The nearest f32, rounded once (`as f32` on an unsigned integer).");
  add_conversion<pd_i64_to_f32, Type::F32>(
      r, "i64_to_f32", "pd_i64_to_f32", P::I64,
      "The nearest f32, rounded once (`as f32` on a signed integer).");
}

const NodeDef& int_convert_node() {
  static const NodeDef def{
      .name = "__int_convert",
      .family = "internal",
      .args = {wire("value", P::Any), konst("from_signed", P::U64), konst("to_bits", P::U64),
               konst("to_signed", P::U64)},
      .result_types = [](const std::vector<Type>&, const std::vector<Value>& params)
          -> std::vector<Type> { return {convert_target(params)}; },
      .result_doc = "the integer type of to_bits and to_signed",
      .can_fail = true,
      .summary =
          "A range-checked integer conversion; inserted by `as` to a narrower or "
          "differently signed integer type.",
      .failure = "the value is outside the target type's range",
      .eval =
          [](Call& c) {
            const Type to = convert_target(c.params());
            const bool from_signed = c.param_u64(0) != 0;
            const uint64_t word = c.word(0);
            uint64_t out;
            if (pd_int_convert(word, c.param_u64(0), c.param_u64(1), c.param_u64(2), &out) !=
                PD_OK) {
              throw NodeFailure{"value " + value_text(word, from_signed) + " does not fit " +
                                std::string(type_name(to)) + " (" +
                                std::to_string(integer_min(to)) + ".." +
                                std::to_string(integer_max(to)) + ")"};
            }
            c.set(Value::of_word(to, out));
          },
      .native = PD_NATIVE(pd_int_convert, in(0), param(0), param(1), param(2), outputs()),
  };
  return def;
}

const NodeDef& retag_node() {
  static const NodeDef def{
      .name = "__retag",
      .family = "internal",
      .args = {wire("value", P::Any), konst("type", P::U64)},
      .result_types = [](const std::vector<Type>&, const std::vector<Value>& params)
          -> std::vector<Type> { return {(Type)params[0].as_u64()}; },
      .result_doc = "the type numbered `type`",
      .summary =
          "The same word as another type: a widening that keeps the word (u32 to "
          "u64 or i64, i8 to i32, f32 to f64, bool to a number); inserted by the "
          "checker.",
      .eval = [](Call& c) { c.set(Value::of_word((Type)c.param_u64(0), c.word(0))); },
      .native = PD_NATIVE(pd_identity_word, in(0)),
  };
  return def;
}

}  // namespace polyrt::nodes
