#include <algorithm>
#include <bit>
#include <string>

#include "nodes/printf_format.hpp"
#include "nodes/registry.hpp"
#include "nodes/text_fields.hpp"
#include "nodes/tile_holes.hpp"
#include "rtlib/fixed_decimal.h"
#include "rtlib/rtlib.h"
#include "rtlib/small_decimals.hpp"
#include "rtlib/text.hpp"

namespace polyrt::nodes {

namespace {

const rt::Combinations& combinations_of(const Prepared& prepared) {
  return *static_cast<const rt::Combinations*>(prepared.extra.get());
}

// Why fixed decimals are written on the host: more than a kernel's limbs
// hold (fixed_decimal.h).
std::string fixed_decimals_refused(uint64_t precision) {
  if (precision <= (uint64_t)rt::kDeviceFixedDecimals) return "";
  return std::to_string(precision) + " fixed decimals are more than the " +
         std::to_string(rt::kDeviceFixedDecimals) + " a GPU kernel writes";
}

// printf, and a tile's format (tile_printf_node: the same node, whose
// placeholders may also escape their text; rt::TextEscape).
template <bool kEscapes>
NodeDef format_node(std::string_view name, std::string_view family, std::string_view summary) {
  using P = PortType;
  return {
      .name = name,
      .family = family,
      .args = {konst("format", P::Str), wires("args", P::Any)},
      .result_types =
          [](const std::vector<Type>& in, const std::vector<Value>& params) {
            std::vector<rt::FormatSegment> segments;
            std::string error;
            rt::parse_format(params[0].as_str(), segments, error, kEscapes);
            const size_t holes = rt::placeholder_count(segments);
            if (holes != in.size()) {
              throw ParamError{0, "format has " + std::to_string(holes) + " placeholder(s) but " +
                                      std::to_string(in.size()) + " argument(s) follow it"};
            }
            return std::vector<Type>{Type::Str};
          },
      .result_doc = "str",
      .summary = summary,
      .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
        auto parsed = std::make_shared<ParsedFormat>();
        std::string error;
        if (!parsed->parse(p[0].as_str(), error, kEscapes)) throw ParamError{0, error};
        auto prepared = std::make_shared<Prepared>();
        prepared->extra = parsed;
        return prepared;
      },
      .eval =
          [](Call& c) {
            c.set(text_value([&](char* p, const auto& ensure) {
              return write_format(
                  p, format_of(c.prepared()).segments,
                  [&](size_t k) { return field_of(c.input(k)); }, ensure);
            }));
          },
      .columnar = [](const ColumnCall& c) { write_printf_columns(format_of(c.prepared), c); },
      .device_text =
          DeviceTextForm{.kind = DeviceTextKind::Format,
                         .bound = [](const std::vector<Value>&, const Prepared* prepared,
                                     std::span<const size_t> inputs) -> size_t {
                           size_t bound = 0, k = 0;
                           for (const rt::FormatSegment& seg : format_of(*prepared).segments) {
                             bound += seg.literal.size();
                             if (!seg.placeholder) continue;
                             const size_t value =
                                 seg.escape != rt::TextEscape::None
                                     ? rt::escaped_bound(seg.escape, inputs[k])
                                 : seg.radix ? rt::u64_radix_digits(seg.base())
                                 : seg.precision >= 0
                                     ? std::max(inputs[k], rt::f64_fixed_bound(seg.precision))
                                     : inputs[k];
                             bound += std::max(value, (size_t)seg.width);
                             ++k;
                           }
                           return bound;
                         },
                         .refused =
                             [](const std::vector<Value>&, const Prepared* prepared) {
                               for (const rt::FormatSegment& seg : format_of(*prepared).segments) {
                                 if (seg.precision > rt::kDeviceFixedDecimals) {
                                   return fixed_decimals_refused((uint64_t)seg.precision);
                                 }
                               }
                               return std::string();
                             }}};
}

}  // namespace

