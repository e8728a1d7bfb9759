#include <string>
#include <string_view>

#include "nodes/registry.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {

using BinaryU64 = uint64_t (*)(uint64_t, uint64_t);

// Adds one two-wire u64 node; `fn` is the rtlib function, chosen at compile time
// through the template argument so the eval stays a captureless function.
template <BinaryU64 fn>
void add_binary(Registry& r, std::string_view name, std::string_view symbol,
                std::string_view summary, std::string_view family = "u64 operators",
                std::string_view first = "a", std::string_view second = "b") {
  r.add({.name = name,
         .family = family,
         .args = {wire(first, PortType::U64), wire(second, PortType::U64)},
         .results = {Type::U64},
         .summary = summary,
         .eval = [](Call& c) { c.set_u64(fn(c.u64(0), c.u64(1))); },
         .native = native<fn>(symbol, {in(0), in(1)})});
}

// ADD_BINARY(r, u64_add, "..."): node u64_add implemented by rtlib pd_u64_add.
#define ADD_BINARY(r, name, summary) add_binary<pd_##name>(r, #name, "pd_" #name, summary)

template <BinaryU64 fn>
void fold_variadic(Call& c, uint64_t identity) {
  uint64_t acc = identity;
  for (size_t i = 0; i < c.input_count(); ++i) acc = fn(acc, c.u64(i));
  c.set_u64(acc);
}

// A zero modulus or divisor would fail every row: a compile error, not a
// program that compiles and then fails on every input.
std::shared_ptr<const Prepared> require_nonzero(const std::vector<Value>& params, const char* what,
                                                const char* operation) {
  if (params[0].as_u64() == 0) {
    throw ParamError{0, std::string(what) + " 0 would fail on every input (" + operation +
                            " 0 is undefined); use a nonzero literal"};
  }
  return nullptr;
}

std::shared_ptr<const Prepared> check_radices(const std::vector<Value>& params) {
  if (params.empty()) throw ParamError{0, "mixed_radix needs at least one radix"};
  auto prepared = std::make_shared<Prepared>();
  for (size_t i = 0; i < params.size(); ++i) {
    const uint64_t radix = params[i].as_u64();
    if (radix == 0 && i + 1 != params.size()) {
      throw ParamError{i, "only the last radix may be 0 (it takes the whole remainder)"};
    }
    prepared->u64s.push_back(radix);
  }
  return prepared;
}

std::shared_ptr<const Prepared> check_clamp(const std::vector<Value>& params) {
  if (params[0].as_u64() > params[1].as_u64()) {
    throw ParamError{1, "max " + std::to_string(params[1].as_u64()) + " is below min " +
                            std::to_string(params[0].as_u64())};
  }
  return nullptr;
}

// input (op) divisor for the wire forms, or a failure of the row.
uint64_t divided_or_fail(const Call& c, int32_t (*divide)(uint64_t, uint64_t, uint64_t*),
                         const char* what, const char* zero) {
  uint64_t out;
  if (divide(c.u64(0), c.u64(1), &out) != PD_OK) {
    throw NodeFailure{what + std::to_string(c.u64(0)) + zero};
  }
  return out;
}

}  // namespace

