// The Arrow module's entry point and its Arrow IPC writer (arrow::ipc, the
// file and the stream formats); Parquet is parquet_writer.cpp's.
#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/api.h>

#include "polyrt/error.hpp"
#include "scheduler/output/arrow/batch_writer.hpp"

namespace polyrt::scheduler::arrow_output {

namespace {

// The Arrow IPC file (random access, a footer) or stream format.
class IpcWriter final : public BatchWriter {
 public:
  IpcWriter(const ColumnarSpec& spec, ByteSink& sink, bool file) : BatchWriter(spec, sink) {
    auto options = arrow::ipc::IpcWriteOptions::Defaults();
    // The body compression --compress asks for (it was ignored: the file
    // came out plain whatever the codec).
    if (const arrow::Compression::type codec = arrow_codec(spec.codec);
        codec != arrow::Compression::UNCOMPRESSED) {
      options.codec = spec.level > 0 ? value_or_throw(arrow::util::Codec::Create(codec, spec.level),
                                                      "Arrow has no such codec")
                                     : value_or_throw(arrow::util::Codec::Create(codec),
                                                      "Arrow has no such codec");
    }
    writer_ = file ? value_or_throw(arrow::ipc::MakeFileWriter(&stream_, schema_, options),
                                    "Arrow could not start the file")
                   : value_or_throw(arrow::ipc::MakeStreamWriter(&stream_, schema_, options),
                                    "Arrow could not start the stream");
  }

  void write(std::string_view bytes) override {
    // The message, read back in place: the batch's buffers point into `bytes`.
    const std::shared_ptr<arrow::RecordBatch> batch = read_back(std::make_shared<arrow::Buffer>(
        reinterpret_cast<const uint8_t*>(bytes.data()), (int64_t)bytes.size()));
    guarded([&] { check(writer_->WriteRecordBatch(*batch), "Arrow could not write rows"); });
  }

  void finish() override {
    guarded([&] { check(writer_->Close(), "Arrow could not finish the file"); });
  }

 private:
  std::shared_ptr<arrow::ipc::RecordBatchWriter> writer_;
};

}  // namespace

}  // namespace polyrt::scheduler::arrow_output

extern "C" __attribute__((visibility("default"))) polyrt::scheduler::ColumnarWriter*
polyrt_open_columnar_writer_v3(const polyrt::scheduler::ColumnarSpec* spec,
                               polyrt::scheduler::ByteSink* sink, std::string* error) {
  using namespace polyrt::scheduler::arrow_output;
  try {
    if (spec->format == "parquet") return open_parquet_writer(*spec, *sink).release();
    if (spec->format == "arrow") return new IpcWriter(*spec, *sink, true);
    if (spec->format == "arrows") return new IpcWriter(*spec, *sink, false);
    *error = "the Arrow module writes parquet, arrow and arrows, not '" + spec->format + "'";
  } catch (const std::exception& e) {
    *error = e.what();
  }
  return nullptr;
}
