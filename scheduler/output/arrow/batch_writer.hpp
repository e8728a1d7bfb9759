// What the Arrow module's writers share (inside the module only): Arrow's
// failures as OutputError, the streams they write through, and the columnar
// writer's first stage. encode() runs on polyrt's workers and turns a chunk
// into one Arrow IPC record-batch message (the chunk's columns as Arrow
// arrays, serialized); the formats' write() reads that message back and
// writes it in coordinate order. Their bytes go to the host's ByteSink (an
// atomic file or standard output).
#pragma once

#include <arrow/api.h>
#include <arrow/io/interfaces.h>
#include <arrow/util/compression.h>

#include <exception>
#include <memory>
#include <string>
#include <string_view>

#include "polyrt/error.hpp"
#include "scheduler/output/columnar_module.hpp"

namespace polyrt::scheduler::arrow_output {

inline void check(const arrow::Status& status, const std::string& what) {
  if (!status.ok()) throw OutputError(what + ": " + status.ToString());
}

template <typename T>
T value_or_throw(arrow::Result<T> result, const std::string& what) {
  check(result.status(), what);
  return std::move(result).ValueUnsafe();
}

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
  arrow::Status Write(const void* data, int64_t bytes) override;
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
arrow::Compression::type arrow_codec(const std::string& codec);

// The columnar writers' common part: a chunk as an IPC message, and the
// message read back as a batch.
class BatchWriter : public ColumnarWriter {
 public:
  BatchWriter(const ColumnarSpec& spec, ByteSink& sink);

  void encode(const ColumnChunk& chunk, std::string& bytes) const override;

 protected:
  // The batch an encoded message holds; its buffers point into `message`,
  // which must outlive it.
  std::shared_ptr<arrow::RecordBatch> read_back(std::shared_ptr<arrow::Buffer> message) const;

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

// The Parquet writer (parquet_writer.cpp).
std::unique_ptr<ColumnarWriter> open_parquet_writer(const ColumnarSpec& spec, ByteSink& sink);

}  // namespace polyrt::scheduler::arrow_output
