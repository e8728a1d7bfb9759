// Parquet on every core. The writer thread cuts the rows, in coordinate
// order, into row groups of spec.row_group_rows from the first row; each row
// group is encoded by a task on Arrow's CPU pool (dictionaries, statistics,
// compression: nearly all of Parquet's cost) into a one-row-group file in
// memory, and ParquetAssembly appends them to the output in order. Row
// groups are cut at fixed rows, so they and their statistics never depend
// on the job's chunks, threads or devices; within one, Arrow cuts pages by
// their bytes, and the tests check that the file's bytes are the same across
// those too (joining a row group's chunks into one batch first, to make that
// certain, cost users.polydat 10-15 % of its Parquet speed).
#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <arrow/util/thread_pool.h>
#include <parquet/arrow/writer.h>
#include <parquet/properties.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <optional>
#include <unordered_set>

#include "polyrt/error.hpp"
#include "scheduler/output/arrow/batch_writer.hpp"
#include "scheduler/output/arrow/parquet_assembly.hpp"

namespace polyrt::scheduler::arrow_output {

namespace {

// Whether a column is worth a dictionary, judged on its first rows: few
// distinct values (flags, codes, names). Trying one on unique ids and hashes
// costs Parquet writers about half their time before they fall back.
bool few_distinct(const arrow::ChunkedArray& column) {
  const int64_t rows = std::min<int64_t>(column.length(), 65536);
  if (rows == 0 || column.null_count() == column.length()) return false;
  const arrow::DataType& type = *column.type();
  const bool text =
      type.id() == arrow::Type::LARGE_STRING || type.id() == arrow::Type::LARGE_BINARY;
  if (!text && (!arrow::is_fixed_width(type.id()) || type.id() == arrow::Type::BOOL)) {
    return false;  // bool (one bit a value already), vectors
  }
  std::unordered_set<std::string_view> texts;
  std::unordered_set<uint64_t> words;
  int64_t seen = 0;
  for (const std::shared_ptr<arrow::Array>& chunk : column.chunks()) {
    const int64_t take = std::min(chunk->length(), rows - seen);
    if (text) {
      const auto& values = static_cast<const arrow::LargeBinaryArray&>(*chunk);
      for (int64_t r = 0; r < take; ++r) texts.insert(values.GetView(r));
    } else {
      const int width = type.byte_width();
      const uint8_t* values = chunk->data()->GetValues<uint8_t>(1, 0) + chunk->offset() * width;
      for (int64_t r = 0; r < take; ++r) {
        uint64_t word = 0;
        // A decimal128's low word: its high one is the sign's extension.
        std::memcpy(&word, values + r * width, (size_t)std::min(width, 8));
        words.insert(word);
      }
    }
    if ((seen += take) == rows) break;
  }
  return (int64_t)(texts.size() + words.size()) * 4 <= rows;
}

// The file's properties, its dictionaries chosen from the first row group.
std::shared_ptr<parquet::WriterProperties> writer_properties(const ColumnarSpec& spec,
                                                             const arrow::Table& first) {
  parquet::WriterProperties::Builder builder;
  builder.compression(arrow_codec(spec.codec))
      ->max_row_group_length((int64_t)spec.row_group_rows)
      ->enable_statistics()
      ->enable_store_decimal_as_integer()  // INT32/INT64 for precisions up to 18
      ->disable_dictionary()
      ->created_by("polyrt (parquet-cpp-arrow " + std::string(ARROW_VERSION_STRING) + ")");
  if (spec.level > 0) builder.compression_level(spec.level);
  for (int k = 0; k < first.num_columns(); ++k) {
    if (few_distinct(*first.column(k))) builder.enable_dictionary(spec.names[(size_t)k]);
  }
  return builder.build();
}

// One row group as a whole Parquet file in memory (none for no rows: the
// schema alone). Runs on Arrow's pool, so it writes on this thread only.
arrow::Result<std::shared_ptr<arrow::Buffer>> encode_row_group(
    const std::shared_ptr<arrow::Table>& rows,
    const std::shared_ptr<parquet::WriterProperties>& properties) {
  try {
    ARROW_ASSIGN_OR_RAISE(auto out, arrow::io::BufferOutputStream::Create());
    ARROW_ASSIGN_OR_RAISE(auto writer,
                          parquet::arrow::FileWriter::Open(
                              *rows->schema(), arrow::default_memory_pool(), out, properties,
                              parquet::ArrowWriterProperties::Builder().store_schema()->build()));
    if (rows->num_rows() > 0) {
      ARROW_RETURN_NOT_OK(writer->WriteTable(*rows, rows->num_rows()));
    }
    ARROW_RETURN_NOT_OK(writer->Close());
    return out->Finish();
  } catch (const std::exception& e) {  // parquet::ParquetException
    return arrow::Status::IOError(e.what());
  }
}

class ParquetWriter final : public BatchWriter {
 public:
  ParquetWriter(const ColumnarSpec& spec, ByteSink& sink)
      : BatchWriter(spec, sink),
        pool_(arrow::internal::GetCpuThreadPool()),
        most_in_flight_((size_t)pool_->GetCapacity() + 1) {}

