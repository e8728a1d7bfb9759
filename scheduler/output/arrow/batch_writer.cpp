#include "scheduler/output/arrow/batch_writer.hpp"

#include <arrow/io/memory.h>
#include <arrow/ipc/api.h>

#include "scheduler/output/arrow/arrow_columns.hpp"

namespace polyrt::scheduler::arrow_output {

namespace {

// Appends to a string (encode's bytes).
class StringStream final : public arrow::io::OutputStream {
 public:
  explicit StringStream(std::string& out) : out_(out), start_(out.size()) {}
  arrow::Status Close() override {
    closed_ = true;
    return arrow::Status::OK();
  }
  bool closed() const override { return closed_; }
  arrow::Result<int64_t> Tell() const override { return (int64_t)(out_.size() - start_); }
  arrow::Status Write(const void* data, int64_t bytes) override {
    out_.append(static_cast<const char*>(data), (size_t)bytes);
    return arrow::Status::OK();
  }

 private:
  std::string& out_;
  size_t start_;
  bool closed_ = false;
};

}  // namespace

arrow::Status SinkStream::Write(const void* data, int64_t bytes) {
  try {
    sink_.write(std::string_view(static_cast<const char*>(data), (size_t)bytes));
  } catch (const std::exception& e) {
    error_ = std::current_exception();
    return arrow::Status::IOError(e.what());
  }
  position_ += bytes;
  return arrow::Status::OK();
}

arrow::Compression::type arrow_codec(const std::string& codec) {
  if (codec == "none") return arrow::Compression::UNCOMPRESSED;
  if (codec == "snappy") return arrow::Compression::SNAPPY;
  if (codec == "gzip") return arrow::Compression::GZIP;
  if (codec == "zstd") return arrow::Compression::ZSTD;
  throw OutputError("the Arrow module knows no codec '" + codec + "'");
}

BatchWriter::BatchWriter(const ColumnarSpec& spec, ByteSink& sink)
    : spec_(spec), schema_(arrow_schema(spec)), stream_(sink) {}

void BatchWriter::encode(const ColumnChunk& chunk, std::string& bytes) const {
  const std::shared_ptr<arrow::RecordBatch> batch = record_batch(schema_, spec_, chunk);
  // The message's size first (a pass over the buffers' sizes, no bytes), so
  // that the string grows once instead of copying itself as it doubles.
  int64_t size = 0;
  check(arrow::ipc::GetRecordBatchSize(*batch, &size), "Arrow could not size rows");
  bytes.reserve(bytes.size() + (size_t)size + 64);  // and the metadata's padding
  StringStream out(bytes);
  int32_t metadata = 0;
  int64_t body = 0;
  check(arrow::ipc::WriteRecordBatch(*batch, 0, &out, &metadata, &body,
                                     arrow::ipc::IpcWriteOptions::Defaults()),
        "Arrow could not serialize rows");
}

std::shared_ptr<arrow::RecordBatch> BatchWriter::read_back(
    std::shared_ptr<arrow::Buffer> message) const {
  arrow::io::BufferReader reader(std::move(message));
  return value_or_throw(arrow::ipc::ReadRecordBatch(
                            schema_, nullptr, arrow::ipc::IpcReadOptions::Defaults(), &reader),
                        "Arrow could not read back rows");
}

}  // namespace polyrt::scheduler::arrow_output
