// Nodes of the json type: values made from any value, objects and arrays
// built and merged, a field read, and text both ways (polydat's json
// family). Host steps; every json value is its compact text (json_text.hpp).
#include <string>
#include <string_view>

#include "nodes/json_values.hpp"
#include "nodes/registry.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/byte_encodings.hpp"
#include "rtlib/json_text.hpp"
#include "rtlib/shortest_double.hpp"
#include "rtlib/text.hpp"
#include "value/vector_values.hpp"

namespace polyrt::nodes {

rt::JsonValue parsed_json(const std::string& text) {
  std::string error;
  auto v = rt::parse_json(text, error);
  if (!v) internal_error("a json value is not JSON: " + error);
  return std::move(*v);
}

namespace {

using P = PortType;
using rt::JsonValue;

JsonValue json_value_of(const Value& v);

// A vector as a JSON array of its elements (an f32 element in its shortest
// f32 digits, in serde_json's form as write_f64_json writes an f64: "-0.0",
// "2.0", "1e-6"; NaN and +-inf, which JSON has no number for, as null).
JsonValue vector_json(const Value& v) {
  JsonValue out;
  out.kind = JsonValue::Kind::Array;
  for (const Value& element : vector_elements(v)) {
    const double d = element.type() == Type::F32 ? element.as_f64() : 0.0;
    if (element.type() == Type::F32 && d - d == 0.0) {
      JsonValue number;
      number.kind = JsonValue::Kind::Number;
      char buf[rt::kF64ShortestText];
      number.scalar.assign(buf, rt::write_f32_debug(buf, d, 1e-5));
      out.items.push_back(std::move(number));
    } else {
      out.items.push_back(json_value_of(element));
    }
  }
  return out;
}

// A json value, a string, a vector, or a number or bool, as its JSON value.
JsonValue json_value_of(const Value& v) {
  if (v.type() == Type::Json) return parsed_json(v.as_json());
  if (is_vector(v.type())) return vector_json(v);
  JsonValue out;
  if (v.type() == Type::Str || v.type() == Type::Bytes) {
    out.kind = JsonValue::Kind::String;
    out.scalar = v.type() == Type::Str ? v.as_str() : rt::to_base64(v.as_bytes());
    return out;
  }
  out.kind = JsonValue::Kind::Number;
  if (v.type() == Type::Bool) {
    out.kind = JsonValue::Kind::Bool;
    out.scalar = v.as_bool() ? "true" : "false";
  } else if (is_float(v.type())) {
    const double d = v.as_f64();
    if (d - d != 0.0) return JsonValue{};  // NaN and +-inf have no JSON number: null
    char buf[rt::kF64ShortestText];
    out.scalar.assign(buf, rt::write_f64_json(buf, d));
  } else {
    out.scalar = v.to_string();
  }
  return out;
}

}  // namespace

std::string json_of(const Value& v) {
  return v.type() == Type::Json ? v.as_json() : rt::json_text(json_value_of(v));
}

void register_json_nodes(Registry& r) {
  r.add({.name = "to_json",
         .family = "json",
         .args = {wire("input", P::Any)},
         .results = {Type::Json},
         .summary = "input as a JSON value: a number (null for NaN and +-inf), true/false, a "
                    "string (bytes as base64), an array of a vector's elements, or a json "
                    "value as itself.",
         .eval = [](Call& c) { c.set(Value::json(json_of(c.input(0)))); }});
  r.add({.name = "json_with",
         .family = "json",
         .args = {konst("key", P::Str), wire("value", P::Any)},
         .results = {Type::Json},
         .summary = "The object {key: value} (value converted as to_json does).",
         .eval = [](Call& c) {
           JsonValue object;
           object.kind = JsonValue::Kind::Object;
           object.members[c.param_str(0)] = json_value_of(c.input(0));
           c.set(Value::json(rt::json_text(object)));
         }});
  r.add({.name = "json_object",
         .family = "json",
         .args = {wires("parts", P::Json)},
         .results = {Type::Json},
         .summary = "The members of every object part in one object, a later part's member "
                    "replacing an earlier one's; parts that are not objects are skipped.",
         .eval = [](Call& c) {
           JsonValue merged;
           merged.kind = JsonValue::Kind::Object;
           for (size_t k = 0; k < c.input_count(); ++k) {
             JsonValue part = parsed_json(c.input(k).as_json());
             if (part.kind != JsonValue::Kind::Object) continue;
             for (auto& [key, member] : part.members) merged.members[key] = std::move(member);
           }
           c.set(Value::json(rt::json_text(merged)));
         }});
  r.add({.name = "json_array",
         .family = "json",
         .args = {wires("elems", P::Any)},
         .results = {Type::Json},
         .summary = "The array of the elements, each converted as to_json does.",
         .eval =
             [](Call& c) {
               JsonValue array;
               array.kind = JsonValue::Kind::Array;
               for (size_t k = 0; k < c.input_count(); ++k) {
                 array.items.push_back(json_value_of(c.input(k)));
               }
               c.set(Value::json(rt::json_text(array)));
             },
         .device_text = DeviceTextForm{
             .kind = DeviceTextKind::JsonArray,
             .bound = [](const std::vector<Value>&, const Prepared*, std::span<const size_t> in) {
               size_t bound = 1 + std::max<size_t>(in.size(), 1);  // brackets and commas
               for (size_t b : in) bound += b;
               return bound;
             }}});
  r.add({.name = "json_merge",
         .family = "json",
         .args = {wire("left", P::Json), wire("right", P::Json)},
         .results = {Type::Json},
         .summary = "left with right's members added or replacing its own when both are "
                    "objects (shallow); otherwise left.",
         .eval = [](Call& c) {
           JsonValue left = parsed_json(c.input(0).as_json());
           JsonValue right = parsed_json(c.input(1).as_json());
           if (left.kind == JsonValue::Kind::Object && right.kind == JsonValue::Kind::Object) {
             for (auto& [key, member] : right.members) left.members[key] = std::move(member);
           }
           c.set(Value::json(rt::json_text(left)));
         }});
  r.add({.name = "json_field",
         .family = "json",
         .args = {wire("input", P::Json), konst("key", P::Str)},
         .results = {Type::Json},
         .summary = "The member key of an object; null when it is missing or input is not an "
                    "object.",
         .eval = [](Call& c) {
           const JsonValue v = parsed_json(c.input(0).as_json());
           auto it = v.members.find(c.param_str(0));
           const bool found = v.kind == JsonValue::Kind::Object && it != v.members.end();
           c.set(Value::json(found ? rt::json_text(it->second) : "null"));
         }});
  r.add({.name = "json_to_str",
         .family = "json",
         .args = {wire("input", P::Json)},
         .results = {Type::Str},
         .summary = "The compact JSON text (what `as str` gives).",
         .eval = [](Call& c) { c.set_str(c.input(0).as_json()); }});
  r.add({.name = "str_to_json",
         .family = "json",
         .args = {wire("input", P::Str)},
         .results = {Type::Json},
         .summary = "The JSON value the text holds; null when it is not JSON.",
         .eval = [](Call& c) {
           std::string error;
           const auto v = rt::parse_json(c.str(0), error);
           c.set(Value::json(v ? rt::json_text(*v) : "null"));
         }});
}

const NodeDef& parse_json_node() {
  static const NodeDef def{
      .name = "__parse_json",
      .family = "internal",
      .args = {wire("text", P::Str)},
      .results = {Type::Json},
      .summary =
          "The JSON value of the text, or, when it is not JSON, the object "
          "{\"error\": \"invalid JSON\", \"message\": why, \"raw\": the text} (polydat's "
          "str-to-json adapter); inserted by `as json` on a str.",
      .eval =
          [](Call& c) {
            std::string error;
            const auto v = rt::parse_json(c.str(0), error);
            if (v) return c.set(Value::json(rt::json_text(*v)));
            JsonValue wrapped;
            wrapped.kind = JsonValue::Kind::Object;
            const auto text = [](std::string s) {
              JsonValue t;
              t.kind = JsonValue::Kind::String;
              t.scalar = std::move(s);
              return t;
            };
            wrapped.members["error"] = text("invalid JSON");
            wrapped.members["message"] = text(error);
            wrapped.members["raw"] = text(c.str(0));
            c.set(Value::json(rt::json_text(wrapped)));
          },
  };
  return def;
}

namespace {

// The text before each member's value ('{' or ',', the quoted key, ':') and
// the object's end.
std::vector<std::string> json_object_pieces(const std::vector<Value>& keys) {
  std::vector<std::string> pieces;
  for (size_t k = 0; k < keys.size(); ++k) {
    pieces.push_back((k ? "," : "{") + rt::json_quoted(keys[k].as_str()) + ":");
  }
  pieces.push_back(keys.empty() ? "{}" : "}");
  return pieces;
}

}  // namespace

const NodeDef& json_object_node() {
  static const NodeDef def{
      .name = "__json_object",
      .family = "internal",
      .args = {wires("values", P::Any), konsts("keys", P::Str)},
      .results = {Type::Json},
      .summary =
          "The object of each value (converted as to_json does) under the key in the "
          "same place; the keys sorted and distinct. json_with, and json_object of "
          "json_with parts, become one (graph/passes.cpp).",
      .prepare = [](const std::vector<Value>& keys) -> std::shared_ptr<const Prepared> {
        auto prepared = std::make_shared<Prepared>();
        prepared->strs = json_object_pieces(keys);
        return prepared;
      },
      .eval =
          [](Call& c) {
            const std::vector<std::string>& pieces = c.prepared().strs;
            std::string out;
            for (size_t k = 0; k < c.input_count(); ++k) {
              out += pieces[k];
              out += rt::json_text(json_value_of(c.input(k)));
            }
            out += pieces.back();
            c.set(Value::json(std::move(out)));
          },
      .device_text = DeviceTextForm{.kind = DeviceTextKind::JsonObject,
                                    .bound =
                                        [](const std::vector<Value>&, const Prepared* prepared,
                                           std::span<const size_t> input_bounds) {
                                          size_t bound = 0;
                                          for (const std::string& piece : prepared->strs)
                                            bound += piece.size();
                                          for (size_t b : input_bounds) bound += b;
                                          return bound;
                                        }},
  };
  return def;
}

}  // namespace polyrt::nodes
