// The nodes a tile compiles to (expand/tiles.hpp): __tile_encode writes one
// hole's value as its place in the template wants it (polydat's tile
// encoders, byte for byte), __tile_truth reads a branch's condition. The
// template's text around the holes is a printf over them.
#include <algorithm>
#include <bit>
#include <cctype>
#include <cstring>
#include <string>

#include "nodes/registry.hpp"
#include "nodes/text_fields.hpp"
#include "nodes/tile_holes.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/byte_encodings.hpp"
#include "rtlib/json_text.hpp"
#include "rtlib/rtlib.h"
#include "rtlib/text.hpp"
#include "rtlib/utf8.hpp"
#include "value/vector_values.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;

// What one hole's encoder does, parsed once from the node's constants.
struct HoleRule {
  TileRule rule = TileRule::Text;
  TileDeclared declared = TileDeclared::None;
  TileFormat format;
};

const HoleRule& rule_of(const Prepared& prepared) {
  return *static_cast<const HoleRule*>(prepared.extra.get());
}

// polydat's truth of a value: a str is true unless empty, "0" or "false",
// a number unless zero; a json value (any other kind) is true.
bool truthy(const FieldValue& v) {
  if (v.type == Type::Str) return !v.text.empty() && v.text != "0" && v.text != "false";
  if (is_payload(v.type)) return true;
  if (is_float(v.type)) return std::bit_cast<double>(v.word) != 0.0;
  return v.word != 0;
}

bool is_number(Type t) {
  return is_integer(t) || is_float(t);
}

// The value as the declared type reads it (the widenings the checker
// allowed): an integer declared f64 is its f64, anything declared bool is
// its truth value.
FieldValue as_declared(FieldValue v, TileDeclared declared) {
  if (declared == TileDeclared::F64 && is_integer(v.type)) {
    const double x = is_signed_integer(v.type) ? (double)(int64_t)v.word : (double)v.word;
    return {Type::F64, std::bit_cast<uint64_t>(x), {}};
  }
  if (declared == TileDeclared::Bool) return {Type::Bool, truthy(v) ? 1u : 0u, {}};
  return v;
}

double as_double(const FieldValue& v) {
  if (is_float(v.type)) return std::bit_cast<double>(v.word);
  return is_signed_integer(v.type) ? (double)(int64_t)v.word : (double)v.word;
}

// A number's digits with no format: decimal, or an f64's Debug form (the
// shortest digits, "1.0", exponent outside [1e-4, 1e16)).
char* write_number(char* p, const FieldValue& v) {
  if (v.type == Type::F64) return rt::write_f64_debug(p, std::bit_cast<double>(v.word));
  if (v.type == Type::F32) return rt::write_f32_debug(p, std::bit_cast<double>(v.word));
  if (is_signed_integer(v.type)) return rt::write_i64(p, (int64_t)v.word);
  return rt::write_u64(p, v.word);
}

// The text a hole's format makes of its value before it is encoded: `.N`
// fixed decimals of a number, `x`/`X` hex of an unsigned integer, `0N`
// zero padding, `N` or `>N` right and `<N` left alignment (widths count
// characters); a format that does not apply to the value leaves its
// Display text.
std::string formatted_text(const FieldValue& v, const TileFormat& f) {
  std::string base;
  if (f.kind == TileFormat::Kind::Precision && is_number(v.type)) {
    base.resize(rt::f64_fixed_bound((int)f.n));
    base.resize(rt::write_f64_fixed(base.data(), as_double(v), (int)f.n) - base.data());
    return base;
  }
  if ((f.kind == TileFormat::Kind::Hex || f.kind == TileFormat::Kind::UpperHex) &&
      is_unsigned_integer(v.type)) {
    base.resize(rt::kU64RadixText);
    base.resize(
        rt::write_u64_radix(base.data(), v.word, 16, false, f.kind == TileFormat::Kind::UpperHex) -
        base.data());
    return base;
  }
  if (v.type == Type::Json && v.text.size() >= 2 && v.text.front() == '"') {
    std::string error;
    const auto parsed = rt::parse_json(v.text, error);
    base = parsed ? parsed->scalar : std::string(v.text);
  } else if (v.type == Type::Bool) {
    base = v.word ? "true" : "false";
  } else if (is_text(v.type) && v.type != Type::Bytes) {
    base = v.text;
  } else {
    base.resize(display_bound(v));
    base.resize(write_display(base.data(), v) - base.data());
  }
  size_t chars = 0;
  for (size_t i = 0; i < base.size(); i += rt::utf8_at(base, i).size) ++chars;
  if (chars >= f.n) return base;
  const std::string pad(f.n - chars, f.kind == TileFormat::Kind::ZeroPad ? '0' : ' ');
  switch (f.kind) {
    case TileFormat::Kind::ZeroPad:
    case TileFormat::Kind::Right:
      return pad + base;
    case TileFormat::Kind::Left:
      return base + pad;
    default:
      return base;
  }
}

