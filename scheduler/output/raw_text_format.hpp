// `--format text`: the rows of one text output (a tile's document, an
// emitted row, any str) as they are, one per line: nothing quoted or
// escaped and no header, so a document reaches a file or a pipe byte for
// byte (a text holding a newline spans lines). Batch tier only.
#pragma once

#include "scheduler/output/output_format.hpp"

namespace polyrt::scheduler {

class RawTextFormat final : public SingleFileFormat {
 public:
  std::string_view name() const override { return "text"; }
  std::optional<RowFormat> text_rows() const override { return std::nullopt; }
  std::vector<Codec> codecs() const override { return {Codec::None, Codec::Gzip, Codec::Zstd}; }
  bool compressed_as_a_whole() const override { return true; }
  // Throws OutputError unless `columns` is one text output.
  std::unique_ptr<FormatWriter> open(const OutputPlace& place,
                                     const OutputColumns& columns) const override;
};

}  // namespace polyrt::scheduler
