// A bulk output format, as `polyrt run --format` names it: its files'
// extension, whether row-by-row (per-state) jobs can write it, and a writer
// that a job feeds chunk by chunk. The formats are registered in one table
// (output_formats.cpp), as DuckDB registers its copy functions: a new
// format is one file implementing OutputFormat and one line there.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polyrt/batch.hpp"
#include "scheduler/encoding/row_format.hpp"
#include "scheduler/output/compression.hpp"
#include "scheduler/output/output_target.hpp"

namespace polyrt::scheduler {

// The columns a job writes, and its rows.
struct OutputColumns {
  std::vector<std::string> names;
  std::vector<Type> types;
  uint64_t first = 0;  // the first row's coordinate
  uint64_t rows = 0;
  // The codec (OutputFormat::codecs); nullopt: the format's default.
  std::optional<Compression> compression;
  // Parquet's rows per row group; 0: ColumnarFormat::kRowGroupRows.
  uint64_t row_group_rows = 0;
  // Per column: a vector output's fixed dimension, when the job knows it
  // (BatchEvaluator::output_dimensions); empty when it does not.
  std::vector<std::optional<uint64_t>> dimensions;
  // Per column: its logical type (Program::output_logical_type); empty: none.
  std::vector<LogicalType> logical_types;
  // Per column: whether it may be null (Program::output_nullable); empty: none.
  std::vector<bool> nullable;
};

// One job's output, from open to commit. Destroyed without commit(), it
// leaves nothing where its target was to appear.
class FormatWriter {
 public:
  virtual ~FormatWriter() = default;
  // Runs on the workers, for several chunks at once: the chunk's rows
  // appended to `bytes` (a text format), or written at their place in the
  // target (a format of fixed-width columns, which leaves `bytes` empty).
  virtual void encode(const ColumnChunk& chunk, std::string& bytes) const = 0;
  // Runs in coordinate order: the bytes encode() made (or a slice of them).
  virtual void write(std::string_view bytes) = 0;
  // write() of the whole of `bytes`, which the writer may keep (leaving the
  // string empty): a writer that holds rows past the call (Parquet's row
  // groups) then needs no copy of them.
  virtual void write_taking(std::string& bytes) { write(bytes); }
  // The job succeeded: the target appears whole (renamed into place).
  virtual void commit() = 0;
  // Whether what was written stays if the job stops before commit(): a
  // stream's bytes (standard output, a pipe, a device) do; a file or a
  // directory written atomically does not.
  virtual bool keeps_partial_output() const { return false; }
};

class OutputFormat {
 public:
  virtual ~OutputFormat() = default;
  // The name --format takes, also its files' extension.
  virtual std::string_view name() const = 0;
  // The text rows a per-state job formats value by value; none for a
  // format that only the batch tier writes.
  virtual std::optional<RowFormat> text_rows() const = 0;
  // The codecs OutputColumns::compression may name, first the default
  // (the text formats: none, gzip, zstd, over their bytes as a whole;
  // Parquet: its pages'); none: the format is not compressed.
  virtual std::vector<Codec> codecs() const { return {}; }
  // Whether its file's name takes the codec's suffix (.csv.gz): a codec
  // over its bytes as a whole, not inside the format.
  virtual bool compressed_as_a_whole() const { return false; }
  // Whether its target is a directory of files (never replaced: an existing
  // non-empty one is refused) rather than one file written atomically.
  virtual bool writes_directory() const = 0;
  // Whether it must know OutputColumns::rows when it opens (a header that
  // holds the row count), so that rows whose count is known only once they
  // are made cannot be written to it.
  virtual bool needs_row_count() const { return false; }
  // The files a written target consists of, in order (a manifest sums them).
  virtual std::vector<std::string> files_of(const std::string& target,
                                            const std::vector<std::string>& columns) const = 0;
  // A writer of `columns` to `place`. Throws OutputError when the target
  // cannot be written or the format cannot hold a column.
  virtual std::unique_ptr<FormatWriter> open(const OutputPlace& place,
                                             const OutputColumns& columns) const = 0;
};

// A format whose target is one file (or standard output, a device or a
// pipe).
class SingleFileFormat : public OutputFormat {
 public:
  bool writes_directory() const final { return false; }
  std::vector<std::string> files_of(const std::string& target,
                                    const std::vector<std::string>&) const final {
    return {target};
  }
};

// The registered format of that name, or null.
const OutputFormat* find_output_format(std::string_view name);
// Every registered format's name, in order ("csv, tsv, jsonl, npy").
std::string output_format_names();

}  // namespace polyrt::scheduler
