// The text row formats (CSV, TSV, JSON Lines) as output formats: rows
// formatted on the workers (row_format.hpp), written in coordinate order to
// standard output, a device or pipe, or a regular file replaced atomically
// (OutputSink).
#pragma once

#include "scheduler/output/output_format.hpp"

namespace polyrt::scheduler {

class TextFormat final : public SingleFileFormat {
 public:
  explicit constexpr TextFormat(RowFormat rows) : rows_(rows) {}
  std::string_view name() const override { return row_format_name(rows_); }
  std::optional<RowFormat> text_rows() const override { return rows_; }
  std::vector<Codec> codecs() const override { return {Codec::None, Codec::Gzip, Codec::Zstd}; }
  bool compressed_as_a_whole() const override { return true; }
  // Writes the header line (for formats that have one) at once.
  std::unique_ptr<FormatWriter> open(const OutputPlace& place,
                                     const OutputColumns& columns) const override;

 private:
  RowFormat rows_;
};

}  // namespace polyrt::scheduler
