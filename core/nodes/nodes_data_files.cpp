// polydat's data file nodes: csv_field, csv_row, csv_row_count, jsonl_field,
// jsonl_row, jsonl_row_count, file_line_at. The file is read once, when the program
// compiles (a relative path from the working directory, else from the
// program's directory: io/data_files.hpp); its rows become a table that an
// ordinal picks from modulo its size (a TablePick: `mod` is the native index,
// so batch kernels and GPUs compute it; __pick_row takes the table over).
// The table is one buffer of the rows' bytes and their offsets, so a file
// costs about its size once read (a string per row cost 10-12 times it). A
// file that cannot be read or parsed is a compile error naming it.
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "columns/string_column.hpp"
#include "io/confinement.hpp"
#include "io/data_files.hpp"
#include "nodes/column_call.hpp"
#include "nodes/device_text_form.hpp"
#include "nodes/registry.hpp"
#include "nodes/table_rows.hpp"
#include "nodes/text_lines.hpp"
#include "rtlib/json_text.hpp"
#include "rtlib/string_ops.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;

bool blank(std::string_view s) {
  return rt::trim_space(s).empty();
}

std::string read_file(std::string_view node, const std::string& path) {
  std::string why;
  std::optional<std::string> text = io::read_data_file(path, why);
  if (!text) throw ParamError{0, std::string(node) + ": failed to read '" + path + "': " + why};
  return std::move(*text);
}

// A data file's rows as they are read: one buffer and offsets (the table
// __pick_row takes over), and the longest row (a GPU kernel's bound).
class Rows {
 public:
  explicit Rows(size_t bytes) : table_(std::make_shared<columns::StringColumn>()) {
    table_->ensure(table_->cursor(), bytes);  // one allocation for the whole file
  }
  void add(std::string_view row) {
    table_->append(row);
    longest_ = std::max<uint64_t>(longest_, row.size());
  }
  uint64_t size() const { return table_->rows(); }
  std::shared_ptr<const Prepared> prepared() && {
    auto prepared = std::make_shared<Prepared>();
    prepared->u64s = {longest_};
    prepared->extra = std::move(table_);
    return prepared;
  }

 private:
  std::shared_ptr<columns::StringColumn> table_;
  uint64_t longest_ = 0;
};

// The records of CSV text (RFC 4180: a field that starts with `"` runs to
// the next lone `"`, its commas and line breaks field content), each as
// written without its line end (LF, or CR LF).
std::vector<std::string_view> csv_records(std::string_view node, const std::string& path,
                                          std::string_view content) {
  std::vector<std::string_view> records;
  size_t start = 0, line = 1, quote_line = 1;
  bool quoted = false, field_start = true;
  for (size_t i = 0; i < content.size(); ++i) {
    const char b = content[i];
    if (quoted) {
      if (b == '"' && i + 1 < content.size() && content[i + 1] == '"') {
        ++i;
      } else if (b == '"') {
        quoted = false;
        field_start = false;
      } else if (b == '\n') {
        ++line;
      }
    } else if (b == '"' && field_start) {
      quoted = true;
      quote_line = line;
    } else if (b == ',') {
      field_start = true;
    } else if (b == '\n') {
      const size_t end = i > start && content[i - 1] == '\r' ? i - 1 : i;
      records.push_back(content.substr(start, end - start));
      start = i + 1;
      ++line;
      field_start = true;
    } else {
      field_start = false;
    }
  }
  if (quoted) {
    throw ParamError{0, std::string(node) + ": '" + path +
                            "': unterminated quoted field starting at line " +
                            std::to_string(quote_line)};
  }
  if (start < content.size()) records.push_back(content.substr(start));
  return records;
}

// The fields of one record: unquoted ones as written, quoted ones without
// their quotes and with "" as ". `what` names the record in an error.
std::vector<std::string> csv_fields(const std::string& what, std::string_view record) {
  std::vector<std::string> fields;
  size_t i = 0;
  while (true) {
    if (i < record.size() && record[i] == '"') {
      std::string field;
      for (++i;; ++i) {
        if (i >= record.size()) throw ParamError{0, what + ": unterminated quoted field"};
        if (record[i] != '"') {
          field.push_back(record[i]);
        } else if (i + 1 < record.size() && record[i + 1] == '"') {
          field.push_back('"');
          ++i;
        } else {
          ++i;
          break;
        }
      }
      fields.push_back(std::move(field));
      if (i >= record.size()) return fields;
      if (record[i] != ',') {
        throw ParamError{0, what + ": unexpected text after the closing quote of field " +
                                std::to_string(fields.size())};
      }
      ++i;
    } else {
      const size_t comma = record.find(',', i);
      fields.emplace_back(record.substr(i, comma == std::string_view::npos ? comma : comma - i));
      if (comma == std::string_view::npos) return fields;
      i = comma + 1;
    }
  }
}

// The data records of a CSV file that are not blank (the header skipped).
Rows csv_data_rows(std::string_view node, const std::string& path) {
  const std::string content = read_file(node, path);
  Rows rows(content.size());
  const std::vector<std::string_view> records = csv_records(node, path, content);
  for (size_t r = 1; r < records.size(); ++r) {
    if (!blank(records[r])) rows.add(records[r]);
  }
  return rows;
}

