// The seam between polyrt and its Arrow module (libpolyrt_arrow.so), which
// writes Parquet and Arrow IPC with Apache Arrow's own C++ libraries. The
// module is loaded only when such a format is asked for, so polyrt builds,
// installs and runs without Arrow; no Arrow header appears on this side.
// The module is built with this project's headers and the two polyrt
// functions it calls compiled in, so the command and Python's extension
// module (write_parquet) load it alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "polyrt/batch.hpp"

namespace polyrt::scheduler {

// Where a columnar writer's bytes go (an OutputSink, through the host).
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void write(std::string_view bytes) = 0;
};

// What to write: the format, its columns, and the format's options.
struct ColumnarSpec {
  std::string format;  // "parquet", "arrow" (IPC file) or "arrows" (IPC stream)
  std::vector<std::string> names;
  std::vector<Type> types;
  std::vector<std::optional<uint64_t>> dimensions;  // a vector column's fixed one
  std::vector<LogicalType> logical_types;           // timestamp, date, decimal, or none
  // Per column: whether it may hold nulls; a column that never does is a
  // non-nullable field (Parquet: a required column, no definition levels).
  std::vector<bool> nullable;
  std::string codec;            // parquet: none, snappy, gzip, zstd
  int level = 0;                // the codec's level; 0: its default
  uint64_t row_group_rows = 0;  // parquet rows per row group
};

// A format's writer: encode() on the workers (thread-safe), write() in
// coordinate order, finish() once after the last write. Each throws
// std::exception (an OutputError) with a message for the user.
class ColumnarWriter {
 public:
  virtual ~ColumnarWriter() = default;
  virtual void encode(const ColumnChunk& chunk, std::string& bytes) const = 0;
  virtual void write(std::string_view bytes) = 0;
  // FormatWriter::write_taking's: the writer may keep `bytes`.
  virtual void write_taking(std::string& bytes) { write(bytes); }
  virtual void finish() = 0;
};

// The module's one exported function, by this name: a writer to `sink`
// (which outlives it), or null with `error` set.
inline constexpr const char* kOpenColumnarWriter = "polyrt_open_columnar_writer_v3";
using OpenColumnarWriter = ColumnarWriter* (*)(const ColumnarSpec* spec, ByteSink* sink,
                                               std::string* error);

}  // namespace polyrt::scheduler
