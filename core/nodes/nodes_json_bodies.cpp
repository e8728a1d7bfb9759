// polydat's nodes that read structured bodies and bracket-encoded arrays:
// json_text (a JSON value's leaves as lines), json_to_str_pretty,
// exactly_one_value (a unary body's one cell), body_column_i32 (a column of
// a row-shaped body as a vec_i32), and array_len, array_at,
// normalize_vector and random_vector over "[a,b,c]" text. Host steps.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nodes/json_values.hpp"
#include "nodes/registry.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/json_text.hpp"
#include "rtlib/string_ops.hpp"
#include "rtlib/text.hpp"
#include "rtlib/xxh3.hpp"
#include "value/vector_values.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;
using rt::JsonValue;

// The most elements random_vector writes (dim is a wire).
constexpr uint64_t kMaxRandomVectorElements = uint64_t(1) << 20;

// The text between the brackets of "[...]" (trimmed first); none otherwise.
std::optional<std::string_view> bracketed(std::string_view s) {
  s = rt::trim_space(s);
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return std::nullopt;
  return s.substr(1, s.size() - 2);
}

std::vector<std::string_view> split_commas(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t from = 0;;) {
    const size_t comma = s.find(',', from);
    out.push_back(s.substr(from, comma == std::string_view::npos ? comma : comma - from));
    if (comma == std::string_view::npos) return out;
    from = comma + 1;
  }
}

// Rust's str::parse::<f64>: an optional sign, decimal digits or inf,
// infinity, NaN (any case); nothing around it.
std::optional<double> rust_f64(std::string_view s) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty() || s[0] == '+') return std::nullopt;
  double v = 0;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
  if (res.ptr != s.data() + s.size()) return std::nullopt;
  if (res.ec == std::errc::result_out_of_range) {  // Rust rounds to +-inf or 0
    return std::strtod(std::string(s).c_str(), nullptr);
  }
  return res.ec == std::errc() ? std::optional<double>(v) : std::nullopt;
}

// The leaves of a JSON value in document order (object members by key),
// strings as their text, nulls left out.
void leaves(const JsonValue& j, std::vector<std::string>& out) {
  switch (j.kind) {
    case JsonValue::Kind::Null:
      return;
    case JsonValue::Kind::Array:
      for (const JsonValue& item : j.items) leaves(item, out);
      return;
    case JsonValue::Kind::Object:
      for (const auto& [key, member] : j.members) leaves(member, out);
      return;
    default:
      out.push_back(j.scalar);
  }
}