// Each line of a text file (text_lines.hpp), blank ones too unless
// `skip_blank`, to `line(number, text)` (numbers from 1).
template <typename Line>
void for_each_line(const std::string& content, bool skip_blank, const Line& line) {
  nodes::for_each_line(content, [&](size_t number, std::string_view text) {
    if (!skip_blank || !blank(text)) line(number, text);
  });
}

Rows file_lines(std::string_view node, const std::string& path, bool skip_blank) {
  const std::string content = read_file(node, path);
  Rows rows(content.size());
  for_each_line(content, skip_blank, [&](size_t, std::string_view text) { rows.add(text); });
  return rows;
}

// The lines of JSON Lines text that are not blank.
Rows jsonl_lines(std::string_view node, const std::string& path) {
  return file_lines(node, path, true);
}

// A dot path into a JSON value (object keys, array indexes) as text: a
// string as itself, null or a missing step empty, anything else compact.
std::string at_json_path(const rt::JsonValue& root, std::string_view path) {
  const rt::JsonValue* at = &root;
  for (size_t from = 0;;) {
    const size_t dot = path.find('.', from);
    const std::string key(path.substr(from, dot == std::string_view::npos ? dot : dot - from));
    if (at->kind == rt::JsonValue::Kind::Object) {
      const auto it = at->members.find(key);
      if (it == at->members.end()) return "";
      at = &it->second;
    } else if (at->kind == rt::JsonValue::Kind::Array) {
      size_t index = 0;
      const auto res = std::from_chars(key.data(), key.data() + key.size(), index);
      if (key.empty() || res.ec != std::errc() || res.ptr != key.data() + key.size() ||
          index >= at->items.size()) {
        return "";
      }
      at = &at->items[index];
    } else {
      return "";
    }
    if (dot == std::string_view::npos) break;
    from = dot + 1;
  }
  if (at->kind == rt::JsonValue::Kind::String) return at->scalar;
  if (at->kind == rt::JsonValue::Kind::Null) return "";
  return rt::json_text(*at);
}

// What a row counter prepares: the count alone.
std::shared_ptr<const Prepared> count_of(const Rows& rows) {
  auto prepared = std::make_shared<Prepared>();
  prepared->u64s = {rows.size()};
  return prepared;
}

std::shared_ptr<const Prepared> csv_column(const std::vector<Value>& p) {
  const std::string& path = p[0].as_str();
  const std::string& column = p[1].as_str();
  const std::string content = read_file("csv_field", path);
  const std::vector<std::string_view> records = csv_records("csv_field", path, content);
  if (records.empty()) throw ParamError{0, "csv_field: '" + path + "' is empty"};
  const std::vector<std::string> headers =
      csv_fields("csv_field: '" + path + "' header", records[0]);
  size_t index = 0;
  const auto res = std::from_chars(column.data(), column.data() + column.size(), index);
  if (column.empty() || res.ec != std::errc() || res.ptr != column.data() + column.size()) {
    index = headers.size();
    for (size_t k = 0; k < headers.size() && index == headers.size(); ++k) {
      if (rt::trim_space(headers[k]) == column) index = k;
    }
    if (index == headers.size()) {
      // An untrusted compile never quotes a file (the header is its first line).
      std::string available;
      for (const std::string& h : headers) available += (available.empty() ? "" : ", ") + h;
      throw ParamError{1, "csv_field: column '" + column + "' not found in '" + path + "'" +
                              (io::confinement() ? std::string(" (its header is not shown to an "
                                                               "untrusted program)")
                                                 : ". Available: " + available)};
    }
  }
  Rows values(content.size());
  for (size_t r = 1; r < records.size(); ++r) {
    const std::vector<std::string> fields =
        csv_fields("csv_field: '" + path + "' row " + std::to_string(r), records[r]);
    values.add(index < fields.size() ? rt::trim_space(fields[index]) : std::string_view());
  }
  if (values.size() == 0) throw ParamError{0, "csv_field: '" + path + "' has no data rows"};
  return std::move(values).prepared();
}

std::shared_ptr<const Prepared> csv_rows(const std::vector<Value>& p) {
  Rows rows = csv_data_rows("csv_row", p[0].as_str());
  if (rows.size() == 0) throw ParamError{0, "csv_row: '" + p[0].as_str() + "' has no data rows"};
  return std::move(rows).prepared();
}

std::shared_ptr<const Prepared> jsonl_field(const std::vector<Value>& p) {
  const std::string& path = p[0].as_str();
  const std::string content = read_file("jsonl_field", path);
  Rows values(content.size());
  for_each_line(content, true, [&](size_t number, std::string_view line) {
    std::string error;
    const auto parsed = rt::parse_json(rt::trim_space(line), error);
    if (!parsed) {
      throw ParamError{0, "jsonl_field: '" + path + "': parse error at line " +
                              std::to_string(number) + ": " + error};
    }
    values.add(at_json_path(*parsed, p[1].as_str()));
  });
  if (values.size() == 0) throw ParamError{0, "jsonl_field: '" + path + "' has no lines"};
  return std::move(values).prepared();
}

