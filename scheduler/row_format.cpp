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
  throw UsageError("unknown format '" + std::string(text) + "' (valid: csv, tsv, jsonl, npy)");
}

namespace {

// Writers into space the caller reserved, each returning the end of what it
// wrote; the std::string forms below reserve the bound, write, and cut.
constexpr size_t kMaxWordText = 32;  // the longest u64, f64 or bool text

size_t max_string_text(RowFormat format, size_t size) {
  return (format == RowFormat::Jsonl ? 6 : 2) * size + 2;  // \u00XX, or doubled, plus quotes
}

// The backslash escapes JSON and TSV share; null for other characters.
const char* backslash_escape(char c) {
  switch (c) {
    case '\\':
      return "\\\\";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    default:
      return nullptr;
  }
}

char* write_json_string(char* p, std::string_view s) {
  *p++ = '"';
  for (unsigned char c : s) {
    if (const char* escape = backslash_escape((char)c)) {
      *p++ = escape[0];
      *p++ = escape[1];
    } else if (c == '"') {
      *p++ = '\\';
      *p++ = '"';
    } else if (c < 0x20) {
      static const char* hex = "0123456789abcdef";
      p = std::copy_n("\\u00", 4, p);
      *p++ = hex[c >> 4];
      *p++ = hex[c & 15];
    } else {
      *p++ = (char)c;
    }
  }
  *p++ = '"';
  return p;
}

char* write_csv_string(char* p, std::string_view s) {
  const bool plain = std::none_of(
      s.begin(), s.end(), [](char c) { return c == ',' || c == '"' || c == '\r' || c == '\n'; });
  if (plain) return std::copy(s.begin(), s.end(), p);
  *p++ = '"';
  for (char c : s) {
    if (c == '"') *p++ = '"';
    *p++ = c;
  }
  *p++ = '"';
  return p;
}

char* write_tsv_string(char* p, std::string_view s) {
  for (char c : s) {
    if (const char* escape = backslash_escape(c)) {
      *p++ = escape[0];
      *p++ = escape[1];
    } else {
      *p++ = c;
    }
  }
  return p;
}

char* write_string(char* p, RowFormat format, std::string_view s) {
  switch (format) {
    case RowFormat::Csv:
      return write_csv_string(p, s);
    case RowFormat::Tsv:
      return write_tsv_string(p, s);
    case RowFormat::Jsonl:
      return write_json_string(p, s);
  }
  return p;
}

[[gnu::noinline]] char* write_non_finite(char* p, RowFormat format, double d) {
  if (format == RowFormat::Jsonl) return std::copy_n("null", 4, p);  // JSON has no NaN or inf
  const std::string text = rt::f64_shortest(d);  // NaN, inf, -inf: polyrt's words
  return std::copy(text.begin(), text.end(), p);
}

// Inlined into the row loop: a call per field cost a quarter of the CSV time.
[[gnu::always_inline]] inline char* write_word(char* p, RowFormat format, Type type,
                                               uint64_t word) {
  switch (type) {
    case Type::U64:
      return std::to_chars(p, p + kMaxWordText, word).ptr;
    case Type::F64: {
      const double d = std::bit_cast<double>(word);
      if (d - d == 0.0) return std::to_chars(p, p + kMaxWordText, d).ptr;
      return write_non_finite(p, format, d);
    }
    case Type::Bool:
      return word ? std::copy_n("true", 4, p) : std::copy_n("false", 5, p);
    case Type::Str:
      break;
  }
  return p;
}

template <typename Write>
void append_bounded(std::string& out, size_t bound, const Write& write) {
  const size_t start = out.size();
  out.resize(start + bound);
  char* end = write(out.data() + start);
  out.resize((size_t)(end - out.data()));
}

void append_string(std::string& out, RowFormat format, std::string_view s) {
  append_bounded(out, max_string_text(format, s.size()),
                 [&](char* p) { return write_string(p, format, s); });
}

}  // namespace

std::string header_line(RowFormat format, const std::vector<std::string>& columns) {
  if (format == RowFormat::Jsonl) return "";
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i) out.push_back(format == RowFormat::Csv ? ',' : '\t');
    append_string(out, format, columns[i]);
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
    append_string(out, format, column);
    out.push_back(':');
  }
  if (value.is_none()) throw none_output_error(column, coordinate);
  if (value.type() == Type::Str) {
    append_string(out, format, value.as_str());
  } else {
    append_bounded(out, kMaxWordText,
                   [&](char* p) { return write_word(p, format, value.type(), word_of(value)); });
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
  size_t bound = chunk.rows * 3;  // '{', '}', newline
  for (size_t k = 0; k < columns.size(); ++k) {
    std::string key;
    if (format == RowFormat::Jsonl) {
      append_string(key, format, columns[k]);
      key.push_back(':');
    }
    bound += chunk.rows * (key.size() + 1);  // and a separator
    const ColumnView& v = chunk.columns[k];
    if (v.type == Type::Str) {
      for (uint64_t r = 0; r < chunk.rows; ++r) {
        bound += max_string_text(format, v.values[r].as_str().size());
      }
    } else {
      bound += chunk.rows * kMaxWordText;
    }
    keys.push_back(std::move(key));
  }
  const char separator = format == RowFormat::Tsv ? '\t' : ',';
  const bool json = format == RowFormat::Jsonl;
  append_bounded(out, bound, [&](char* p) {
    for (uint64_t r = 0; r < chunk.rows; ++r) {
      if (json) *p++ = '{';
      for (size_t k = 0; k < chunk.columns.size(); ++k) {
        if (k) *p++ = separator;
        p = std::copy(keys[k].begin(), keys[k].end(), p);
        const ColumnView& v = chunk.columns[k];
        p = v.type == Type::Str ? write_string(p, format, v.values[r].as_str())
                                : write_word(p, format, v.type, v.words[r]);
      }
      if (json) *p++ = '}';
      *p++ = '\n';
    }
    return p;
  });
}

}  // namespace polyrt::scheduler
