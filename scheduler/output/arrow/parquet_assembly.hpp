// A Parquet file assembled from row groups encoded apart (on several
// threads): each arrives as a whole Parquet file in memory, written by
// parquet::arrow::FileWriter with the file's schema and properties; its
// pages are appended to the output as they are and its row groups' metadata
// (statistics, encodings, sizes) is kept with the page offsets moved to
// where the pages landed. finish() writes the footer of them all, with the
// first file's schema and key-value metadata (Arrow's stored schema).
#pragma once

#include <arrow/api.h>
#include <arrow/io/interfaces.h>
#include <parquet/metadata.h>
#include <parquet/properties.h>

#include <memory>

namespace polyrt::scheduler::arrow_output {

class ParquetAssembly {
 public:
  ParquetAssembly(arrow::io::OutputStream& out,
                  std::shared_ptr<parquet::WriterProperties> properties);

  // Appends `file`'s row groups (it may have none) after those before.
  // OutputError when it is not a Parquet file or a write fails.
  void append(const arrow::Buffer& file);

  // The footer; at least one file must have been appended.
  void finish();

  const std::shared_ptr<parquet::WriterProperties>& properties() const { return properties_; }

 private:
  void write(const uint8_t* bytes, int64_t size);
  void add_row_group(const parquet::RowGroupMetaData& group, int64_t shift);

  arrow::io::OutputStream& out_;
  std::shared_ptr<parquet::WriterProperties> properties_;
  std::shared_ptr<parquet::FileMetaData> first_;  // its schema outlives footer_
  std::unique_ptr<parquet::FileMetaDataBuilder> footer_;
  int64_t written_ = 0;
  int16_t row_groups_ = 0;
};

}  // namespace polyrt::scheduler::arrow_output
