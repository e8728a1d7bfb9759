#include "scheduler/output/text_format.hpp"

#include "scheduler/output/output_sink.hpp"

namespace polyrt::scheduler {

namespace {

class TextWriter final : public FormatWriter {
 public:
  TextWriter(RowFormat rows, const OutputPlace& place, const OutputColumns& columns)
      : rows_(rows),
        columns_(columns.names),
        sink_(place, columns.compression.value_or(Compression{})) {
    sink_.write(header_line(rows_, columns_));
  }
  void encode(const ColumnChunk& chunk, std::string& bytes) const override {
    append_rows(bytes, rows_, columns_, chunk);
  }
  void write(std::string_view bytes) override { sink_.write(bytes); }
  void commit() override { sink_.commit(); }
  bool keeps_partial_output() const override { return sink_.keeps_partial_output(); }

 private:
  RowFormat rows_;
  std::vector<std::string> columns_;
  OutputSink sink_;
};

}  // namespace

std::unique_ptr<FormatWriter> TextFormat::open(const OutputPlace& place,
                                               const OutputColumns& columns) const {
  return std::make_unique<TextWriter>(rows_, place, columns);
}

}  // namespace polyrt::scheduler
