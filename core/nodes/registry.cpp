#include "nodes/registry.hpp"

#include <algorithm>
#include <charconv>

#include "nodes/host_nodes.hpp"
#include "nodes/text_fields.hpp"
#include "nodes/tile_holes.hpp"
#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/text.hpp"

namespace polyrt::nodes {

uint64_t Call::u64(size_t i) const {
  const Value& v = *inputs_[i];
  if (!v.is_none() && v.type() == Type::Bool) return v.as_bool() ? 1 : 0;
  return v.as_u64();
}

uint64_t Call::word(size_t i) const {
  if (inputs_[i]->is_none()) internal_error("a node read a None input as a word");
  return word_of(*inputs_[i]);
}

void Registry::add(NodeDef def) {
  if (def.columnar && def.can_fail && !def.columnar_falls_back) {
    internal_error("node '" + std::string(def.name) + "' can fail but has a columnar form");
  }
  defs_.push_back(std::make_unique<NodeDef>(std::move(def)));
  ordered_.push_back(defs_.back().get());
}

void Registry::add_alias(std::string_view alias, std::string_view of) {
  const NodeDef* target = find(of);
  if (!target) internal_error("alias '" + std::string(alias) + "' of unknown node");
  NodeDef def = *target;
  def.name = keep(std::string(alias));
  def.summary =
      keep("Another name of `" + std::string(of) + "` (polydat's): the same arguments and values.");
  add(std::move(def));
}

std::string_view Registry::keep(std::string text) {
  kept_texts_.push_back(std::make_unique<std::string>(std::move(text)));
  return *kept_texts_.back();
}

const NodeDef* Registry::find(std::string_view name) const {
  for (const NodeDef* d : ordered_) {
    if (d->name == name) return d;
  }
  return nullptr;
}

std::vector<Value> prepared_str_entries(const std::vector<Value>&, const Prepared* prepared) {
  std::vector<Value> entries;
  for (const std::string& s : prepared->strs) entries.push_back(Value::str(s));
  return entries;
}

std::string display_text(const Value& v) {
  if (v.type() == Type::Str || is_json_text(v.type())) return v.text();
  return rt::render_text([&](char* p, const auto& ensure) {
    const FieldValue field = field_of(v);
    return write_display(ensure(p, display_bound(field)), field);
  });
}

namespace {

Registry build_user_registry() {
  Registry r;
  register_hash_nodes(r);
  register_integer_nodes(r);
  register_numeric_type_nodes(r);
  register_float_nodes(r);
  register_distribution_nodes(r);
  register_sampler_nodes(r);
  register_identifier_nodes(r);
  register_weighted_nodes(r);
  register_word_list_nodes(r);
  register_lorem_nodes(r);
  register_image_nodes(r);
  register_text_nodes(r);
  register_string_op_nodes(r);
  register_bytes_nodes(r);
  register_json_nodes(r);
  register_json_body_nodes(r);
  register_data_file_nodes(r);
  register_fixed_nodes(r);
  register_diagnostic_nodes(r);
  register_spectrum_nodes(r);
  register_datetime_nodes(r);
  register_permutation_nodes(r);
  register_noise_nodes(r);
  register_predicate_nodes(r);
  register_context_nodes(r);
  register_random_nodes(r);
  register_emit_nodes(r);
  register_iteration_nodes(r);
  register_partition_nodes(r);
  register_vector_nodes(r);
  register_regex_nodes(r);
  return r;
}

const Registry& user_registry() {
  static const Registry registry = build_user_registry();
  return registry;
}

}  // namespace

const NodeDef* find_node(std::string_view name) {
  if (const NodeDef* def = find_language_node(name)) return def;
  return find_host_node(name);
}

const NodeDef* find_language_node(std::string_view name) {
  if (const NodeDef* def = user_registry().find(name)) return def;
  // The calls a tile's template and an emit_row's row compile to
  // (expand/tiles.hpp, expand/emitted_rows.hpp) are named in the syntax tree, so
  // the lowering finds them here.
  for (const NodeDef* def : {&tile_encode_node(), &tile_truth_node(), &emit_text_node()}) {
    if (def->name == name) return def;
  }
  return nullptr;
}

const std::vector<const NodeDef*>& all_nodes() {
  return user_registry().ordered();
}

const NodeDef& to_str_node() {
  static const NodeDef def{
      .name = "__to_str",
      .family = "internal",
      .args = {wire("value", PortType::Any)},
      .results = {Type::Str},
      .summary =
          "Display form of a value (u64 decimal, f64 Display form, bool true/false); "
          "inserted by `as str`, `if` and `==` on strings.",
      .eval = [](Call& c) { c.set_str(display_text(c.input(0))); },
      .columnar =
          [](const ColumnCall& c) {
            for_each_text_row(c, [&](uint64_t r, char* p, const auto& ensure) {
              const FieldValue field = field_of(c.inputs[0], r);
              return write_display(ensure(p, display_bound(field)), field);
            });
          },
      // One value's Display form is a concatenation of one.
      .device_text = DeviceTextForm{.kind = DeviceTextKind::Concat, .bound = concat_bound},
  };
  return def;
}

const NodeDef& passthrough_node() {
  static const NodeDef def{
      .name = "__pass",
      .family = "internal",
      .args = {wire("value", PortType::Any)},
      .result_types = [](const std::vector<Type>& in, const std::vector<Value>&) { return in; },
      .result_doc = "same type as value",
      .summary = "Passes its input through; gives an alias binding (`b := a`) its own node.",
      .eval = [](Call& c) { c.set(c.input(0)); },
  };
  return def;
}

const NodeDef& str_to_u64_node() {
  static const NodeDef def{
      .name = "__str_to_u64",
      .family = "internal",
      .args = {wire("text", PortType::Str)},
      .results = {Type::U64},
      .can_fail = true,
      .summary = "Parses trimmed decimal text; inserted by `as u64` on a string.",
      .failure = "the text is not a decimal u64",
      .eval =
          [](Call& c) {
            const std::string& s = c.str(0);
            size_t b = s.find_first_not_of(" \t\r\n");
            size_t e = s.find_last_not_of(" \t\r\n");
            uint64_t v = 0;
            if (b != std::string::npos) {
              auto res = std::from_chars(s.data() + b, s.data() + e + 1, v);
              if (res.ec == std::errc() && res.ptr == s.data() + e + 1) {
                c.set_u64(v);
                return;
              }
            }
            throw NodeFailure{"cannot parse \"" + s + "\" as u64 (expected decimal digits)"};
          },
  };
  return def;
}

std::string_view port_type_name(PortType type) {
  switch (type) {
    case PortType::U64:
      return "u64";
    case PortType::F64:
      return "f64";
    case PortType::Str:
      return "str";
    case PortType::Any:
      return "any";
    case PortType::I64:
      return "i64";
    case PortType::Bytes:
      return "bytes";
    case PortType::Json:
      return "json";
    case PortType::Partition:
      return "partition";
    case PortType::PartitionList:
      return "partition_list";
    case PortType::VecF32:
      return "vec_f32";
    case PortType::VecI32:
      return "vec_i32";
    case PortType::VecI64:
      return "vec_i64";
    case PortType::Vector:
      return "vector";
    case PortType::Bool:
      return "bool";
  }
  return "?";
}

bool port_accepts(PortType port, Type t) {
  switch (port) {
    case PortType::Any:
      return true;
    case PortType::U64:  // the unsigned integers' words are their u64 values
      return is_unsigned_integer(t) || t == Type::Bool;
    case PortType::F64:  // an f32's word is its f64
      return is_float(t);
    case PortType::I64:
      return t == Type::I64 || widens_implicitly(t, Type::I64);
    case PortType::Bytes:
      return t == Type::Bytes;
    case PortType::Json:
      return t == Type::Json;
    case PortType::Partition:
      return t == Type::Partition;
    case PortType::PartitionList:
      return t == Type::PartitionList;
    case PortType::Str:
      return t == Type::Str;
    case PortType::VecF32:
      return t == Type::VecF32;
    case PortType::VecI32:
      return t == Type::VecI32;
    case PortType::VecI64:
      return t == Type::VecI64;
    case PortType::Vector:
      return is_vector(t);
    case PortType::Bool:
      return t == Type::Bool;
  }
  return false;
}

std::string signature(const NodeDef& def) {
  std::string out = std::string(def.name) + "(";
  for (size_t i = 0; i < def.args.size(); ++i) {
    const ArgSpec& a = def.args[i];
    if (i) out += ", ";
    out += std::string(a.name) + ": ";
    if (a.kind == ArgKind::Const) out += "const ";
    out += port_type_name(a.type);
    if (a.variadic) out += "...";
    if (!a.default_value.is_none()) {
      out += " = ";
      const Value& d = a.default_value;
      out += d.type() == Type::Str ? "\"" + d.as_str() + "\"" : d.to_string();
    }
  }
  out += ")";
  if (!def.results.empty()) {
    out += " -> ";
    if (def.results.size() > 1) out += "(";
    for (size_t i = 0; i < def.results.size(); ++i) {
      if (i) out += ", ";
      out += type_name(def.results[i]);
    }
    if (def.results.size() > 1) out += ")";
  } else {
    out += " -> " + std::string(def.result_doc);
  }
  return out;
}

}  // namespace polyrt::nodes
