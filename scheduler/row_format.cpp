#include "scheduler/row_format.hpp"

#include <algorithm>
#include <bit>
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
  // One pass over the bytes (find_first_of calls memchr once per byte).
  const bool plain = std::none_of(
      s.begin(), s.end(), [](char c) { return c == ',' || c == '"' || c == '\r' || c == '\n'; });
  if (plain) {
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

void append_word(std::string& out, RowFormat format, Type type, uint64_t word) {
  switch (type) {
    case Type::U64:
      append_u64(out, word);
      break;
    case Type::F64:
      append_f64(out, format, std::bit_cast<double>(word));
      break;
    case Type::Bool:
      out += word ? "true" : "false";
      break;
    case Type::Str:
      break;
  }
}

void append_string(std::string& out, RowFormat format, std::string_view s) {
  switch (format) {
    case RowFormat::Csv:
      append_csv_string(out, s);
      break;
    case RowFormat::Tsv:
      append_tsv_string(out, s);
      break;
    case RowFormat::Jsonl:
      append_json_string(out, s);
      break;
  }
}

// Numbers only: every row is written through a pointer into space reserved
// for the longest possible row, then the string is cut to what was written.
void append_word_rows(std::string& out, RowFormat format, const std::vector<std::string>& keys,
                      const ColumnChunk& chunk, size_t row_bound) {
  const size_t start = out.size();
  out.resize(start + chunk.rows * row_bound);
  char* p = out.data() + start;
  const char separator = format == RowFormat::Tsv ? '\t' : ',';
  const bool json = format == RowFormat::Jsonl;
  for (uint64_t r = 0; r < chunk.rows; ++r) {
    if (json) *p++ = '{';
    for (size_t k = 0; k < chunk.columns.size(); ++k) {
      if (k) *p++ = separator;
      p = std::copy(keys[k].begin(), keys[k].end(), p);
      const ColumnView& v = chunk.columns[k];
      const uint64_t word = v.words[r];
      switch (v.type) {
        case Type::U64:
          p = std::to_chars(p, p + 20, word).ptr;
          break;
        case Type::F64: {
          const double d = std::bit_cast<double>(word);
          if (d - d != 0.0) {  // NaN and infinities: the words the rest of polyrt uses
            std::string text;
            append_f64(text, format, d);
            p = std::copy(text.begin(), text.end(), p);
          } else {
            p = std::to_chars(p, p + 32, d).ptr;
          }
          break;
        }
        case Type::Bool:
          p = word ? std::copy_n("true", 4, p) : std::copy_n("false", 5, p);
          break;
        case Type::Str:
          break;
      }
    }
    if (json) *p++ = '}';
    *p++ = '\n';
  }
  out.resize((size_t)(p - out.data()));
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
  if (value.is_none()) throw none_output_error(column, coordinate);
  if (value.type() == Type::Str) {
    append_string(out, format, value.as_str());
  } else {
    append_word(out, format, value.type(), word_of(value));
  }
}

EvalError none_output_error(const std::string& column, uint64_t coordinate) {
  return EvalError("output '" + column + "' is None at coordinate " + std::to_string(coordinate) +
                       " (it depends on an unset extern); set the extern or wrap the value in "
                       "default_or(...)",
                   column);
}

void append_rows(std::string& out, RowFormat format, const std::vector<std::string>& columns,
                 const ColumnChunk& chunk) {
  std::vector<std::string> keys;  // JSON Lines: "name":
  for (const std::string& c : columns) {
    std::string key;
    if (format == RowFormat::Jsonl) {
      append_json_string(key, c);
      key.push_back(':');
    }
    keys.push_back(std::move(key));
  }
  bool all_words = true;
  size_t row_bound = 3;  // '{', '}', newline
  for (size_t k = 0; k < chunk.columns.size(); ++k) {
    all_words = all_words && chunk.columns[k].type != Type::Str;
    row_bound += keys[k].size() + 1 + 32;  // separator, the longest f64 or u64 text
  }
  if (all_words) {
    append_word_rows(out, format, keys, chunk, row_bound);
    return;
  }
  for (uint64_t r = 0; r < chunk.rows; ++r) {
    begin_row(out, format);
    for (size_t k = 0; k < chunk.columns.size(); ++k) {
      if (k) field_separator(out, format);
      out += keys[k];
      const ColumnView& v = chunk.columns[k];
      if (v.type == Type::Str) {
        append_string(out, format, v.values[r].as_str());
      } else {
        append_word(out, format, v.type, v.words[r]);
      }
    }
    end_row(out, format);
  }
}

}  // namespace polyrt::scheduler