void register_integer_nodes(Registry& r) {
  using P = PortType;
  r.add({.name = "mod",
         .family = "integer arithmetic",
         .args = {wire("input", P::U64), konst("modulus", P::U64)},
         .results = {Type::U64},
         .summary = "input mod modulus; a modulus of 0 is a compile error.",
         .prepare =
             [](const std::vector<Value>& p) { return require_nonzero(p, "modulus", "x mod"); },
         .eval =
             [](Call& c) {
               uint64_t out;
               if (pd_mod(c.u64(0), c.param_u64(0), &out) != PD_OK) {
                 throw NodeFailure{"mod by zero: " + std::to_string(c.u64(0)) + " mod 0"};
               }
               c.set_u64(out);
             },
         .native = PD_NATIVE(pd_mod, in(0), param(0), outputs())});
  r.add(
      {.name = "div",
       .family = "integer arithmetic",
       .args = {wire("input", P::U64), konst("divisor", P::U64)},
       .results = {Type::U64},
       .summary = "input / divisor, rounded down; a divisor of 0 is a compile error.",
       .prepare = [](const std::vector<Value>& p) { return require_nonzero(p, "divisor", "x /"); },
       .eval =
           [](Call& c) {
             uint64_t out;
             if (pd_div(c.u64(0), c.param_u64(0), &out) != PD_OK) {
               throw NodeFailure{"division by zero: " + std::to_string(c.u64(0)) + " / 0"};
             }
             c.set_u64(out);
           },
       .native = PD_NATIVE(pd_div, in(0), param(0), outputs())});
  r.add({.name = "add",
         .family = "integer arithmetic",
         .args = {wire("input", P::U64), konst("addend", P::U64)},
         .results = {Type::U64},
         .summary = "input + addend, wrapping.",
         .eval = [](Call& c) { c.set_u64(pd_u64_add(c.u64(0), c.param_u64(0))); },
         .native = PD_NATIVE(pd_u64_add, in(0), param(0))});
  r.add({.name = "mul",
         .family = "integer arithmetic",
         .args = {wire("input", P::U64), konst("factor", P::U64)},
         .results = {Type::U64},
         .summary = "input * factor, wrapping.",
         .eval = [](Call& c) { c.set_u64(pd_u64_mul(c.u64(0), c.param_u64(0))); },
         .native = PD_NATIVE(pd_u64_mul, in(0), param(0))});
  r.add({.name = "clamp",
         .family = "integer arithmetic",
         .args = {wire("input", P::U64), konst("min", P::U64), konst("max", P::U64)},
         .results = {Type::U64},
         .summary = "input saturated to [min, max]; min <= max is checked at compile time.",
         .prepare = check_clamp,
         .eval = [](Call& c) { c.set_u64(pd_clamp_u64(c.u64(0), c.param_u64(0), c.param_u64(1))); },
         .native = PD_NATIVE(pd_clamp_u64, in(0), param(0), param(1))});
  r.add({.name = "mixed_radix",
         .family = "integer arithmetic",
         .args = {wire("input", P::U64), konsts("radixes", P::U64)},
         .result_types =
             [](const std::vector<Type>&, const std::vector<Value>& params) {
               return std::vector<Type>(params.size(), Type::U64);
             },
         .result_doc = "(u64, ...) one digit per radix",
         .summary = "Digits of input in the mixed radix, innermost first: digit k = remainder mod "
                    "radix k, then divide. A last radix of 0 takes the whole remainder.",
         .prepare = check_radices,
         .eval =
             [](Call& c) {
               const auto& radices = c.prepared().u64s;
               std::vector<uint64_t> digits(radices.size());
               pd_mixed_radix(c.u64(0), radices.data(), radices.size(), digits.data());
               for (size_t i = 0; i < digits.size(); ++i) c.set_u64(digits[i], i);
             },
         .native = PD_NATIVE(pd_mixed_radix, in(0), u64_table(), u64_count(), outputs())});
  // The wire forms of mod and div: the divisor comes from another node, so
  // a zero one fails the row (polydat panics there).
  const auto wire_division = [&](std::string_view name, std::string_view summary,
                                 void (*eval)(Call&), NativeForm native) {
    r.add({.name = name,
           .family = "integer arithmetic",
           .args = {wire("input", P::U64), wire("divisor", P::U64)},
           .results = {Type::U64},
           .can_fail = true,
           .summary = summary,
           .failure = "divisor 0",
           .eval = eval,
           .native = std::move(native)});
  };
  wire_division(
      "mod_wire", "input mod divisor, both wires.",
      [](Call& c) { c.set_u64(divided_or_fail(c, pd_mod, "mod_wire by zero: ", " mod 0")); },
      PD_NATIVE(pd_mod, in(0), in(1), outputs()));
  wire_division(
      "div_wire", "input / divisor (rounded down), both wires.",
      [](Call& c) { c.set_u64(divided_or_fail(c, pd_div, "div_wire by zero: ", " / 0")); },
      PD_NATIVE(pd_div, in(0), in(1), outputs()));
  add_binary<pd_ceil_to_multiple>(r, "ceil_to_multiple", "pd_ceil_to_multiple",
                                  "The smallest multiple of multiple that is >= value (2^64-1 "
                                  "when that overflows); value itself when multiple is 0.",
                                  "integer arithmetic", "value", "multiple");
  add_binary<pd_multiples_at_least>(r, "multiples_at_least", "pd_multiples_at_least",
                                    "How many multiples cover value: value / multiple rounded "
                                    "up; 0 when multiple is 0.",
                                    "integer arithmetic", "value", "multiple");
  add_binary<pd_set_or_get>(r, "set_or_get", "pd_set_or_get",
                            "current unless it is 0, else fallback.", "integer arithmetic",
                            "current", "fallback");
  add_binary<pd_checked_add>(r, "checked_add", "pd_checked_add",
                             "a + b, or 0 when it overflows (polydat's checked_add).",
                             "integer arithmetic");
  add_binary<pd_checked_sub>(r, "checked_sub", "pd_checked_sub",
                             "a - b, or 0 when b > a (saturating, polydat's checked_sub).",
                             "integer arithmetic");
  add_binary<pd_checked_mul>(r, "checked_mul", "pd_checked_mul",
                             "a * b, or 0 when it overflows (polydat's checked_mul).",
                             "integer arithmetic");
  add_binary<pd_lfsr_step>(r, "lfsr_step", "pd_lfsr_step",
                           "One step of a Galois LFSR shifting right, as polydat's lfsr_step: "
                           "input >> 1, XORed with feedback when input's low bit is 1. With a "
                           "maximal polynomial of width w it walks 1 .. 2^w - 1 once per period.",
                           "integer arithmetic", "input", "feedback");
  r.add({.name = "product",
         .family = "integer arithmetic",
         .args = {wires("values", P::U64)},
         .results = {Type::U64},
         .summary = "Wrapping product; 1 for no arguments.",
         .eval = [](Call& c) { fold_variadic<pd_u64_mul>(c, 1); }});
  add_binary<pd_interleave>(
      r, "interleave", "pd_interleave",
      "Morton code of the low 32 bits: bit i of a to bit 2i, bit i of b to bit 2i+1.",
      "integer arithmetic");
  r.add({.name = "sum",
         .family = "integer arithmetic",
         .args = {wires("values", P::U64)},
         .results = {Type::U64},
         .summary = "Wrapping sum; 0 for no arguments.",
         .eval = [](Call& c) { fold_variadic<pd_u64_add>(c, 0); }});
  r.add({.name = "min",
         .family = "integer arithmetic",
         .args = {wires("values", P::U64)},
         .results = {Type::U64},
         .summary = "Smallest value; 2^64-1 for no arguments.",
         .eval = [](Call& c) { fold_variadic<pd_u64_min>(c, ~0ULL); }});
  r.add({.name = "max",
         .family = "integer arithmetic",
         .args = {wires("values", P::U64)},
         .results = {Type::U64},
         .summary = "Largest value; 0 for no arguments.",
         .eval = [](Call& c) { fold_variadic<pd_u64_max>(c, 0); }});

  ADD_BINARY(r, u64_add, "a + b, wrapping (infix +).");
  ADD_BINARY(r, u64_sub, "a - b, wrapping (infix -).");
  ADD_BINARY(r, u64_mul, "a * b, wrapping (infix *).");
  ADD_BINARY(r, u64_div, "a / b rounded down; 0 when b is 0 (infix /).");
  ADD_BINARY(r, u64_mod, "a mod b; 0 when b is 0 (infix %).");
  ADD_BINARY(r, u64_and, "Bitwise and (infix &).");
  ADD_BINARY(r, u64_or, "Bitwise or (infix |).");
  ADD_BINARY(r, u64_xor, "Bitwise xor (infix ^).");
  ADD_BINARY(r, u64_shl, "a << (b mod 64) (infix <<).");
  ADD_BINARY(r, u64_shr, "Logical a >> (b mod 64) (infix >>).");
  ADD_BINARY(r, u64_eq, "1 when a == b, else 0 (infix ==).");
  ADD_BINARY(r, u64_ne, "1 when a != b, else 0 (infix !=).");
  ADD_BINARY(r, u64_lt, "1 when a < b, else 0 (infix <).");
  ADD_BINARY(r, u64_le, "1 when a <= b, else 0 (infix <=).");
  ADD_BINARY(r, u64_gt, "1 when a > b, else 0 (infix >).");
  ADD_BINARY(r, u64_ge, "1 when a >= b, else 0 (infix >=).");
  r.add({.name = "u64_not",
         .family = "u64 operators",
         .args = {wire("a", P::U64)},
         .results = {Type::U64},
         .summary = "Bitwise complement (prefix !).",
         .eval = [](Call& c) { c.set_u64(pd_u64_not(c.u64(0))); },
         .native = PD_NATIVE(pd_u64_not, in(0))});
  r.add({.name = "select_u64",
         .family = "u64 operators",
         .args = {wire("cond", P::U64), wire("then", P::U64), wire("else", P::U64)},
         .results = {Type::U64},
         .summary = "then when cond != 0, else else; both branches are evaluated (if(c, a, b)).",
         .eval = [](Call& c) { c.set_u64(pd_select_u64(c.u64(0), c.u64(1), c.u64(2))); },
         .native = PD_NATIVE(pd_select_u64, in(0), in(1), in(2))});
}

}  // namespace polyrt::nodes