std::shared_ptr<const Prepared> text_lines(const std::vector<Value>& p) {
  Rows lines = file_lines("file_line_at", p[0].as_str(), false);
  if (lines.size() == 0) {
    throw ParamError{0, "file_line_at: '" + p[0].as_str() + "' has no lines"};
  }
  return std::move(lines).prepared();
}

std::shared_ptr<const Prepared> jsonl_rows(const std::vector<Value>& p) {
  Rows rows = jsonl_lines("jsonl_row", p[0].as_str());
  if (rows.size() == 0) throw ParamError{0, "jsonl_row: '" + p[0].as_str() + "' has no lines"};
  return std::move(rows).prepared();
}

const columns::StringColumn& table_of(const Prepared& prepared) {
  return string_table_of(prepared.extra);
}

// Row `index` of the table a data file node read (its TablePick's row pick:
// it takes the call's constant arguments and its prepared table).
const NodeDef& pick_row_node() {
  static const NodeDef def{
      .name = "__pick_row",
      .family = "internal",
      .args = {wire("index", P::U64), konsts("source", P::Str)},
      .results = {Type::Str},
      .summary =
          "Row `index` of a data file's table (csv_field, csv_row, jsonl_field, "
          "jsonl_row, file_line_at).",
      .eval =
          [](Call& c) {
            const columns::StringColumn& table = table_of(c.prepared());
            const uint64_t index = c.u64(0);
            if (index >= table.rows()) internal_error("a table pick's index is past its table");
            c.set_str(std::string(table[index]));
          },
      .columnar = gather_table_rows,
      .device_text = DeviceTextForm{.symbol = "pd_text_pick",
                                    .args = {text_input(0), text_blob(0), text_blob(1)},
                                    .blobs = table_blobs,
                                    .bound = [](const std::vector<Value>&, const Prepared* prepared,
                                                std::span<const size_t>) -> size_t {
                                      return prepared->u64s.at(0);
                                    }},
  };
  return def;
}

// A table pick of the prepared rows: row ordinal mod n.
const TablePick kRowPick{.index = []() -> const NodeDef& { return *find_node("mod"); },
                         .index_params =
                             [](const std::vector<Value>&, const Prepared* prepared) {
                               return std::vector<Value>{Value::u64(table_of(*prepared).rows())};
                             },
                         .row_pick = pick_row_node};

}  // namespace

void register_data_file_nodes(Registry& r) {
  const auto picker = [&](std::string_view name, std::vector<ArgSpec> args,
                          std::string_view summary,
                          std::shared_ptr<const Prepared> (*prepare)(const std::vector<Value>&)) {
    args.insert(args.begin(), wire("ordinal", P::U64));
    r.add({.name = name,
           .family = "data files",
           .args = std::move(args),
           .results = {Type::Str},
           .summary = summary,
           .prepare = prepare,
           .table_pick = kRowPick});
  };
  const auto counter = [&](std::string_view name, std::string_view summary,
                           std::shared_ptr<const Prepared> (*prepare)(const std::vector<Value>&)) {
    r.add({.name = name,
           .family = "data files",
           .args = {konst("filename", P::Str)},
           .results = {Type::U64},
           .summary = summary,
           .prepare = prepare,
           .eval = [](Call& c) { c.set_u64(c.prepared().u64s.at(0)); }});
  };
  picker("csv_field", {konst("filename", P::Str), konst("column", P::Str)},
         "Column `column` (a header name, or an index \"0\", \"1\", ...) of data row ordinal "
         "mod n of a CSV file (RFC 4180 quoting; the first record is the header; every later "
         "record a row, a blank one too), trimmed.",
         csv_column);
  picker("csv_row", {konst("filename", P::Str)},
         "Data row ordinal mod n of a CSV file as written (quotes and quoted line breaks kept; "
         "the header and blank records skipped).",
         csv_rows);
  counter("csv_row_count", "How many data rows csv_row picks from (may be 0).",
          [](const std::vector<Value>& p) {
            return count_of(csv_data_rows("csv_row_count", p[0].as_str()));
          });
  picker("jsonl_field", {konst("filename", P::Str), konst("path", P::Str)},
         "The value at dot path `path` (object keys, array indexes) of line ordinal mod n of a "
         "JSON Lines file (blank lines skipped): a string as its text, null or a missing step "
         "empty, anything else as compact JSON.",
         jsonl_field);
  picker("jsonl_row", {konst("filename", P::Str)},
         "Line ordinal mod n of a JSON Lines file as written (blank lines skipped).", jsonl_rows);
  picker("file_line_at", {konst("filename", P::Str)},
         "Line ordinal mod n of a text file (LF or CR LF ends, blank lines included).", text_lines);
  counter("jsonl_row_count", "How many lines jsonl_row picks from (may be 0).",
          [](const std::vector<Value>& p) {
            return count_of(jsonl_lines("jsonl_row_count", p[0].as_str()));
          });
}

}  // namespace polyrt::nodes