void register_text_nodes(Registry& r) {
  using P = PortType;
  r.add(format_node<false>(
      "printf", "strings",
      "Formats its arguments: {} (u64 decimal, f64 Debug form such as 1.0 or "
      "1e16, str, bool), {:05} zero pad, {:8} space pad, {:.2} f64 precision, "
      "{:x} {:X} {:b} {:o} radix for u64, {{ and }} literal braces. String "
      "interpolation \"a{x}b\" compiles to printf. The number of placeholders must "
      "equal the number of arguments (checked at compile time)."));
  r.add({.name = "str_concat",
         .family = "strings",
         .args = {wires("parts", P::Any)},
         .results = {Type::Str},
         .summary = "Concatenates the Display forms of its arguments (u64 decimal, f64 shortest "
                    "digits without exponent, bool true/false); the target of + on strings.",
         .eval =
             [](Call& c) {
               c.set(text_value([&](char* p, const auto& ensure) {
                 return write_concat(
                     p, c.input_count(), [&](size_t k) { return field_of(c.input(k)); }, ensure);
               }));
             },
         .columnar = write_concat_columns,
         .device_text = DeviceTextForm{.kind = DeviceTextKind::Concat, .bound = concat_bound}});
  r.add({.name = "format_u64",
         .family = "strings",
         .args = {wire("input", P::U64), konst("radix", P::U64, Value::u64(10))},
         .results = {Type::Str},
         .summary = "input in radix 2, 8, 10 or 16 with the prefix 0b, 0o, (none) or 0x.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           const uint64_t radix = p[0].as_u64();
           if (radix != 2 && radix != 8 && radix != 10 && radix != 16) {
             throw ParamError{0, "radix must be 2, 8, 10 or 16, got " + std::to_string(radix)};
           }
           return nullptr;
         },
         .eval = [](Call& c) { c.set_str(rt::u64_radix(c.u64(0), (int)c.param_u64(0), true)); },
         .columnar =
             [](const ColumnCall& c) {
               const int radix = (int)c.params[0].as_u64();
               const ColumnInput in = c.inputs[0];  // a copy: one load per row
               for_each_text_row(c, [&](uint64_t r, char* p, const auto& ensure) {
                 return rt::write_u64_radix(ensure(p, rt::kU64RadixText), in.word(r), radix, true);
               });
             },
         .device_text = DeviceTextForm{.symbol = "pd_text_u64_radix",
                                       .args = {text_input(0), text_param(0)},
                                       .bound = [](const std::vector<Value>& p, const Prepared*,
                                                   std::span<const size_t>) -> size_t {
                                         const uint64_t radix = p[0].as_u64();
                                         return radix == 10 ? rt::kU64Text
                                                            : 2 + rt::u64_radix_digits(radix);
                                       }}});
  r.add({.name = "format_f64",
         .family = "strings",
         .args = {wire("input", P::F64), konst("precision", P::U64, Value::u64(2))},
         .results = {Type::Str},
         .summary = "Fixed decimals, exact round-half-even of the binary value (glibc %.*f): "
                    "format_f64(0.295, 2) is \"0.29\".",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           if (p[0].as_u64() > rt::kMaxFixedDecimals) {
             throw ParamError{0, "precision must be <= " + std::to_string(rt::kMaxFixedDecimals)};
           }
           return nullptr;
         },
         .eval = [](Call& c) { c.set_str(rt::f64_fixed(c.f64(0), (int)c.param_u64(0))); },
         .columnar =
             [](const ColumnCall& c) {
               const ColumnInput in = c.inputs[0];  // a copy: one load per row
               const auto rows = [&](auto precision) {
                 for_each_text_row(c, [&](uint64_t r, char* p, const auto& ensure) {
                   p = ensure(p, rt::f64_fixed_bound(precision));
                   const double x = std::bit_cast<double>(in.word(r));
                   char* end = rt::write_f64_fixed_common(p, x, precision);
                   return end ? end : rt::write_f64_fixed(p, x, precision);
                 });
               };
               // Two decimals (prices, rates) with the precision folded in.
               const int precision = (int)c.params[0].as_u64();
               if (precision == 2) {
                 rows(std::integral_constant<int, 2>{});
               } else {
                 rows(precision);
               }
             },
         .device_text = DeviceTextForm{.symbol = "pd_text_f64_fixed",
                                       .args = {text_input(0), text_param(0)},
                                       .bound =
                                           [](const std::vector<Value>& p, const Prepared*,
                                              std::span<const size_t>) {
                                             return rt::f64_fixed_bound((int)p[0].as_u64());
                                           },
                                       .refused =
                                           [](const std::vector<Value>& p, const Prepared*) {
                                             return fixed_decimals_refused(p[0].as_u64());
                                           }}});
  r.add({.name = "zero_pad_u64",
         .family = "strings",
         .args = {wire("input", P::U64), konst("width", P::U64, Value::u64(10))},
         .results = {Type::Str},
         .summary = "Decimal input left-padded with 0 to width; never truncates.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           if (p[0].as_u64() > 4096) throw ParamError{0, "width must be <= 4096"};
           return nullptr;
         },
         .eval = [](Call& c) { c.set_str(rt::u64_zero_pad(c.u64(0), c.param_u64(0))); },
         .columnar =
             [](const ColumnCall& c) {
               const uint64_t width = c.params[0].as_u64();
               const size_t bound = std::max<uint64_t>(width, rt::kU64Text);
               const ColumnInput in = c.inputs[0];  // a copy: one load per row
               for_each_text_row(c, [&](uint64_t r, char* p, const auto& ensure) {
                 return rt::write_u64_zero_pad(ensure(p, bound), in.word(r), width);
               });
             },
         .device_text = DeviceTextForm{.symbol = "pd_text_zero_pad_u64",
                                       .args = {text_input(0), text_param(0)},
                                       .bound = [](const std::vector<Value>& p, const Prepared*,
                                                   std::span<const size_t>) -> size_t {
                                         return std::max<uint64_t>(p[0].as_u64(), rt::kU64Text);
                                       }}});
  r.add({.name = "combinations",
         .family = "strings",
         .args = {ArgSpec{"input", ArgKind::Wire, P::U64, Value(), false, "seed"},
                  ArgSpec{"pattern", ArgKind::Const, P::Str, Value(), false, "charset"},
                  konst("length", P::U64, Value::u64(0))},
         .results = {Type::Str},
         .summary = "Pattern pieces split on ';', each a charset with ranges (\"A-Z\", \"0-9\") "
                    "or a literal character; input mod (product of charset sizes) is spelled as "
                    "mixed-radix digits, the first charset least significant. With a length "
                    "(polydat's combinations(seed, charset, length)), the pattern is one charset "
                    "spelled length times.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           constexpr uint64_t kMaxLength = 4096;
           std::string pattern = p[0].as_str();
           if (const uint64_t length = p[1].as_u64(); length > 0) {
             if (pattern.find(';') != std::string::npos) {
               throw ParamError{0, "with a length, the pattern is one charset (no ';')"};
             }
             if (length > kMaxLength) {
               throw ParamError{1, "length must be at most " + std::to_string(kMaxLength)};
             }
             const std::string charset = pattern;
             for (uint64_t k = 1; k < length; ++k) pattern += ";" + charset;
           }
           auto combinations = std::make_shared<rt::Combinations>();
           std::string error;
           if (!rt::parse_combinations(pattern, *combinations, error)) {
             throw ParamError{0, error};
           }
           auto prepared = std::make_shared<Prepared>();
           prepared->extra = combinations;
           return prepared;
         },
         .eval =
             [](Call& c) {
               c.set(text_value([&](char* p, const auto& ensure) {
                 const auto& combinations = combinations_of(c.prepared());
                 return rt::write_combinations(ensure(p, combinations.charsets.size()), c.u64(0),
                                               combinations);
               }));
             },
         .columnar =
             [](const ColumnCall& c) {
               const auto& combinations = combinations_of(c.prepared);
               const size_t length = combinations.charsets.size();
               const ColumnInput in = c.inputs[0];  // a copy: one load per row
               // The pattern's arrays in locals, the writer inlined: no call
               // and no reload of the vectors per row.
               const rt::CombinationCounts counts = combinations.counts();
               const rt::CombinationDigit* digits = combinations.digits.data();
               const rt::CombinationGroup* groups = combinations.groups.data();
               const char* alphabet = combinations.alphabet.data();
               for_each_text_row(c, [&](uint64_t r, char* p, const auto& ensure) {
                 return rt::write_combinations(ensure(p, length), in.word(r), counts, digits,
                                               groups, alphabet);
               });
             },
         .device_text =
             DeviceTextForm{
                 .symbol = "pd_text_combinations",
                 .args = {text_input(0), text_blob(0), text_blob(1), text_blob(2), text_blob(3)},
                 .blobs = [](const std::vector<Value>&,
                             const Prepared* prepared) -> std::vector<std::string> {
                   const rt::Combinations& c = combinations_of(*prepared);
                   return {blob_of(std::vector<rt::CombinationCounts>{c.counts()}),
                           blob_of(c.digits), blob_of(c.groups), c.alphabet};
                 },
                 .bound = [](const std::vector<Value>&, const Prepared* prepared,
                             std::span<const size_t>) -> size_t {
                   return combinations_of(*prepared).digits.size();
                 }}});
  r.add({.name = "str_eq",
         .family = "strings",
         .args = {wire("a", P::Str), wire("b", P::Str)},
         .results = {Type::U64},
         .summary = "1 when the strings are byte-equal (infix == on strings).",
         .eval = [](Call& c) { c.set_u64(c.str(0) == c.str(1) ? 1 : 0); },
         .columnar =
             [](const ColumnCall& c) {
               for (uint64_t r = 0; r < c.rows; ++r) {
                 c.outputs[0].words[r] = c.inputs[0].text(r) == c.inputs[1].text(r) ? 1 : 0;
               }
             },
         .device_text = DeviceTextForm{.kind = DeviceTextKind::Word,
                                       .symbol = "pd_text_equal",
                                       .args = {text_input_text(0), text_input_text(1)}}});
  r.add({.name = "str_ne",
         .family = "strings",
         .args = {wire("a", P::Str), wire("b", P::Str)},
         .results = {Type::U64},
         .summary = "1 when the strings differ (infix != on strings).",
         .eval = [](Call& c) { c.set_u64(c.str(0) != c.str(1) ? 1 : 0); },
         .columnar =
             [](const ColumnCall& c) {
               for (uint64_t r = 0; r < c.rows; ++r) {
                 c.outputs[0].words[r] = c.inputs[0].text(r) != c.inputs[1].text(r) ? 1 : 0;
               }
             },
         .device_text = DeviceTextForm{.kind = DeviceTextKind::Word,
                                       .symbol = "pd_text_unequal",
                                       .args = {text_input_text(0), text_input_text(1)}}});
  r.add({.name = "select_str",
         .family = "strings",
         .args = {wire("cond", P::U64), wire("then", P::Str), wire("else", P::Str)},
         .results = {Type::Str},
         .summary = "then when cond != 0, else else; both branches are evaluated.",
         .eval = [](Call& c) { c.set_str(c.u64(0) != 0 ? c.str(1) : c.str(2)); },
         .columnar =
             [](const ColumnCall& c) {
               columns::StringColumn& out = *c.outputs[0].text;
               for (uint64_t r = 0; r < c.rows; ++r) {
                 out.append(c.inputs[0].word(r) != 0 ? c.inputs[1].text(r) : c.inputs[2].text(r));
               }
             },
         .device_text =
             DeviceTextForm{.symbol = "pd_text_select",
                            .args = {text_input(0), text_input_text(1), text_input_text(2)},
                            .bound = [](const std::vector<Value>&, const Prepared*,
                                        std::span<const size_t> inputs) {
                              return std::max(inputs[1], inputs[2]);
                            }}});
}

}  // namespace polyrt::nodes

namespace polyrt::nodes {

const NodeDef& tile_printf_node() {
  static const NodeDef def = format_node<true>(
      tile_printf_name, "internal",
      "A tile's text: printf whose placeholders may also write a str as a JSON string, the "
      "inside of one or a CSV field (graph/passes.cpp folds its holes' encoders into it).");
  return def;
}

}  // namespace polyrt::nodes
