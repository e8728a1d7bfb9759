#include "scheduler/encoding/row_format.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/byte_encodings.hpp"
#include "rtlib/row_fields.h"
#include "rtlib/text.hpp"
#include "value/logical_text.hpp"
#include "value/vector_values.hpp"

namespace polyrt {

std::string_view row_format_name(RowFormat format) {
  switch (format) {
    case RowFormat::Csv:
      return "csv";
    case RowFormat::Tsv:
      return "tsv";
    case RowFormat::Jsonl:
      return "jsonl";
  }
  return "csv";
}

std::optional<RowFormat> row_format_named(std::string_view name) {
  for (RowFormat format : {RowFormat::Csv, RowFormat::Tsv, RowFormat::Jsonl}) {
    if (row_format_name(format) == name) return format;
  }
  return std::nullopt;
}

namespace scheduler {

std::string row_format_names() {
  return "csv, tsv, jsonl";
}

namespace {

// Writers into space the caller reserved, each returning the end of what it
// wrote; the std::string forms below reserve the bound, write, and cut.
constexpr size_t kMaxWordText = rt::kF64ShortestText;  // room for a u64, f64 or bool

// The longest text of a word of `type`: a chunk's bound is reserved (and
// cleared, where resize_and_overwrite is missing) before it is written, so
// it is kept close to what is written.
size_t max_word_text(Type type) {
  if (is_integer(type)) return rt::kU64Text + (is_signed_integer(type) ? 1 : 0);
  return type == Type::Bool ? 5 : kMaxWordText;
}

size_t max_string_text(RowFormat format, size_t size) {
  return (format == RowFormat::Jsonl ? 6 : 2) * size + 2;  // \u00XX, or doubled, plus quotes
}

char* write_string(char* p, RowFormat format, std::string_view s) {
  rt::ByteWriter out{p};
  rt::put_text_field(out, format, s.data(), s.size());
  return out.p;
}

// Inlined into the row loop: a call per field cost a quarter of the CSV time.
[[gnu::always_inline]] inline char* write_word(char* p, RowFormat format, Type type,
                                               uint64_t word) {
  switch (type) {
    case Type::U64:
    case Type::U32:
    case Type::U16:
    case Type::U8:
      return rt::write_u64(p, word);
    case Type::I64:
    case Type::I32:
    case Type::I16:
    case Type::I8:
      return rt::write_i64(p, (int64_t)word);
    case Type::F64:
      return rt::write_f64_field(p, format, std::bit_cast<double>(word));
    case Type::F32:
      return rt::write_f32_field(p, format, std::bit_cast<double>(word));
    case Type::Bool:
      return rt::write_bool_field(p, word != 0);
    default:  // the payload types have their own writers
      break;
  }
  return p;
}

// Writes at most `bound` bytes at the end of `out`. With C++23's
// resize_and_overwrite (this file is compiled as C++23 where the compiler
// has it) the room is not cleared first: clearing a chunk's bound took 4 %
// of a text table's time.
template <typename Write>
void append_bounded(std::string& out, size_t bound, const Write& write) {
  const size_t start = out.size();
#if defined(__cpp_lib_string_resize_and_overwrite)
  out.resize_and_overwrite(
      start + bound, [&](char* data, size_t) { return (size_t)(write(data + start) - data); });
#else
  out.resize(start + bound);
  char* end = write(out.data() + start);
  out.resize((size_t)(end - out.data()));
#endif
}

void append_string(std::string& out, RowFormat format, std::string_view s) {
  append_bounded(out, max_string_text(format, s.size()),
                 [&](char* p) { return write_string(p, format, s); });
}

// A vector field: its JSON array, quoted in CSV (its commas); room:
// vector_field_bound.
size_t vector_field_bound(Type type, size_t bytes) {
  return 2 + vector_text_bound(type, bytes);
}

char* write_vector(char* p, RowFormat format, Type type, std::string_view payload) {
  if (format == RowFormat::Csv) *p++ = '"';
  p = write_vector_field(p, format, type, payload);
  if (format == RowFormat::Csv) *p++ = '"';
  return p;
}

// A field's key in JSON Lines ("name":), nothing in CSV and TSV.
void append_key(std::string& out, RowFormat format, const std::string& column) {
  if (format != RowFormat::Jsonl) return;
  append_string(out, format, column);
  out.push_back(':');
}

}  // namespace

std::string json_string(std::string_view text) {
  std::string out;
  append_string(out, RowFormat::Jsonl, text);
  return out;
}

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

namespace {

// A logical value's field: its text (logical_text.h), quoted in JSON Lines
// but for a decimal, which is a JSON number.
char* write_logical(char* p, RowFormat format, LogicalType type, uint64_t word) {
  const bool quoted = format == RowFormat::Jsonl && type.kind != LogicalKind::Decimal;
  if (quoted) *p++ = '"';
  p = write_logical_text(p, type, word);
  if (quoted) *p++ = '"';
  return p;
}

constexpr size_t kMaxLogicalField = rt::kLogicalText + 2;  // and JSON's quotes

// A field's value (not None), without its JSON key.
void append_value(std::string& out, RowFormat format, const Value& value, LogicalType logical) {
  if (!logical.is_none()) {
    append_bounded(out, kMaxLogicalField,
                   [&](char* p) { return write_logical(p, format, logical, word_of(value)); });
  } else if (is_json_text(value.type()) && format == RowFormat::Jsonl) {
    out += value.text();  // a JSON value embedded as itself
  } else if (value.type() == Type::Bytes) {
    append_string(out, format, rt::hex_text(value.as_bytes()));
  } else if (is_vector(value.type())) {
    append_bounded(out, vector_field_bound(value.type(), value.text().size()),
                   [&](char* p) { return write_vector(p, format, value.type(), value.text()); });
  } else if (is_payload(value.type())) {
    append_string(out, format, value.text());
  } else {
    append_bounded(out, kMaxWordText,
                   [&](char* p) { return write_word(p, format, value.type(), word_of(value)); });
  }
}

}  // namespace

void append_field(std::string& out, RowFormat format, const std::string& column, const Value& value,
                  uint64_t coordinate, LogicalType logical, bool nullable) {
  append_key(out, format, column);
  if (value.is_none()) {
    if (!nullable) throw none_output_error(column, coordinate);
    if (format == RowFormat::Jsonl) out += "null";
    return;
  }
  append_value(out, format, value, logical);
}

batch::RowEncoding row_encoding(RowFormat format, const std::vector<std::string>& columns,
                                const std::vector<LogicalType>& logical_types,
                                const batch::PreparedBatch& batch) {
  batch::RowEncoding rows{format, {}, {}};
  for (size_t k = 0; k < columns.size(); ++k) {
    std::string before;
    if (k) {
      field_separator(before, format);
    } else {
      begin_row(before, format);
    }
    append_key(before, format, columns[k]);
    const plan::BatchValue& v = batch.plan.outputs[k];
    // (Scalars that failed fail every row: the chunk reports it.)
    if (v.kind == plan::BatchValue::Scalar && !batch.scalars[v.index].is_none()) {
      append_value(before, format, batch.scalars[v.index], logical_types[k]);
    }
    rows.before.push_back(std::move(before));
  }
  if (columns.empty()) begin_row(rows.end, format);  // a row of no fields: "{}"
  end_row(rows.end, format);
  return rows;
}

EvalError none_output_error(const std::string& column, uint64_t coordinate,
                            const std::vector<std::string>& unset_externs) {
  std::string names;
  for (const std::string& name : unset_externs) names += (names.empty() ? "'" : ", '") + name + "'";
  const std::string which = unset_externs.size() == 1 ? "extern " + names + ", which has"
                            : unset_externs.empty()
                                ? "an extern that has"
                                : "one of the externs " + names + ", which have";
  const std::string set = unset_externs.size() == 1 ? unset_externs[0] : "NAME";
  return EvalError("output '" + column + "' is None at coordinate " + std::to_string(coordinate) +
                       ": it reads " + which + " no default and no value; set it (--set " + set +
                       "=VALUE; BatchOptions::externs, Python externs=) or wrap the value in "
                       "default_or(...)",
                   column);
}

namespace {

// How one column's fields of a chunk are written: numbers from their words
// by type; text copied as is when no field of the chunk needs quoting or
// escaping (decided once per column per chunk), else escaped field by field;
// bytes as lowercase hex (never escaped); json values in JSON Lines as
// themselves; vectors as JSON arrays (write_vector). One switch per field:
// the type is folded into the writer.
enum class FieldWriter : uint8_t {
  Unsigned,
  Signed,
  Word,  // f64, f32, bool: write_word
  PlainText,
  EscapedText,
  Hex,
  RawText,
  Vector,
  Logical  // write_logical
};

FieldWriter word_writer(Type type) {
  if (is_signed_integer(type)) return FieldWriter::Signed;
  if (is_integer(type)) return FieldWriter::Unsigned;
  return FieldWriter::Word;
}

// Whether `c` makes a field need quoting or escaping in `format`.
bool special_in(RowFormat format, unsigned char c) {
  switch (format) {
    case RowFormat::Csv:
      return rt::csv_special(c);
    case RowFormat::Tsv:
      return rt::backslash_letter(c) != 0;
    case RowFormat::Jsonl:
      return rt::json_special(c);
  }
  return true;
}

// Whether no byte of [bytes, bytes + size) needs quoting or escaping in
// `format`: 16 bytes per step with GCC's vector compares (SSE2 on x86-64,
// NEON on ARM); a byte-by-byte table scan took a third of a CSV chunk's time.
template <RowFormat Format>
bool all_plain_in(const char* bytes, size_t size) {
  using Bytes = unsigned char __attribute__((vector_size(16)));
  const auto special = [](Bytes v) {
    if constexpr (Format == RowFormat::Csv) {
      return (v == ',') | (v == '"') | (v == '\r') | (v == '\n');
    } else if constexpr (Format == RowFormat::Tsv) {
      return (v == '\\') | (v == '\n') | (v == '\r') | (v == '\t');
    } else {
      return (v < 0x20) | (v >= 0x7f) | (v == '"') | (v == '\\');
    }
  };
  decltype(special(Bytes{})) any{};
  size_t i = 0;
  for (; i + 16 <= size; i += 16) {
    Bytes v;
    std::memcpy(&v, bytes + i, 16);
    any |= special(v);
  }
  uint64_t halves[2];
  std::memcpy(halves, &any, 16);
  if (halves[0] | halves[1]) return false;
  for (; i < size; ++i) {
    if (special_in(Format, (unsigned char)bytes[i])) return false;
  }
  return true;
}

bool all_plain(RowFormat format, const char* bytes, size_t size) {
  switch (format) {
    case RowFormat::Csv:
      return all_plain_in<RowFormat::Csv>(bytes, size);
    case RowFormat::Tsv:
      return all_plain_in<RowFormat::Tsv>(bytes, size);
    case RowFormat::Jsonl:
      return all_plain_in<RowFormat::Jsonl>(bytes, size);
  }
  return false;
}

// Copies a field of n bytes ending before `limit` (the end of its buffer):
// short fields as one 16-byte move (the destination has 16 bytes of slack),
// up to 32 bytes as two that overlap, which beats a memcpy call per field.
[[gnu::always_inline]] inline char* copy_field(char* p, const char* src, size_t n,
                                               const char* limit) {
  if (n <= 16 && src + 16 <= limit) {
    std::memcpy(p, src, 16);
  } else if (n >= 16 && n <= 32) {
    std::memcpy(p, src, 16);
    std::memcpy(p + n - 16, src + n - 16, 16);
  } else {
    std::memcpy(p, src, n);
  }
  return p + n;
}

// One column of a chunk as the row loop reads it, the view's pointers copied
// in: one load per field instead of a dependent chain through the view.
struct ColumnPlan {
  FieldWriter writer;
  Type type;
  LogicalType logical;
  const uint64_t* present;  // a nullable column's (ColumnView::present)
  const uint64_t* words;
  const int64_t* offsets;
  const char* bytes;
  const char* limit;  // the end of a text column's bytes (copy_field)