// serde_json's pretty form: two spaces per level, "key": value.
void pretty(const JsonValue& j, size_t depth, std::string& out) {
  const std::string indent(2 * (depth + 1), ' ');
  switch (j.kind) {
    case JsonValue::Kind::Array:
      if (j.items.empty()) {
        out += "[]";
        return;
      }
      out += "[\n";
      for (size_t i = 0; i < j.items.size(); ++i) {
        out += indent;
        pretty(j.items[i], depth + 1, out);
        out += i + 1 < j.items.size() ? ",\n" : "\n";
      }
      out += std::string(2 * depth, ' ') + "]";
      return;
    case JsonValue::Kind::Object: {
      if (j.members.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      size_t i = 0;
      for (const auto& [key, member] : j.members) {
        out += indent + rt::json_quoted(key) + ": ";
        pretty(member, depth + 1, out);
        out += ++i < j.members.size() ? ",\n" : "\n";
      }
      out += std::string(2 * depth, ' ') + "}";
      return;
    }
    default:
      out += rt::json_text(j);
  }
}

[[noreturn]] void not_unary(const std::string& found) {
  throw NodeFailure{"exactly_one_value: expected unary structure (1 row x 1 column), found " +
                    found};
}

// A unary JSON body's one cell: [ {k: leaf} ], {k: leaf}, [leaf] or leaf.
std::string unary_json(const JsonValue& body) {
  const JsonValue* row = &body;
  if (body.kind == JsonValue::Kind::Array) {
    if (body.items.size() != 1) not_unary(std::to_string(body.items.size()) + " rows");
    row = &body.items[0];
  }
  const JsonValue* leaf = row;
  if (row->kind == JsonValue::Kind::Object) {
    if (row->members.size() != 1) {
      not_unary("1 row x " + std::to_string(row->members.size()) + " columns");
    }
    leaf = &row->members.begin()->second;
  }
  switch (leaf->kind) {
    case JsonValue::Kind::Null:
      throw NodeFailure{"exactly_one_value: leaf cell is null; expected a non-null value"};
    case JsonValue::Kind::Array:
    case JsonValue::Kind::Object:
      throw NodeFailure{"exactly_one_value: leaf cell is itself structural (" +
                        std::string(leaf->kind == JsonValue::Kind::Array ? "array" : "object") +
                        "); expected a scalar (string, number, or boolean)"};
    case JsonValue::Kind::Number: {
      // An integer of u64 or i64 as itself, any other number as an f64 in
      // Debug form (serde_json's three kinds of number).
      const std::string& n = leaf->scalar;
      uint64_t u = 0;
      int64_t i = 0;
      const char* end = n.data() + n.size();
      if (std::from_chars(n.data(), end, u).ptr == end ||
          std::from_chars(n.data(), end, i).ptr == end) {
        return n;
      }
      return rt::f64_debug(std::strtod(n.c_str(), nullptr));
    }
    default:
      return leaf->scalar;
  }
}

// A vector of one element: that element as polydat's display shows it
// (a float widened to f64, in Debug form).
std::string unary_vector(const Value& v) {
  const std::vector<Value> elements = vector_elements(v);
  if (elements.size() != 1) {
    not_unary(std::string(type_name(v.type())) + " of length " + std::to_string(elements.size()));
  }
  const Value& e = elements[0];
  return is_float(e.type()) ? rt::f64_debug(e.as_f64()) : e.to_string();
}

// A cell of body_column_i32: a number (an integer clamped to i32, a float
// truncated, saturating) or a string of an integer; none for anything else.
std::optional<int32_t> cell_i32(const JsonValue& v) {
  if (v.kind == JsonValue::Kind::String) {
    std::string_view s = rt::trim_space(v.scalar);
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    int32_t out = 0;
    const auto res = std::from_chars(s.data(), s.data() + s.size(), out);
    if (s.empty() || res.ec != std::errc() || res.ptr != s.data() + s.size()) return std::nullopt;
    return out;
  }
  if (v.kind != JsonValue::Kind::Number) return std::nullopt;
  const std::string& n = v.scalar;
  if (n.find_first_of(".eE") == std::string::npos) {
    int64_t i = 0;
    if (std::from_chars(n.data(), n.data() + n.size(), i).ec == std::errc()) {
      return (int32_t)std::clamp<int64_t>(i, INT32_MIN, INT32_MAX);
    }
    return n[0] == '-' ? INT32_MIN : INT32_MAX;  // past i64 (u64: min(u, i32 max))
  }
  const double d = std::strtod(n.c_str(), nullptr);
  if (!std::isfinite(d)) return std::nullopt;
  return d <= INT32_MIN ? INT32_MIN : d >= INT32_MAX ? INT32_MAX : (int32_t)d;
}

void append_column(const JsonValue& rows, const std::string& column, std::string& payload) {
  for (const JsonValue& row : rows.items) {
    if (row.kind != JsonValue::Kind::Object) continue;
    const auto it = row.members.find(column);
    if (it == row.members.end()) continue;
    if (const auto cell = cell_i32(it->second)) append_vector_element(payload, *cell);
  }
}

}  // namespace

