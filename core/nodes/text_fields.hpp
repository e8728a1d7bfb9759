// How the text nodes render their arguments, shared by their row forms
// (Values) and their columnar forms (chunk columns): a value is seen as a
// FieldValue either way, and every rendering goes through the rtlib writers.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "nodes/column_call.hpp"
#include "rtlib/text.hpp"

namespace polyrt::nodes {

// A present value as the text nodes read it: its type and word, or its text.
struct FieldValue {
  Type type = Type::U64;
  uint64_t word = 0;
  std::string_view text;
};

FieldValue field_of(const Value& v);
inline FieldValue field_of(const ColumnInput& in, uint64_t row) {
  if (is_payload(in.type)) return {in.type, 0, in.text(row)};
  return {in.type, in.word(row), {}};
}

// The Display form (str_concat, `as str`): u64 decimal, f64 Display, str and
// json as is, bytes as lowercase hex, a vector as a JSON array of its
// elements, bool true/false.
size_t display_bound(const FieldValue& v);
char* write_display(char* p, const FieldValue& v);

// Text under a tile's escape (rt::TextEscape; room: rt::escaped_bound).
char* write_escaped(char* p, rt::TextEscape escape, std::string_view text);

// A printf placeholder: the value rendered per its spec (radix, precision),
// then padded to its width; a str under an escape, escaped.
size_t field_bound(const rt::FormatSegment& spec, const FieldValue& v);
char* write_field(char* p, const rt::FormatSegment& spec, const FieldValue& v);

// A whole printf over `arg_at(k)`, the k-th argument's FieldValue, making
// room through `ensure` (see rt::render_text).
template <typename ArgAt, typename Ensure>
char* write_format(char* p, const std::vector<rt::FormatSegment>& segments, const ArgAt& arg_at,
                   const Ensure& ensure) {
  size_t k = 0;
  for (const rt::FormatSegment& seg : segments) {
    p = ensure(p, seg.literal.size());
    p = std::copy(seg.literal.begin(), seg.literal.end(), p);
    if (!seg.placeholder) continue;
    const FieldValue v = arg_at(k++);
    p = ensure(p, field_bound(seg, v));
    p = write_field(p, seg, v);
  }
  return p;
}

// The Display forms of `count` arguments, one after another (str_concat).
template <typename ArgAt, typename Ensure>
char* write_concat(char* p, size_t count, const ArgAt& arg_at, const Ensure& ensure) {
  for (size_t k = 0; k < count; ++k) {
    const FieldValue v = arg_at(k);
    p = ensure(p, display_bound(v));
    p = write_display(p, v);
  }
  return p;
}

// A text node's columnar form: `write(row, p, ensure)` writes row `row` of the
// chunk at p and returns its end; each row becomes one row of output 0.
template <typename Write>
void for_each_text_row(const ColumnCall& c, const Write& write) {
  columns::StringColumn& out = *c.outputs[0].text;
  const auto ensure = [&out](char* p, size_t n) { return out.ensure(p, n); };
  char* p = out.cursor();
  for (uint64_t r = 0; r < c.rows; ++r) {
    p = write(r, p, ensure);
    out.finish_row(p);
  }
}

// A row form's one string output, written by the same writers.
template <typename Write>
Value text_value(const Write& write) {
  return Value::str(rt::render_text(write));
}

}  // namespace polyrt::nodes
