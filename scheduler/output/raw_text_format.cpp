#include "scheduler/output/raw_text_format.hpp"

#include "polyrt/error.hpp"
#include "scheduler/output/output_sink.hpp"

namespace polyrt::scheduler {

namespace {

class RawTextWriter final : public FormatWriter {
 public:
  RawTextWriter(const OutputPlace& place, Compression compression) : sink_(place, compression) {}
  void encode(const ColumnChunk& chunk, std::string& bytes) const override {
    const ColumnView& column = chunk.columns[0];
    if (column.is_none) {
      bytes.append(chunk.rows, '\n');  // None is empty text
      return;
    }
    bytes.reserve(bytes.size() + (size_t)(column.offsets[chunk.rows] - column.offsets[0]) +
                  chunk.rows);
    for (uint64_t r = 0; r < chunk.rows; ++r) {
      bytes += column.text(r);
      bytes.push_back('\n');
    }
  }
  void write(std::string_view bytes) override { sink_.write(bytes); }
  void commit() override { sink_.commit(); }
  bool keeps_partial_output() const override { return sink_.keeps_partial_output(); }

 private:
  OutputSink sink_;
};

}  // namespace

std::unique_ptr<FormatWriter> RawTextFormat::open(const OutputPlace& place,
                                                  const OutputColumns& columns) const {
  if (columns.names.size() != 1 || !is_text(columns.types[0])) {
    std::string what;
    for (size_t k = 0; k < columns.names.size(); ++k) {
      what += (k ? ", " : "") + columns.names[k] + " (" + std::string(type_name(columns.types[k])) +
              ")";
    }
    throw OutputError("--format text writes the rows of one text output as they are, not " +
                      (what.empty() ? std::string("no output") : what) +
                      "; name one str output with --outputs (or use csv, tsv or jsonl)");
  }
  return std::make_unique<RawTextWriter>(place, columns.compression.value_or(Compression{}));
}

}  // namespace polyrt::scheduler