void register_json_body_nodes(Registry& r) {
  r.add({.name = "json_text",
         .family = "json",
         .args = {wire("input", P::Any)},
         .results = {Type::Str},
         .summary = "A json value's leaves, one per line, depth first (object members by key): "
                    "strings as their text (their own newlines kept), numbers and bools as "
                    "JSON writes them, nulls left out. Any other value: its display text.",
         .eval = [](Call& c) {
           const Value& v = c.input(0);
           if (v.type() != Type::Json) {
             c.set_str(display_text(v));
             return;
           }
           std::vector<std::string> lines;
           leaves(parsed_json(v.as_json()), lines);
           std::string out;
           for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
           c.set_str(std::move(out));
         }});
  r.add({.name = "json_to_str_pretty",
         .family = "json",
         .args = {wire("input", P::Json)},
         .results = {Type::Str},
         .summary = "The json value pretty-printed as serde_json prints it: two spaces per "
                    "level, one member or item per line, \"key\": value.",
         .eval = [](Call& c) {
           std::string out;
           pretty(parsed_json(c.input(0).as_json()), 0, out);
           c.set_str(std::move(out));
         }});
  r.add({.name = "exactly_one_value",
         .family = "json",
         .args = {wire("body", P::Any)},
         .results = {Type::Str},
         .can_fail = true,
         .summary = "The one cell of a unary body, as text: a json value [ {k: v} ] (or {k: v}, "
                    "[v], v) gives v (a string as its text, an integer as itself, another "
                    "number in Debug form); a vector of one element that element; any other "
                    "value its display text (an f64 in Debug form).",
         .failure = "the body is not unary (the message says what it found), or its cell is "
                    "null or structural",
         .eval = [](Call& c) {
           const Value& v = c.input(0);
           if (v.type() == Type::Json) {
             c.set_str(unary_json(parsed_json(v.as_json())));
           } else if (is_vector(v.type())) {
             c.set_str(unary_vector(v));
           } else if (is_float(v.type())) {
             c.set_str(v.type() == Type::F64 ? rt::f64_debug(v.as_f64())
                                             : rt::f32_debug(v.as_f64()));
           } else {
             c.set_str(display_text(v));
           }
         }});
  r.add({.name = "body_column_i32",
         .family = "json",
         .args = {wire("body", P::Any), konst("column", P::Str)},
         .results = {Type::VecI32},
         .summary = "Column `column` of every row of a json body ([ {...}, ... ], {\"rows\": "
                    "[...]} or one row {...}) as a vec_i32: an integer clamped to i32, a float "
                    "truncated, a string of an integer parsed; a row without the column, or "
                    "with another value, adds nothing. Not json: empty.",
         .eval = [](Call& c) {
           std::string payload;
           if (c.input(0).type() == Type::Json) {
             const JsonValue body = parsed_json(c.input(0).as_json());
             const std::string& column = c.param_str(0);
             if (body.kind == JsonValue::Kind::Array) {
               append_column(body, column, payload);
             } else if (body.kind == JsonValue::Kind::Object) {
               const auto rows = body.members.find("rows");
               if (rows != body.members.end() && rows->second.kind == JsonValue::Kind::Array) {
                 append_column(rows->second, column, payload);
               } else {
                 JsonValue one;
                 one.items.push_back(body);
                 append_column(one, column, payload);
               }
             }
           }
           c.set(Value::vector(Type::VecI32, std::move(payload)));
         }});
  r.add({.name = "array_len",
         .family = "json",
         .args = {wire("input", P::Str)},
         .results = {Type::U64},
         .summary = "How many comma-separated pieces \"[a,b,c]\" text holds (trimmed); 0 for "
                    "\"[]\", empty text or text that is not bracketed.",
         .eval = [](Call& c) {
           const std::string_view s = rt::trim_space(c.str(0));
           const auto inner = bracketed(s);
           c.set_u64(s == "[]" || !inner ? 0 : split_commas(*inner).size());
         }});
  r.add({.name = "array_at",
         .family = "json",
         .args = {wire("array", P::Str), wire("index", P::U64)},
         .results = {Type::Str},
         .summary = "Piece index mod n (trimmed) of \"[a,b,c]\" text of n pieces; empty for "
                    "\"[]\" or text that is not bracketed.",
         .eval = [](Call& c) {
           const auto inner = bracketed(c.str(0));
           if (!inner) {
             c.set_str("");
             return;
           }
           const std::vector<std::string_view> pieces = split_commas(*inner);
           c.set_str(std::string(rt::trim_space(pieces[c.u64(1) % pieces.size()])));
         }});
  r.add({.name = "normalize_vector",
         .family = "json",
         .args = {wire("vector", P::Str)},
         .results = {Type::Str},
         .summary = "\"[a,b,...]\" text scaled to unit length: the pieces that read as numbers "
                    "(others dropped) divided by their f64 norm, in Display form, as "
                    "\"[x,y,...]\"; the text itself when it is not bracketed or the norm is "
                    "below 1e-15.",
         .eval = [](Call& c) {
           const auto inner = bracketed(c.str(0));
           if (!inner) {
             c.set_str(c.str(0));
             return;
           }
           std::vector<double> values;
           for (std::string_view piece : split_commas(*inner)) {
             if (const auto v = rust_f64(rt::trim_space(piece))) values.push_back(*v);
           }
           double sum = -0.0;
           for (double v : values) sum += v * v;
           const double norm = std::sqrt(sum);
           if (norm < 1e-15) {
             c.set_str(c.str(0));
             return;
           }
           std::string out = "[";
           for (size_t i = 0; i < values.size(); ++i) {
             out += (i ? "," : "") + rt::f64_display(values[i] / norm);
           }
           c.set_str(out + "]");
         }});
  r.add({.name = "random_vector",
         .family = "json",
         .args = {wire("seed", P::U64), wire("dim", P::U64), konst("min", P::F64, Value::f64(0.0)),
                  konst("max", P::F64, Value::f64(1.0))},
         .results = {Type::Str},
         .can_fail = true,
         .summary = "dim numbers in [min, max] as \"[a,b,...]\" text (Display form): h = "
                    "xxh3(h) from h = seed, each min + (max - min) * h / (2^64 - 1). "
                    "Deterministic, as polydat computes it.",
         .failure = "dim is above 2^20",
         .eval = [](Call& c) {
           const uint64_t dim = c.u64(1);
           if (dim > kMaxRandomVectorElements) {
             throw NodeFailure{"random_vector: dim " + std::to_string(dim) +
                               " is above the largest, " +
                               std::to_string(kMaxRandomVectorElements)};
           }
           const double min = c.param_f64(0), range = c.param_f64(1) - min;
           uint64_t h = c.u64(0);
           std::string out = "[";
           for (uint64_t i = 0; i < dim; ++i) {
             h = rt::xxh3_u64(h);
             const double unit = (double)h / (double)UINT64_MAX;
             out += (i ? "," : "") + rt::f64_display(min + range * unit);
           }
           c.set_str(out + "]");
         }});
}

}  // namespace polyrt::nodes
