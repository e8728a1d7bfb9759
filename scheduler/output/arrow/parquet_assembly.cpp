#include "scheduler/output/arrow/parquet_assembly.hpp"

#include <arrow/util/config.h>
#include <parquet/exception.h>
#include <parquet/file_writer.h>

#include <cstring>
#include <map>
#include <string>

#include "scheduler/output/arrow/batch_writer.hpp"

namespace polyrt::scheduler::arrow_output {

namespace {

constexpr char kMagic[] = "PAR1";  // a Parquet file's first and last 4 bytes
constexpr int64_t kMagicBytes = 4;

std::shared_ptr<parquet::FileMetaData> parse_footer(const uint8_t* footer, uint32_t bytes) {
#if ARROW_VERSION_MAJOR >= 26
  return parquet::FileMetaData::Make(footer, (int64_t)bytes);
#else
  return parquet::FileMetaData::Make(footer, &bytes);
#endif
}

}  // namespace

ParquetAssembly::ParquetAssembly(arrow::io::OutputStream& out,
                                 std::shared_ptr<parquet::WriterProperties> properties)
    : out_(out), properties_(std::move(properties)) {}

void ParquetAssembly::write(const uint8_t* bytes, int64_t size) {
  check(out_.Write(bytes, size), "Parquet could not write rows");
  written_ += size;
}

void ParquetAssembly::append(const arrow::Buffer& file) {
  const uint8_t* data = file.data();
  const int64_t size = file.size();
  uint32_t footer = 0;  // the footer's length, little-endian before the last magic
  if (size >= 3 * kMagicBytes) std::memcpy(&footer, data + size - 2 * kMagicBytes, 4);
  if (size < 3 * kMagicBytes || std::memcmp(data, kMagic, kMagicBytes) != 0 ||
      std::memcmp(data + size - kMagicBytes, kMagic, kMagicBytes) != 0 ||
      footer > size - 3 * kMagicBytes) {
    throw OutputError("Parquet's writer gave " + std::to_string(size) +
                      " bytes that are not a Parquet file");
  }
  const int64_t pages_end = size - 2 * kMagicBytes - footer;
  std::shared_ptr<parquet::FileMetaData> metadata;
  try {
    metadata = parse_footer(data + pages_end, footer);
  } catch (const std::exception& e) {
    throw OutputError(std::string("Parquet could not read back a row group's footer: ") + e.what());
  }
  if (!footer_) {
    first_ = metadata;
    footer_ = parquet::FileMetaDataBuilder::Make(first_->schema(), properties_);
    write(reinterpret_cast<const uint8_t*>(kMagic), kMagicBytes);
  }
  // Where this file's offsets (from its own start) land in the output.
  const int64_t shift = written_ - kMagicBytes;
  write(data + kMagicBytes, pages_end - kMagicBytes);
  for (int g = 0; g < metadata->num_row_groups(); ++g) add_row_group(*metadata->RowGroup(g), shift);
}

void ParquetAssembly::add_row_group(const parquet::RowGroupMetaData& group, int64_t shift) {
  parquet::RowGroupMetaDataBuilder* to = footer_->AppendRowGroup();
  to->set_num_rows(group.num_rows());
  for (int c = 0; c < group.num_columns(); ++c) {
    const std::unique_ptr<parquet::ColumnChunkMetaData> column = group.ColumnChunk(c);
    parquet::ColumnChunkMetaDataBuilder* chunk = to->NextColumnChunk();
    if (column->is_stats_set()) {
      if (const std::shared_ptr<parquet::EncodedStatistics> stats = column->encoded_statistics()) {
        chunk->SetStatistics(*stats);
      }
    }
    if (const std::shared_ptr<parquet::SizeStatistics> sizes = column->size_statistics()) {
      chunk->SetSizeStatistics(*sizes);
    }
    std::map<parquet::Encoding::type, int32_t> dictionary_pages, data_pages;
    for (const parquet::PageEncodingStats& pages : column->encoding_stats()) {
      auto& counts =
          pages.page_type == parquet::PageType::DICTIONARY_PAGE ? dictionary_pages : data_pages;
      counts[pages.encoding] += pages.count;
    }
    const bool has_dictionary = column->has_dictionary_page();
    // A dictionary that grew too large leaves the rest of the chunk plain.
    const bool fallback = has_dictionary && data_pages.count(parquet::Encoding::PLAIN) > 0;
    chunk->Finish(
        column->num_values(), has_dictionary ? column->dictionary_page_offset() + shift : 0,
        column->has_index_page() ? column->index_page_offset() + shift : -1,
        column->data_page_offset() + shift, column->total_compressed_size(),
        column->total_uncompressed_size(), has_dictionary, fallback, dictionary_pages, data_pages);
  }
  to->Finish(group.total_byte_size(), row_groups_++);
}

void ParquetAssembly::finish() {
  if (!footer_) throw OutputError("a Parquet file was finished before its first row group");
  const std::unique_ptr<parquet::FileMetaData> metadata =
      footer_->Finish(first_->key_value_metadata());
  try {
    parquet::WriteFileMetaData(*metadata, &out_);
  } catch (const parquet::ParquetException& e) {
    throw OutputError(std::string("Parquet could not write its footer: ") + e.what());
  }
}

}  // namespace polyrt::scheduler::arrow_output
