#include <string>

#include "nodes/registry.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {

std::vector<Type> same_as_first(const std::vector<Type>& in, const std::vector<Value>&) {
  if (in[0] != in[1]) {
    throw ParamError{0, "fallback must have the type of the value (" +
                            std::string(type_name(in[0])) + "), got " +
                            std::string(type_name(in[1]))};
  }
  return {in[0]};
}

// default_or and this_or over a chunk: the columnar form runs only when no
// input is None for the batch, so the value is present on every row.
void copy_present_value(const ColumnCall& c) {
  const ColumnInput& in = c.inputs[0];
  const ColumnOutput& out = c.outputs[0];
  for (uint64_t r = 0; r < c.rows; ++r) {
    if (out.text) {
      out.text->append(in.text(r));
    } else {
      out.words[r] = in.word(r);
    }
  }
}

// pick(b0, ..., bN-1, v0, ..., vN-1): N integer selectors, then N values of
// one type, which is the result's.
std::vector<Type> pick_type(const std::vector<Type>& in, const std::vector<Value>&) {
  if (in.size() < 2 || in.size() % 2 != 0) {
    throw ParamError{0, "pick takes N selectors then N values (an even count, at least 2), got " +
                            std::to_string(in.size()) + " arguments"};
  }
  const size_t n = in.size() / 2;
  for (size_t k = 0; k < n; ++k) {
    if (in[k] != Type::U64 && in[k] != Type::Bool) {
      throw ParamError{k, "selector " + std::to_string(k) + " must be a bool or u64, got " +
                              std::string(type_name(in[k]))};
    }
  }
  for (size_t k = n + 1; k < in.size(); ++k) {
    if (in[k] != in[n]) {
      throw ParamError{k, "value " + std::to_string(k - n) + " is a " +
                              std::string(type_name(in[k])) + " but value 0 is a " +
                              std::string(type_name(in[n])) + ": the values share one type"};
    }
  }
  return {in[n]};
}

void pick_value(Call& c) {
  const size_t n = c.input_count() / 2;
  std::string matched;
  size_t chosen = 0, count = 0;
  for (size_t k = 0; k < n; ++k) {
    if (c.u64(k) == 0) continue;
    matched += (count++ ? ", b" : "b") + std::to_string(k);
    chosen = k;
  }
  if (count == 0) {
    throw NodeFailure{"no selector of pick is true (all " + std::to_string(n) +
                      " are false); exactly one must be"};
  }
  if (count > 1) {
    throw NodeFailure{"several selectors of pick are true (" + matched + "); exactly one must be"};
  }
  c.set(c.input(n + chosen));
}

}  // namespace

void register_predicate_nodes(Registry& r) {
  using P = PortType;
  r.add({.name = "default_or",
         .family = "None and predicates",
         .args = {wire("value", P::Any), wire("fallback", P::Any)},
         .result_types = same_as_first,
         .result_doc = "same type as value",
         .accepts_none = true,
         .summary = "value unless it is None, then fallback (None-aware).",
         .eval = [](Call& c) { c.set(c.input(0).is_none() ? c.input(1) : c.input(0)); },
         .columnar = copy_present_value});
  r.add({.name = "pick",
         .family = "None and predicates",
         .args = {wires("selectors_then_values", P::Any)},
         .result_types = pick_type,
         .result_doc = "the values' type",
         .can_fail = true,
         .summary = "polydat's branched dispatch: pick(b0, ..., bN-1, v0, ..., vN-1) is the value "
                    "vK whose selector bK (a bool or u64) is the one that is true (nonzero). The "
                    "values share one type.",
         .failure = "no selector or several are true",
         .eval = pick_value});
  r.add({.name = "this_or",
         .family = "None and predicates",
         .args = {wire("value", P::U64), wire("fallback", P::U64)},
         .results = {Type::U64},
         .accepts_none = true,
         .summary = "value unless it is None, then fallback (None-aware, u64).",
         .eval = [](Call& c) { c.set(c.input(0).is_none() ? c.input(1) : c.input(0)); },
         .columnar = copy_present_value});
  r.add({.name = "required",
         .family = "None and predicates",
         .args = {wire("value", P::U64), konst("name", P::Str, Value::str("value"))},
         .results = {Type::U64},
         .accepts_none = true,
         .can_fail = true,
         .summary = "value, which must not be None (None-aware).",
         .failure = "value is None",
         .eval = [](Call& c) {
           if (c.input(0).is_none()) throw NodeFailure{c.param_str(0) + " was not defined"};
           c.set(c.input(0));
         }});
  r.add({.name = "is_positive",
         .family = "None and predicates",
         .args = {wire("x", P::U64), konst("name", P::Str, Value::str("value"))},
         .results = {Type::U64},
         .can_fail = true,
         .summary = "x, which must be > 0.",
         .failure = "x is 0",
         .eval =
             [](Call& c) {
               uint64_t out;
               if (pd_is_positive(c.u64(0), &out) != PD_OK) {
                 throw NodeFailure{c.param_str(0) + " must be positive, got 0"};
               }
               c.set_u64(out);
             },
         .native = PD_NATIVE(pd_is_positive, in(0), outputs())});
  r.add({.name = "in_range",
         .family = "None and predicates",
         .args = {wire("x", P::U64), konst("lo", P::U64, Value::u64(0)),
                  konst("hi", P::U64, Value::u64(~0ULL))},
         .results = {Type::U64},
         .can_fail = true,
         .summary = "x, which must satisfy lo <= x <= hi; lo <= hi is checked at compile time.",
         .failure = "x outside [lo, hi]",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           if (p[0].as_u64() > p[1].as_u64()) {
             throw ParamError{1, "hi " + std::to_string(p[1].as_u64()) + " is below lo " +
                                     std::to_string(p[0].as_u64())};
           }
           return nullptr;
         },
         .eval =
             [](Call& c) {
               uint64_t out;
               if (pd_in_range(c.u64(0), c.param_u64(0), c.param_u64(1), &out) != PD_OK) {
                 throw NodeFailure{"value " + std::to_string(c.u64(0)) + " is not in range [" +
                                   std::to_string(c.param_u64(0)) + ", " +
                                   std::to_string(c.param_u64(1)) + "]"};
               }
               c.set_u64(out);
             },
         .native = PD_NATIVE(pd_in_range, in(0), param(0), param(1), outputs())});
  r.add({.name = "is_one_of",
         .family = "None and predicates",
         .args = {wire("x", P::U64), konsts("allowed", P::U64)},
         .results = {Type::U64},
         .can_fail = true,
         .summary = "x, which must be one of the allowed values (at least one, checked at "
                    "compile time).",
         .failure = "x not allowed",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           if (p.empty()) throw ParamError{0, "is_one_of needs at least one allowed value"};
           auto prepared = std::make_shared<Prepared>();
           for (const Value& v : p) prepared->u64s.push_back(v.as_u64());
           return prepared;
         },
         .eval =
             [](Call& c) {
               const auto& allowed = c.prepared().u64s;
               uint64_t out;
               if (pd_is_one_of(c.u64(0), allowed.data(), allowed.size(), &out) != PD_OK) {
                 std::string set;
                 for (size_t i = 0; i < allowed.size(); ++i) {
                   set += (i ? ", " : "") + std::to_string(allowed[i]);
                 }
                 throw NodeFailure{"value " + std::to_string(c.u64(0)) + " is not one of {" + set +
                                   "}"};
               }
               c.set_u64(out);
             },
         .native = PD_NATIVE(pd_is_one_of, in(0), u64_table(), u64_count(), outputs())});
}

}  // namespace polyrt::nodes
