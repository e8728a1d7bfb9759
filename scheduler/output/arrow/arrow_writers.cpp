// The Arrow module's writers: Parquet (parquet::arrow::FileWriter) and the
// Arrow IPC file and stream formats (arrow::ipc), fed in coordinate order.
// encode() runs on polyrt's workers and turns a chunk into one Arrow IPC
// record-batch message (the chunk's columns as Arrow arrays, serialized);
// write() reads that message back without a copy and hands the batch to the
// format's writer, whose bytes go to the host's ByteSink (an atomic file or
// standard output).
#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/api.h>
#include <arrow/util/compression.h>
#include <parquet/arrow/writer.h>
#include <parquet/properties.h>

#include <algorithm>
#include <unordered_set>

#include "polyrt/error.hpp"
#include "scheduler/output/arrow/arrow_columns.hpp"

namespace polyrt::scheduler::arrow_output {

namespace {

void check(const arrow::Status& status, const std::string& what) {
  if (!status.ok()) throw OutputError(what + ": " + status.ToString());
}

template <typename T>
T value_or_throw(arrow::Result<T> result, const std::string& what) {
  check(result.status(), what);
  return std::move(result).ValueUnsafe();
}

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

// Writes to the host's sink; its errors (a full disk, a closed pipe) reach
// the format's writer as a failed Status, and the user as OutputError.
class SinkStream final : public arrow::io::OutputStream {
 public:
  explicit SinkStream(ByteSink& sink) : sink_(sink) {}
  arrow::Status Close() override {
    closed_ = true;
    return arrow::Status::OK();
  }
  bool closed() const override { return closed_; }
  arrow::Result<int64_t> Tell() const override { return position_; }
  arrow::Status Write(const void* data, int64_t bytes) override {
    try {
      sink_.write(std::string_view(static_cast<const char*>(data), (size_t)bytes));
    } catch (const std::exception& e) {
      error_ = std::current_exception();
      return arrow::Status::IOError(e.what());
    }
    position_ += bytes;
    return arrow::Status::OK();
  }
  // The sink's own exception, when a write failed: it says more than Arrow's
  // wrapping of it (and keeps its type: an interruption stays one).
  void rethrow_sink_error() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  ByteSink& sink_;
  int64_t position_ = 0;
  bool closed_ = false;
  std::exception_ptr error_;
};

// Arrow's codec of the one the spec names (columnar_format.cpp lets each
// format name only those it takes).
arrow::Compression::type arrow_codec(const std::string& codec) {
  if (codec == "none") return arrow::Compression::UNCOMPRESSED;
  if (codec == "snappy") return arrow::Compression::SNAPPY;
  if (codec == "gzip") return arrow::Compression::GZIP;
  if (codec == "zstd") return arrow::Compression::ZSTD;
  throw OutputError("the Arrow module knows no codec '" + codec + "'");
}

// The columnar writer common to the formats: a chunk as an IPC message.
class BatchWriter : public ColumnarWriter {
 public:
  BatchWriter(const ColumnarSpec& spec, ByteSink& sink)
      : spec_(spec), schema_(arrow_schema(spec)), stream_(sink) {}

  void encode(const ColumnChunk& chunk, std::string& bytes) const override {
    const std::shared_ptr<arrow::RecordBatch> batch = record_batch(schema_, spec_, chunk);
    StringStream out(bytes);
    int32_t metadata = 0;
    int64_t body = 0;
    check(arrow::ipc::WriteRecordBatch(*batch, 0, &out, &metadata, &body,
                                       arrow::ipc::IpcWriteOptions::Defaults()),
          "Arrow could not serialize rows");
  }

  void write(std::string_view bytes) override {
    // The message, read back in place: the batch's buffers point into `bytes`.
    arrow::io::BufferReader reader(std::make_shared<arrow::Buffer>(
        reinterpret_cast<const uint8_t*>(bytes.data()), (int64_t)bytes.size()));
    const std::shared_ptr<arrow::RecordBatch> batch =
        value_or_throw(arrow::ipc::ReadRecordBatch(schema_, nullptr,
                                                   arrow::ipc::IpcReadOptions::Defaults(), &reader),
                       "Arrow could not read back rows");
    guarded([&] { write_batch(*batch); });
  }

  void finish() override {
    guarded([&] { close(); });
  }

 protected:
  virtual void write_batch(const arrow::RecordBatch& batch) = 0;
  virtual void close() = 0;

  // Runs `step`; a sink failure surfaces as the sink's own exception.
  template <typename F>
  void guarded(F&& step) {
    try {
      step();
    } catch (const OutputError&) {
      stream_.rethrow_sink_error();
      throw;
    }
  }

