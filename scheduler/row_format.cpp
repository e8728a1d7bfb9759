#include "scheduler/row_format.hpp"

#include <charconv>

#include "polyrt/error.hpp"
#include "rtlib/text.hpp"

namespace polyrt::scheduler {

RowFormat parse_row_format(std::string_view text) {
  if (text == "csv") return RowFormat::Csv;
  if (text == "tsv") return RowFormat::Tsv;
  if (text == "jsonl") return RowFormat::Jsonl;
  throw UsageError("unknown format '" + std::string(text) + "' (valid: csv, tsv, jsonl)");
}

namespace {

// The backslash escapes JSON and TSV share; false for other characters.
bool append_backslash_escape(std::string& out, char c) {
  switch (c) {
    case '\\':
      out += "\\\\";
      return true;
    case '\n':
      out += "\\n";
      return true;
    case '\r':
      out += "\\r";
      return true;
    case '\t':
      out += "\\t";
      return true;
    default:
      return false;
  }
}

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  for (unsigned char c : s) {
    if (append_backslash_escape(out, (char)c)) continue;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      default:
        if (c < 0x20) {
          static const char* hex = "0123456789abcdef";
          out += "\\u00";
          out.push_back(hex[c >> 4]);
          out.push_back(hex[c & 15]);
        } else {
          out.push_back((char)c);
        }
    }
  }
  out.push_back('"');
}

void append_csv_string(std::string& out, std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += s;
    return;
  }
  out.push_back('"');
  for (char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

void append_tsv_string(std::string& out, std::string_view s) {
  for (char c : s) {
    if (!append_backslash_escape(out, c)) out.push_back(c);
  }
}

void append_u64(std::string& out, uint64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

void append_f64(std::string& out, RowFormat format, double v) {
  if (format == RowFormat::Jsonl && v - v != 0.0) {
    out += "null";  // JSON has no NaN or infinity
    return;
  }
  if (v - v != 0.0) {  // NaN, inf, -inf: the same words as everywhere else (rt::f64_shortest)
    out += rt::f64_shortest(v);
    return;
  }
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

}  // namespace

std::string header_line(RowFormat format, const std::vector<std::string>& columns) {
  if (format == RowFormat::Jsonl) return "";
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i) out.push_back(format == RowFormat::Csv ? ',' : '\t');
    if (format == RowFormat::Csv) {
      append_csv_string(out, columns[i]);
    } else {
      append_tsv_string(out, columns[i]);
    }
  }
  out.push_back('\n');
  return out;
}

void begin_row(std::string& out, RowFormat format) {
  if (format == RowFormat::Jsonl) out.push_back('{');
}

void field_separator(std::string& out, RowFormat format) {
  out.push_back(format == RowFormat::Tsv ? '\t' : ',');
}

void end_row(std::string& out, RowFormat format) {
  if (format == RowFormat::Jsonl) out.push_back('}');
  out.push_back('\n');
}

void append_field(std::string& out, RowFormat format, const std::string& column, const Value& value,
                  uint64_t coordinate) {
  if (format == RowFormat::Jsonl) {
    append_json_string(out, column);
    out.push_back(':');
  }
  if (value.is_none()) {
    throw EvalError("output '" + column + "' is None at coordinate " + std::to_string(coordinate) +
                        " (it depends on an unset extern); set the extern or wrap the value in "
                        "default_or(...)",
                    column);
  }
  switch (value.type()) {
    case Type::U64:
      append_u64(out, value.as_u64());
      break;
    case Type::F64:
      append_f64(out, format, value.as_f64());
      break;
    case Type::Bool:
      out += value.as_bool() ? "true" : "false";
      break;
    case Type::Str:
      switch (format) {
        case RowFormat::Csv:
          append_csv_string(out, value.as_str());
          break;
        case RowFormat::Tsv:
          append_tsv_string(out, value.as_str());
          break;
        case RowFormat::Jsonl:
          append_json_string(out, value.as_str());
          break;
      }
      break;
  }
}

}  // namespace polyrt::scheduler