// Room for one hole's text.
size_t hole_bound(const FieldValue& v, const HoleRule& r) {
  size_t base = is_vector(v.type)    ? vector_text_bound(v.type, v.text.size())
                : is_payload(v.type) ? 2 * v.text.size()
                                     : rt::kF64DisplayText;
  if (r.format.kind == TileFormat::Kind::Precision) base += rt::f64_fixed_bound((int)r.format.n);
  base += r.format.n;
  return rt::escaped_bound(rt::TextEscape::JsonQuoted, base);
}

// One hole's text at p (room: hole_bound); returns its end.
char* write_hole(char* p, FieldValue v, const HoleRule& r) {
  v = as_declared(v, r.declared);
  const bool numeric_declared = r.declared == TileDeclared::None ||
                                r.declared == TileDeclared::U64 ||
                                r.declared == TileDeclared::I64 || r.declared == TileDeclared::F64;
  // Digits, a sign and a point need no escaping anywhere, and a number is
  // bare in a JSON value position.
  if (numeric_declared && is_number(v.type)) {
    if (r.format.kind == TileFormat::Kind::None) return write_number(p, v);
    if (r.format.kind == TileFormat::Kind::Precision &&
        (v.type == Type::F64 || is_unsigned_integer(v.type))) {
      return rt::write_f64_fixed(p, as_double(v), (int)r.format.n);
    }
  }
  std::string owned;
  std::string_view text;
  if (r.format.kind != TileFormat::Kind::None || v.type == Type::Json || v.type == Type::Bool ||
      !is_text(v.type) || v.type == Type::Bytes) {
    if (r.rule == TileRule::Json && r.format.kind == TileFormat::Kind::None) {
      // A JSON value as its text; a vector as its array.
      if (v.type == Type::Json) return std::copy(v.text.begin(), v.text.end(), p);
      if (is_vector(v.type)) return write_vector_field(p, rt::RowFormat::Jsonl, v.type, v.text);
    }
    owned = formatted_text(v, r.format);
    text = owned;
  } else {
    text = v.text;
  }
  switch (r.rule) {
    case TileRule::Raw:
    case TileRule::Text:
      return std::copy(text.begin(), text.end(), p);
    case TileRule::Csv:
      return write_escaped(p, rt::TextEscape::Csv, text);
    case TileRule::JsonString:
      return write_escaped(p, rt::TextEscape::JsonInside, text);
    case TileRule::Json:
      break;
  }
  const bool quoted = r.declared == TileDeclared::Str ||
                      !(v.type == Type::Bool || is_number(v.type) || v.type == Type::Json);
  if (!quoted) return std::copy(text.begin(), text.end(), p);
  return write_escaped(p, rt::TextEscape::JsonQuoted, text);
}

std::string_view tile_declared_name(TileDeclared declared) {
  switch (declared) {
    case TileDeclared::None:
      return "";
    case TileDeclared::Str:
      return "str";
    case TileDeclared::Bool:
      return "bool";
    case TileDeclared::U64:
      return "u64";
    case TileDeclared::I64:
      return "i64";
    case TileDeclared::F64:
      return "f64";
  }
  return "";
}

std::string declared_conversion_error(Type from, TileDeclared to, bool strict) {
  const std::string target(tile_declared_name(to));
  if (strict && to != TileDeclared::Str && to != TileDeclared::None) {
    const bool same = (to == TileDeclared::U64 && from == Type::U64) ||
                      (to == TileDeclared::I64 && from == Type::I64) ||
                      (to == TileDeclared::F64 && from == Type::F64) ||
                      (to == TileDeclared::Bool && from == Type::Bool);
    if (!same) {
      return "strict mode rejects the implicit " + std::string(type_name(from)) + " -> " + target +
             " adapter the declaration needs; write the conversion explicitly in the expression";
    }
    return "";
  }
  bool reachable = true;
  switch (to) {
    case TileDeclared::None:
    case TileDeclared::Str:
    case TileDeclared::Bool:
      break;
    case TileDeclared::U64:
      reachable = is_unsigned_integer(from) || from == Type::Bool;
      break;
    case TileDeclared::I64:
      reachable = is_integer(from) && from != Type::U64;
      break;
    case TileDeclared::F64:
      reachable = is_number(from);
      break;
  }
  if (reachable) return "";
  return "no conversion from the wire type " + std::string(type_name(from)) +
         " to the declared type " + target + "; write the conversion explicitly in the expression";
}

}  // namespace