  ColumnarSpec spec_;
  std::shared_ptr<arrow::Schema> schema_;
  SinkStream stream_;
};

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

 private:
  void write_batch(const arrow::RecordBatch& batch) override {
    check(writer_->WriteRecordBatch(batch), "Arrow could not write rows");
  }
  void close() override { check(writer_->Close(), "Arrow could not finish the file"); }

  std::shared_ptr<arrow::ipc::RecordBatchWriter> writer_;
};

// Whether a column is worth a dictionary, judged on the first batch's first
// rows: few distinct values (flags, codes, names). Trying one on unique ids
// and hashes costs Parquet writers about half their time before they fall back.
bool few_distinct(const arrow::Array& column) {
  const int64_t rows = std::min<int64_t>(column.length(), 65536);
  if (rows == 0 || column.null_count() == column.length()) return false;
  const arrow::DataType& type = *column.type();
  size_t distinct = 0;
  if (type.id() == arrow::Type::LARGE_STRING || type.id() == arrow::Type::LARGE_BINARY) {
    const auto& text = static_cast<const arrow::LargeBinaryArray&>(column);
    std::unordered_set<std::string_view> seen;
    for (int64_t r = 0; r < rows; ++r) seen.insert(text.GetView(r));
    distinct = seen.size();
  } else if (arrow::is_fixed_width(type.id()) && type.id() != arrow::Type::BOOL) {
    const int width = type.byte_width();
    const uint8_t* values = column.data()->GetValues<uint8_t>(1, 0) + column.offset() * width;
    std::unordered_set<uint64_t> seen;
    for (int64_t r = 0; r < rows; ++r) {
      uint64_t word = 0;
      // A decimal128's low word: its high one is the sign's extension.
      std::memcpy(&word, values + r * width, (size_t)std::min(width, 8));
      seen.insert(word);
    }
    distinct = seen.size();
  } else {
    return false;  // bool (one bit a value already), vectors
  }
  return (int64_t)distinct * 4 <= rows;
}

class ParquetWriter final : public BatchWriter {
 public:
  ParquetWriter(const ColumnarSpec& spec, ByteSink& sink) : BatchWriter(spec, sink) {}

 private:
  // The file starts with the first batch, which decides the dictionaries.
  void start(const arrow::RecordBatch* first) {
    parquet::WriterProperties::Builder builder;
    builder.compression(arrow_codec(spec_.codec))
        ->max_row_group_length((int64_t)spec_.row_group_rows)
        ->enable_statistics()
        ->enable_store_decimal_as_integer()  // INT32/INT64 for precisions up to 18
        ->disable_dictionary()
        ->created_by("polyrt (parquet-cpp-arrow " + std::string(ARROW_VERSION_STRING) + ")");
    if (spec_.level > 0) builder.compression_level(spec_.level);
    for (int k = 0; first && k < first->num_columns(); ++k) {
      if (few_distinct(*first->column(k))) builder.enable_dictionary(spec_.names[(size_t)k]);
    }
    const auto arrow_properties =
        parquet::ArrowWriterProperties::Builder().set_use_threads(true)->store_schema()->build();
    writer_ = value_or_throw(
        parquet::arrow::FileWriter::Open(
            *schema_, arrow::default_memory_pool(),
            std::shared_ptr<arrow::io::OutputStream>(&stream_, [](arrow::io::OutputStream*) {}),
            builder.build(), arrow_properties),
        "Parquet could not start the file");
  }
  void write_batch(const arrow::RecordBatch& batch) override {
    if (!writer_) start(&batch);
    check(writer_->WriteRecordBatch(batch), "Parquet could not write rows");
  }
  void close() override {
    if (!writer_) start(nullptr);
    check(writer_->Close(), "Parquet could not finish the file");
  }

  std::unique_ptr<parquet::arrow::FileWriter> writer_;
};

}  // namespace

}  // namespace polyrt::scheduler::arrow_output

extern "C" __attribute__((visibility("default"))) polyrt::scheduler::ColumnarWriter*
polyrt_open_columnar_writer_v2(const polyrt::scheduler::ColumnarSpec* spec,
                               polyrt::scheduler::ByteSink* sink, std::string* error) {
  using namespace polyrt::scheduler::arrow_output;
  try {
    if (spec->format == "parquet") return new ParquetWriter(*spec, *sink);
    if (spec->format == "arrow") return new IpcWriter(*spec, *sink, true);
    if (spec->format == "arrows") return new IpcWriter(*spec, *sink, false);
    *error = "the Arrow module writes parquet, arrow and arrows, not '" + spec->format + "'";
  } catch (const std::exception& e) {
    *error = e.what();
  }
  return nullptr;
}