  std::string_view text(uint64_t row) const {
    return {bytes + offsets[row], (size_t)(offsets[row + 1] - offsets[row])};
  }
  // Row `row`'s bytes as they are, at p.
  char* copy_text(char* p, uint64_t row) const {
    return copy_field(p, bytes + offsets[row], (size_t)(offsets[row + 1] - offsets[row]), limit);
  }
};

// The rows of a chunk: the format is a template argument so that CSV and TSV
// rows carry no JSON Lines branch or key. The plans come as a pointer and a
// count held in locals: the row's byte stores could alias a vector's own
// pointers, which would be reloaded for every field.
template <RowFormat Format>
char* write_rows(char* p, uint64_t rows, const ColumnPlan* plans, size_t columns,
                 const std::string* keys) {
  constexpr bool json = Format == RowFormat::Jsonl;
  constexpr char separator = Format == RowFormat::Tsv ? '\t' : ',';
  for (uint64_t r = 0; r < rows; ++r) {
    if constexpr (json) *p++ = '{';
    for (size_t k = 0; k < columns; ++k) {
      if constexpr (json) p = std::copy(keys[k].begin(), keys[k].end(), p);
      const ColumnPlan& v = plans[k];
      if (v.present && v.present[r] == 0) {  // null: an empty field, JSON's null
        if constexpr (json) p = std::copy_n("null", 4, p);
        *p++ = separator;
        continue;
      }
      switch (v.writer) {
        case FieldWriter::Unsigned:
          p = rt::write_u64(p, v.words[r]);
          break;
        case FieldWriter::Signed:
          p = rt::write_i64(p, (int64_t)v.words[r]);
          break;
        case FieldWriter::Word:
          p = write_word(p, Format, v.type, v.words[r]);
          break;
        case FieldWriter::PlainText:
          if constexpr (json) *p++ = '"';
          p = v.copy_text(p, r);
          if constexpr (json) *p++ = '"';
          break;
        case FieldWriter::EscapedText:
          p = write_string(p, Format, v.text(r));
          break;
        case FieldWriter::Hex:
          if constexpr (json) *p++ = '"';
          p = rt::write_hex(p, v.text(r));
          if constexpr (json) *p++ = '"';
          break;
        case FieldWriter::RawText:
          p = v.copy_text(p, r);
          break;
        case FieldWriter::Vector:
          p = write_vector(p, Format, v.type, v.text(r));
          break;
        case FieldWriter::Logical:
          p = write_logical(p, Format, v.logical, v.words[r]);
          break;
      }
      *p++ = separator;  // after every field: the row's last one becomes its end
    }
    if (columns == 0) *p++ = separator;  // a row of no fields: its end only
    p[-1] = json ? '}' : '\n';
    if constexpr (json) *p++ = '\n';
  }
  return p;
}

}  // namespace

void append_rows(std::string& out, RowFormat format, const std::vector<std::string>& columns,
                 const ColumnChunk& chunk) {
  constexpr size_t kCopySlack = 16;  // see copy_field
  const bool json = format == RowFormat::Jsonl;
  std::vector<std::string> keys;  // JSON Lines: "name":
  std::vector<ColumnPlan> plans;
  size_t bound = chunk.rows * 3 + kCopySlack;  // '{', '}', newline
  for (size_t k = 0; k < columns.size(); ++k) {
    std::string key;
    append_key(key, format, columns[k]);
    bound += chunk.rows * (key.size() + 1);  // and a separator
    const ColumnView& v = chunk.columns[k];
    FieldWriter writer = word_writer(v.type);
    // A chunk's part (encoded on its own) starts at its first row's offset.
    const int64_t begin = is_payload(v.type) ? v.offsets[0] : 0;
    const size_t bytes = is_payload(v.type) ? (size_t)(v.offsets[chunk.rows] - begin) : 0;
    if (!v.logical.is_none()) {
      writer = FieldWriter::Logical;
      bound += chunk.rows * kMaxLogicalField;
    } else if (is_vector(v.type)) {
      writer = FieldWriter::Vector;
      bound += chunk.rows * vector_field_bound(v.type, 0) + vector_text_bound(v.type, bytes);
    } else if (v.type == Type::Bytes) {
      writer = FieldWriter::Hex;
      bound += 2 * bytes + (json ? 2 * chunk.rows : 0);
    } else if (is_json_text(v.type) && json) {
      writer = FieldWriter::RawText;
      bound += bytes;
    } else if (is_payload(v.type)) {
      if (all_plain(format, v.bytes + begin, bytes)) {
        writer = FieldWriter::PlainText;
        bound += bytes + (json ? 2 * chunk.rows : 0);  // JSON's quotes
      } else {
        writer = FieldWriter::EscapedText;
        for (uint64_t r = 0; r < chunk.rows; ++r) {
          bound += max_string_text(format, v.text(r).size());
        }
      }
    } else {
      bound += chunk.rows * max_word_text(v.type);
    }
    if (v.present) bound += chunk.rows * 4;  // "null" in place of a shorter field
    keys.push_back(std::move(key));
    // A str column of no bytes may have no buffer: its fields are read from
    // an empty text instead (copy_field's bound must not offset a null).
    static constexpr char kNoText[1] = {};
    const char* text = v.bytes ? v.bytes : kNoText;
    plans.push_back({writer, v.type, v.logical, v.present, v.words, v.offsets, text,
                     is_payload(v.type) ? text + bytes : nullptr});
  }
  append_bounded(out, bound, [&](char* p) {
    switch (format) {
      case RowFormat::Csv:
        return write_rows<RowFormat::Csv>(p, chunk.rows, plans.data(), plans.size(), keys.data());
      case RowFormat::Tsv:
        return write_rows<RowFormat::Tsv>(p, chunk.rows, plans.data(), plans.size(), keys.data());
      case RowFormat::Jsonl:
        return write_rows<RowFormat::Jsonl>(p, chunk.rows, plans.data(), plans.size(), keys.data());
    }
    return p;
  });
}

}  // namespace scheduler
}  // namespace polyrt
