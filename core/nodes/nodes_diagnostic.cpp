// polydat's diagnostic nodes: type_of (a value's type as polydat names it),
// debug_repr (a value as polydat's Debug form shows it) and inspect (a
// pass-through that sends that form to the log sink). Host steps.
#include <cctype>
#include <string>

#include "nodes/registry.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/text.hpp"
#include "value/vector_values.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;

// polydat's port type names: polyrt's, but a str is "String".
std::string polydat_type_name(Type t) {
  return t == Type::Str ? "String" : std::string(type_name(t));
}

// Rust's Debug of a str: quoted, with \" \\ \n \r \t \0 escaped and other
// control characters as \u{..}.
std::string debug_str(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\0':
        out += "\\0";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          const char* hex = "0123456789abcdef";
          out += "\\u{";
          if (c >= 0x10) out.push_back(hex[c >> 4]);
          out.push_back(hex[c & 15]);
          out += "}";
        } else {
          out.push_back((char)c);
        }
    }
  }
  return out + "\"";
}

// A value as polydat's Value derives Debug: its variant (U64 for the
// unsigned integers, I64 for the signed ones, F64 for the floats, as
// polydat's carriers hold them) around its content; a json value as its
// compact text, a partition as Ext of its JSON.
std::string debug_repr(const Value& v) {
  const Type t = v.type();
  if (t == Type::Bool) return std::string("Bool(") + (v.as_bool() ? "true" : "false") + ")";
  if (is_signed_integer(t)) return "I64(" + std::to_string(v.as_i64()) + ")";
  if (is_integer(t)) return "U64(" + std::to_string(v.as_u64()) + ")";
  if (is_float(t)) return "F64(" + rt::f64_debug(v.as_f64()) + ")";
  if (t == Type::Str) return "Str(" + debug_str(v.as_str()) + ")";
  if (t == Type::Json) return "Json(" + v.as_json() + ")";
  if (is_partition(t)) return "Ext(" + v.text() + ")";
  std::string out;
  if (t == Type::Bytes) {
    out = "Bytes([";
    for (size_t i = 0; i < v.as_bytes().size(); ++i) {
      out += (i ? ", " : "") + std::to_string((unsigned char)v.as_bytes()[i]);
    }
    return out + "])";
  }
  // A vector: VecF32([1.0, 2.5]) (f32 elements in their f32 Debug form).
  std::string name(type_name(t));
  out = "Vec" + std::string(1, (char)std::toupper(name[4])) + name.substr(5) + "([";
  const std::vector<Value> elements = vector_elements(v);
  for (size_t i = 0; i < elements.size(); ++i) {
    const Value& e = elements[i];
    out += (i ? ", " : "") + (e.type() == Type::F32   ? rt::f32_debug(e.as_f64())
                              : e.type() == Type::F64 ? rt::f64_debug(e.as_f64())
                                                      : e.to_string());
  }
  return out + "])";
}

}  // namespace

void register_diagnostic_nodes(Registry& r) {
  r.add({.name = "type_of",
         .family = "diagnostic",
         .args = {wire("input", P::Any)},
         .results = {Type::Str},
         .summary = "input's type as polydat names it: u64, f64, bool, String, bytes, json, "
                    "vec_f32, ... (None when input is None).",
         .eval = [](Call& c) { c.set_str(polydat_type_name(c.input(0).type())); }});
  r.add({.name = "debug_repr",
         .family = "diagnostic",
         .args = {wire("input", P::Any)},
         .results = {Type::Str},
         .summary = "input as polydat's Debug form shows it: U64(42), I64(-3), F64(2.5), "
                    "Bool(true), Str(\"a\\\"b\"), Bytes([1, 2]), VecF32([1.0, 2.5]); a json value "
                    "as Json(its compact text), a partition as Ext(its JSON).",
         .eval = [](Call& c) { c.set_str(debug_repr(c.input(0))); }});
  r.add({.name = "inspect",
         .family = "diagnostic",
         .args = {wire("input", P::Any), konst("label", P::Str, Value::str("inspect"))},
         .result_types = [](const std::vector<Type>& in, const std::vector<Value>&) { return in; },
         .result_doc = "same type as input",
         .purity = Purity::SideChannel,
         .summary = "Passes input through and sends \"[inspect:LABEL] \" and its debug_repr to "
                    "the state's log sink each time the step runs (polydat prints it to stderr).",
         .eval = [](Call& c) { c.set(c.input(0)); },
         .emit =
             [](Call& c, const SideChannelSink& sink) {
               c.set(c.input(0));
               if (sink) sink("[inspect:" + c.param_str(0) + "] " + debug_repr(c.input(0)));
             }});
}

}  // namespace polyrt::nodes
