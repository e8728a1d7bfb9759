// polyrt's columns as Arrow arrays (inside the Arrow module only): each
// type at its real width and sign, text as large_utf8 (invalid UTF-8, which
// a Latin-1 literal can make, repaired to U+FFFD as Python's to_arrow does),
// bytes as large_binary, a vector column as a fixed_size_list of its
// elements when its dimension is fixed, else a large_list, a logical type as
// Arrow's (timestamp[ms|us, UTC], date32, decimal128(p, s)), and a column
// that is None on every row as nulls.
#pragma once

#include <arrow/api.h>

#include <memory>

#include "scheduler/output/columnar_module.hpp"

namespace polyrt::scheduler::arrow_output {

std::shared_ptr<arrow::Schema> arrow_schema(const ColumnarSpec& spec);

// The chunk's rows as a record batch of `schema`. Numeric columns of 8-byte
// words are wrapped, not copied: the batch lives no longer than the chunk.
// OutputError for a vector row whose dimension is not the column's.
std::shared_ptr<arrow::RecordBatch> record_batch(const std::shared_ptr<arrow::Schema>& schema,
                                                 const ColumnarSpec& spec,
                                                 const ColumnChunk& chunk);

}  // namespace polyrt::scheduler::arrow_output
