// printf's compiled format (string interpolation compiles to printf too) and
// the columnar forms of printf and str_concat: a whole chunk of rows, each
// value's writer chosen once per chunk from its spec and its argument's type.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "nodes/column_call.hpp"
#include "rtlib/text.hpp"

namespace polyrt::nodes {

struct ParsedFormat {
  std::vector<rt::FormatSegment> segments;
  // Every segment's literal, back to back, then columns::kPadding bytes: the
  // columnar form copies short literals as one fixed move.
  std::string literals;
  std::vector<size_t> literal_offsets;  // per segment

  // Parses `format`; returns false and sets `error` as rt::parse_format does
  // (`escapes`: a tile's format, which may escape its placeholders).
  bool parse(std::string_view format, std::string& error, bool escapes = false);
};

// The format a printf node prepared.
const ParsedFormat& format_of(const Prepared& prepared);

// Output 0 of the chunk: each row formatted from the inputs, byte for byte as
// printf's row form writes it (the same rtlib writers).
void write_printf_columns(const ParsedFormat& format, const ColumnCall& call);
// Output 0 of the chunk: each row the Display forms of the inputs one after
// another, as str_concat's row form writes them.
void write_concat_columns(const ColumnCall& call);

}  // namespace polyrt::nodes