const NodeDef& tile_encode_node() {
  static const NodeDef def{
      .name = tile_encode_name,
      .family = "internal",
      .args = {wire("value", P::Any), konst("rule", P::U64), konst("declared", P::U64),
               konst("format", P::U64), konst("width", P::U64), konst("strict", P::U64),
               konst("hole", P::Str)},
      .result_types =
          [](const std::vector<Type>& in, const std::vector<Value>& params) {
            const std::string error = declared_conversion_error(
                in[0], (TileDeclared)params[1].as_u64(), params[4].as_u64() != 0);
            if (!error.empty()) throw ParamError{5, params[5].as_str() + ": " + error};
            return std::vector<Type>{Type::Str};
          },
      .result_doc = "str",
      .accepts_none = true,
      .summary =
          "One hole of a tile: its value as the hole's place wants it (JSON value, "
          "inside a JSON string, CSV field, text, raw), after the declared type and the "
          "format (expand/tiles.hpp).",
      .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
        auto rule = std::make_shared<HoleRule>();
        rule->rule = (TileRule)p[0].as_u64();
        rule->declared = (TileDeclared)p[1].as_u64();
        rule->format = TileFormat{(TileFormat::Kind)p[2].as_u64(), p[3].as_u64()};
        auto prepared = std::make_shared<Prepared>();
        prepared->extra = rule;
        return prepared;
      },
      .eval =
          [](Call& c) {
            const HoleRule& r = rule_of(c.prepared());
            if (c.input(0).is_none()) {
              c.set_str(r.rule == TileRule::Json ? "null" : "");
              return;
            }
            c.set(text_value([&](char* p, const auto& ensure) {
              const FieldValue v = field_of(c.input(0));
              return write_hole(ensure(p, hole_bound(v, r)), v, r);
            }));
          },
      .columnar =
          [](const ColumnCall& c) {
            const HoleRule& r = rule_of(c.prepared);
            const ColumnInput in = c.inputs[0];
            for_each_text_row(c, [&](uint64_t row, char* p, const auto& ensure) {
              const FieldValue v = field_of(in, row);
              return write_hole(ensure(p, hole_bound(v, r)), v, r);
            });
          },
  };
  return def;
}

const NodeDef& tile_truth_node() {
  static const NodeDef def{
      .name = tile_truth_name,
      .family = "internal",
      .args = {wire("value", P::Any)},
      .results = {Type::Bool},
      .accepts_none = true,
      .summary =
          "A tile branch's condition: a number is true when not zero, a str when not "
          "empty, \"0\" or \"false\", None never.",
      .eval =
          [](Call& c) {
            c.set(Value::boolean(!c.input(0).is_none() && truthy(field_of(c.input(0)))));
          },
  };
  return def;
}

const NodeDef& tile_truth_of_word_node() {
  static const NodeDef def{
      .name = "__tile_truth_word",
      .family = "internal",
      .args = {wire("value", P::U64), konst("zero", P::U64)},
      .results = {Type::Bool},
      .summary = "__tile_truth of an integer or a bool: value != 0.",
      .eval = [](Call& c) { c.set(Value::boolean(c.word(0) != 0)); },
      .native = native<pd_u64_ne>("pd_u64_ne", {in(0), param(0)}),
  };
  return def;
}

const NodeDef& tile_truth_of_f64_node() {
  static const NodeDef def{
      .name = "__tile_truth_f64",
      .family = "internal",
      .args = {wire("value", P::F64), konst("zero", P::F64)},
      .results = {Type::Bool},
      .summary = "__tile_truth of a float: value != 0.0 (NaN is true).",
      .eval = [](Call& c) { c.set(Value::boolean(c.f64(0) != 0.0)); },
      .native = native<pd_f64_ne>("pd_f64_ne", {in(0), param(0)}),
  };
  return def;
}

}  // namespace polyrt::nodes
