// Text row formats of bulk output (CSV, TSV, JSON Lines).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "batch/prepared_batch.hpp"
#include "batch/row_encoding.hpp"
#include "polyrt/batch.hpp"
#include "polyrt/value.hpp"
#include "rtlib/row_fields.h"

namespace polyrt::scheduler {

// Every format's name, for messages ("csv, tsv, jsonl"); one format's is
// row_format_name (polyrt/batch.hpp). The field writers are the rtlib's
// (rtlib/row_fields.h), which GPU kernels share.
std::string row_format_names();

// The header line (with its newline) for formats that have one, else "".
std::string header_line(RowFormat format, const std::vector<std::string>& columns);

// Appends one value as a field of `format` (strings quoted/escaped as the
// format needs, f64 as the shortest round-trip text). A None value is refused
// with EvalError naming the column and coordinate.
// One field of a row; a value of an output with a logical type is written as
// that type (ISO 8601, a plain decimal). None is a null field (empty; JSON's
// null) in a nullable output, else an EvalError (an unset extern).
void append_field(std::string& out, RowFormat format, const std::string& column, const Value& value,
                  uint64_t coordinate, LogicalType logical = {}, bool nullable = false);

// Appends every row of a batch chunk (no column may be None: callers check
// first). Numbers are written straight from the words (f64 in std::to_chars's
// shortest text, by rt::write_shortest_finite);
// a str column is copied field by field with memcpy when none of its fields in
// the chunk needs quoting or escaping (checked once per column per chunk),
// and escaped as append_field does otherwise: the bytes are the same.
void append_rows(std::string& out, RowFormat format, const std::vector<std::string>& columns,
                 const ColumnChunk& chunk);

// The rows of `format` as a back end encodes them where it made a chunk
// (batch::RowEncoding): the same bytes as append_rows. `batch`'s scalar
// outputs are encoded here, once; no output may be None.
batch::RowEncoding row_encoding(RowFormat format, const std::vector<std::string>& columns,
                                const std::vector<LogicalType>& logical_types,
                                const batch::PreparedBatch& batch);

// `text` as a JSON string, quoted and escaped as JSON Lines fields are.
std::string json_string(std::string_view text);

// The EvalError of an output that is None at `coordinate`, naming the
// externs that have neither a value nor a default (what can make it None).
EvalError none_output_error(const std::string& column, uint64_t coordinate,
                            const std::vector<std::string>& unset_externs = {});

// Separators around fields.
void begin_row(std::string& out, RowFormat format);
void field_separator(std::string& out, RowFormat format);
void end_row(std::string& out, RowFormat format);

}  // namespace polyrt::scheduler
