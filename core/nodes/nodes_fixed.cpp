// polydat's constant and fixed-list nodes: const_u64, const_f64, const_str,
// const_bool (no input: folded at compile time), fixed_values_u64, fixed_values_f64 and
// fixed_values_str (entry input mod n of a constant list, native, and for
// strings a table pick), and coin_flip (input below a threshold precomputed
// from a probability, as polydat computes it).
#include <string>

#include "nodes/native_form.hpp"
#include "nodes/registry.hpp"
#include "nodes/spec_parsing.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {

using P = PortType;

void require_values(const std::vector<Value>& p, std::string_view node) {
  if (p.empty()) throw ParamError{0, std::string(node) + ": the value list must not be empty"};
}

}  // namespace

void register_fixed_nodes(Registry& r) {
  r.add({.name = "const_u64",
         .family = "constants and fixed lists",
         .args = {konst("value", P::U64)},
         .results = {Type::U64},
         .summary = "value, whatever the coordinates.",
         .eval = [](Call& c) { c.set_u64(c.param_u64(0)); }});
  r.add({.name = "const_f64",
         .family = "constants and fixed lists",
         .args = {konst("value", P::F64, Value::f64(0.0))},
         .results = {Type::F64},
         .summary = "value, whatever the coordinates.",
         .eval = [](Call& c) { c.set_f64(c.param_f64(0)); }});
  r.add({.name = "const_str",
         .family = "constants and fixed lists",
         .args = {konst("value", P::Str, Value::str(""))},
         .results = {Type::Str},
         .summary = "value, whatever the coordinates.",
         .eval = [](Call& c) { c.set_str(c.param_str(0)); }});
  r.add({.name = "const_bool",
         .family = "constants and fixed lists",
         .args = {konst("value", P::Bool, Value::boolean(false))},
         .results = {Type::Bool},
         .summary = "value (true or false), whatever the coordinates.",
         .eval = [](Call& c) { c.set(Value::boolean(c.params()[0].as_bool())); }});
  r.add({.name = "fixed_values_u64",
         .family = "constants and fixed lists",
         .args = {wire("input", P::U64), konsts("values", P::U64)},
         .results = {Type::U64},
         .summary = "values[input mod n]: the list's entries in turn.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           require_values(p, "fixed_values_u64");
           auto prepared = std::make_shared<Prepared>();
           for (const Value& v : p) prepared->u64s.push_back(v.as_u64());
           return prepared;
         },
         .eval =
             [](Call& c) {
               const auto& t = c.prepared().u64s;
               c.set_u64(pd_table_u64(t.data(), t.size(), c.u64(0)));
             },
         .native = PD_NATIVE(pd_table_u64, u64_table(), u64_count(), in(0))});
  r.add({.name = "fixed_values_f64",
         .family = "constants and fixed lists",
         .args = {wire("input", P::U64), konsts("values", P::F64)},
         .results = {Type::F64},
         .summary = "values[input mod n]: the list's entries in turn.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           require_values(p, "fixed_values_f64");
           auto prepared = std::make_shared<Prepared>();
           for (const Value& v : p) prepared->f64s.push_back(v.as_f64());
           return prepared;
         },
         .eval =
             [](Call& c) {
               const auto& t = c.prepared().f64s;
               c.set_f64(pd_table_f64(t.data(), t.size(), c.u64(0)));
             },
         .native = PD_NATIVE(pd_table_f64, f64_table(), f64_count(), in(0))});
  r.add(
      {.name = "fixed_values_str",
       .family = "constants and fixed lists",
       .args = {wire("input", P::U64), konsts("values", P::Str)},
       .results = {Type::Str},
       .summary = "values[input mod n]: the list's entries in turn.",
       .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
         require_values(p, "fixed_values_str");
         return nullptr;
       },
       .table_pick = TablePick{
           .index = []() -> const NodeDef& { return *find_node("mod"); },
           .index_params = [](const std::vector<Value>& p,
                              const Prepared*) { return std::vector<Value>{Value::u64(p.size())}; },
           .entries = [](const std::vector<Value>& p, const Prepared*) { return p; }}});
  r.add({.name = "coin_flip",
         .family = "constants and fixed lists",
         .args = {wire("input", P::U64), konst("probability", P::F64, Value::f64(0.5))},
         .results = {Type::Bool},
         .summary = "true when input < (clamp(probability, 0, 1) * 2^64) as u64 (saturating), as "
                    "polydat precomputes it. Does not hash: feed it a hashed value.",
         .prepare = prepare_probability_threshold,
         .eval =
             [](Call& c) {
               c.set(Value::boolean(pd_below_threshold(c.u64(0), c.prepared().u64s.data()) != 0));
             },
         .native = PD_NATIVE(pd_below_threshold, in(0), u64_table())});
}

}  // namespace polyrt::nodes
