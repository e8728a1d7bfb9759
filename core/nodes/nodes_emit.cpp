// emit_row, polydat's row emission: `e := emit_row(format, names,
// values...)` is the number of values, and the row it renders is the
// program's output `e.row` (expand/emitted_rows.hpp adds it), which every
// output format of `polyrt run`, the batch tier and Python write like any
// str column, where polydat pushes it to a thread-local buffer its binary
// drains.
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "nodes/registry.hpp"
#include "nodes/text_fields.hpp"
#include "rtlib/text.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;

enum class EmitFormat : uint8_t { Map, Csv, Jsonl, Text };

// The format polydat reads from the constant (case and spaces ignored; an
// unknown one is map).
EmitFormat emit_format(std::string_view text) {
  std::string name;
  for (char c : text) {
    if (c != ' ' && c != '\t') name.push_back((char)std::tolower((unsigned char)c));
  }
  if (name == "csv") return EmitFormat::Csv;
  if (name == "json" || name == "jsonl") return EmitFormat::Jsonl;
  if (name == "text") return EmitFormat::Text;
  return EmitFormat::Map;
}

// The names, split on commas, trimmed, empty ones left out.
std::vector<std::string> emit_names(std::string_view text) {
  std::vector<std::string> names;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    std::string_view name = text.substr(at, comma - at);
    while (!name.empty() && std::isspace((unsigned char)name.front())) name.remove_prefix(1);
    while (!name.empty() && std::isspace((unsigned char)name.back())) name.remove_suffix(1);
    if (!name.empty()) names.emplace_back(name);
    at = comma + 1;
  }
  return names;
}

std::string shown(const Value& v) {
  return v.is_none() ? std::string() : display_text(v);
}

std::string rendered_row(const Call& c) {
  const std::vector<std::string> names = emit_names(c.param_str(1));
  std::string row;
  switch (emit_format(c.param_str(0))) {
    case EmitFormat::Text:
      for (size_t k = 0; k < c.input_count(); ++k) row += (k ? "\n" : "") + shown(c.input(k));
      return row;
    case EmitFormat::Map:
      for (size_t k = 0; k < c.input_count() && k < names.size(); ++k) {
        row += (k ? " " : "") + names[k] + "=" + shown(c.input(k));
      }
      return row;
    case EmitFormat::Csv:
      for (size_t k = 0; k < c.input_count(); ++k) {
        // A tile's CSV field rule: polydat quotes for , " and a newline.
        const std::string text = shown(c.input(k));
        std::string cell(rt::escaped_bound(rt::TextEscape::Csv, text.size()), '\0');
        cell.resize((size_t)(write_escaped(cell.data(), rt::TextEscape::Csv, text) - cell.data()));
        row += (k ? "," : "") + cell;
      }
      return row;
    case EmitFormat::Jsonl: {
      // serde_json's map: keys sorted, a later value of a key replacing an
      // earlier one.
      std::map<std::string, std::string> members;
      for (size_t k = 0; k < c.input_count() && k < names.size(); ++k) {
        members[names[k]] = c.input(k).is_none() ? "null" : json_of(c.input(k));
      }
      row = "{";
      for (const auto& [name, value] : members) {
        row += (row.size() > 1 ? "," : "") + json_of(Value::str(name)) + ":" + value;
      }
      return row + "}";
    }
  }
  return row;
}

}  // namespace

void register_emit_nodes(Registry& r) {
  r.add({.name = "emit_row",
         .family = "strings",
         .args = {konst("format", P::Str), konst("names", P::Str), wires("values", P::Any)},
         .results = {Type::U64},
         .accepts_none = true,
         .summary = "The number of values. The row it emits, the values rendered as `format` "
                    "says (map: name=value joined by spaces; csv: values joined by commas, "
                    "quoted when they hold , \" or a newline; json or jsonl: one object, keys "
                    "sorted; text: one value per line; another format is map) under `names` "
                    "(comma-separated), is the program's str output NAME.row for a binding "
                    "NAME := emit_row(...).",
         .eval = [](Call& c) { c.set_u64(c.input_count()); }});
}

const NodeDef& emit_text_node() {
  static const NodeDef def{
      .name = "__emit_row_text",
      .family = "internal",
      .args = {konst("format", P::Str), konst("names", P::Str), wires("values", P::Any)},
      .results = {Type::Str},
      .accepts_none = true,
      .summary = "The row an emit_row renders (its binding's output NAME.row).",
      .eval = [](Call& c) { c.set_str(rendered_row(c)); },
  };
  return def;
}

}  // namespace polyrt::nodes
