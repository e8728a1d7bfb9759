// Dates and times on epoch milliseconds (UTC, proleptic Gregorian): polydat's
// epoch_scale, epoch_offset, date_components (native: the kernels compute
// them, on the GPU too) and to_timestamp (ISO 8601 text).
#include "nodes/registry.hpp"
#include "nodes/text_fields.hpp"
#include "rtlib/rtlib.h"
#include "rtlib/text.hpp"

namespace polyrt::nodes {

void register_datetime_nodes(Registry& r) {
  using P = PortType;
  r.add({.name = "epoch_scale",
         .family = "dates and times",
         .args = {wire("input", P::U64), konst("factor", P::U64, Value::u64(1))},
         .results = {Type::U64},
         .summary =
             "input * factor, wrapping: input in units of factor milliseconds (1000: seconds, "
             "60000: minutes) as milliseconds.",
         .eval = [](Call& c) { c.set_u64(pd_u64_mul(c.u64(0), c.param_u64(0))); },
         .native = PD_NATIVE(pd_u64_mul, in(0), param(0))});
  r.add({.name = "epoch_offset",
         .family = "dates and times",
         .args = {wire("input", P::U64), konst("base_epoch_ms", P::U64, Value::u64(0))},
         .results = {Type::U64},
         .summary = "input + base_epoch_ms, wrapping: an offset from a base instant "
                    "(1704067200000 is 2024-01-01T00:00:00Z).",
         .eval = [](Call& c) { c.set_u64(pd_u64_add(c.u64(0), c.param_u64(0))); },
         .native = PD_NATIVE(pd_u64_add, in(0), param(0))});
  r.add({.name = "date_components",
         .family = "dates and times",
         .args = {wire("input", P::U64)},
         .results = {Type::U64, Type::U64, Type::U64, Type::U64, Type::U64, Type::U64, Type::U64},
         .result_doc = "(year, month, day, hour, minute, second, millis)",
         .summary = "Epoch milliseconds as year, month 1-12, day 1-31, hour, minute, second and "
                    "millisecond (UTC, proleptic Gregorian, no leap seconds; constant time for "
                    "every u64).",
         .eval =
             [](Call& c) {
               uint64_t parts[7];
               pd_date_components(c.u64(0), parts);
               for (size_t k = 0; k < 7; ++k) c.set_u64(parts[k], k);
             },
         .native = PD_NATIVE(pd_date_components, in(0), outputs())});
  r.add({.name = "to_timestamp",
         .family = "dates and times",
         .args = {wire("input", P::U64)},
         .results = {Type::Str},
         .summary = "Epoch milliseconds as ISO 8601 \"YYYY-MM-DDThh:mm:ss.mmmZ\" (UTC; years "
                    "past 9999 take more digits).",
         .eval =
             [](Call& c) {
               char text[rt::kTimestampText];
               c.set_str(std::string(text, rt::write_timestamp(text, c.u64(0))));
             },
         .columnar =
             [](const ColumnCall& c) {
               const ColumnInput in = c.inputs[0];  // a copy: one load per row
               for_each_text_row(c, [&](uint64_t r, char* p, const auto& ensure) {
                 return rt::write_timestamp(ensure(p, rt::kTimestampText), in.word(r));
               });
             }});
}

}  // namespace polyrt::nodes