  void write(std::string_view bytes) override {
    guarded([&] {
      // Its rows outlive this call in their row group: the message is copied.
      std::shared_ptr<arrow::Buffer> message = value_or_throw(
          arrow::AllocateBuffer((int64_t)bytes.size()), "Arrow could not allocate a buffer");
      std::memcpy(message->mutable_data(), bytes.data(), bytes.size());
      add(read_back(std::move(message)));
    });
  }

  // The message kept as it is: the row group's batches point into it.
  void write_taking(std::string& bytes) override {
    guarded([&] { add(read_back(arrow::Buffer::FromString(std::move(bytes)))); });
  }

  void finish() override {
    guarded([&] {
      if (pending_rows_ > 0 || !assembly_) encode_pending();
      while (!encoding_.empty()) append_front();
      assembly_->finish();
    });
  }

 private:
  void add(const std::shared_ptr<arrow::RecordBatch>& batch) {
    const int64_t group = (int64_t)spec_.row_group_rows;
    for (int64_t at = 0; at < batch->num_rows();) {
      const int64_t take = std::min(batch->num_rows() - at, group - pending_rows_);
      pending_.push_back(batch->Slice(at, take));
      at += take;
      pending_rows_ += take;
      if (pending_rows_ == group) encode_pending();
    }
  }

  // Hands the pending rows to the pool as a row group, then appends each
  // row group already encoded, waiting for the oldest while too many are.
  void encode_pending() {
    std::shared_ptr<arrow::Table> rows = value_or_throw(
        arrow::Table::FromRecordBatches(schema_, pending_), "Arrow could not gather rows");
    pending_.clear();
    pending_rows_ = 0;
    if (!assembly_) assembly_.emplace(stream_, writer_properties(spec_, *rows));
    encoding_.push_back(
        value_or_throw(pool_->Submit(encode_row_group, std::move(rows), properties()),
                       "Arrow could not start encoding rows"));
    while (!encoding_.empty() &&
           (encoding_.front().is_finished() || encoding_.size() > most_in_flight_)) {
      append_front();
    }
  }

  void append_front() {
    const std::shared_ptr<arrow::Buffer> file =
        value_or_throw(encoding_.front().result(), "Parquet could not encode rows");
    encoding_.pop_front();
    assembly_->append(*file);
  }

  const std::shared_ptr<parquet::WriterProperties>& properties() const {
    return assembly_->properties();
  }

  arrow::internal::ThreadPool* pool_;
  size_t most_in_flight_;  // row groups encoding at once: enough for every pool thread
  std::vector<std::shared_ptr<arrow::RecordBatch>> pending_;  // the next row group's rows
  int64_t pending_rows_ = 0;
  std::optional<ParquetAssembly> assembly_;  // made with the first row group
  std::deque<arrow::Future<std::shared_ptr<arrow::Buffer>>> encoding_;  // in row-group order
};

}  // namespace

std::unique_ptr<ColumnarWriter> open_parquet_writer(const ColumnarSpec& spec, ByteSink& sink) {
  return std::make_unique<ParquetWriter>(spec, sink);
}

}  // namespace polyrt::scheduler::arrow_output
