// NumPy .npy output: one file per column (u64 as <u8, f64 as <f8, bool as
// |u1, narrow types at their width, a vector column as a 2-d array of its
// elements, every row of one dimension) in a directory that appears only when
// the job succeeds (written as a temporary directory beside it, renamed on
// commit). Only the batch tier writes it: each worker writes its chunk at
// its place in every file, and nothing is left to do in coordinate order.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "scheduler/output/output_format.hpp"

namespace polyrt::scheduler {

// The .npy header (format 1.0, padded to 64 bytes, and to at least `size`
// bytes) of a 1-d array of rows, or of a 2-d array of rows x dim (a vector
// column: of its elements' type).
std::string npy_header(Type type, uint64_t rows, std::optional<uint64_t> dim = std::nullopt,
                       size_t size = 0);

class NpyFormat final : public OutputFormat {
 public:
  std::string_view name() const override { return "npy"; }
  std::optional<RowFormat> text_rows() const override { return std::nullopt; }
  bool writes_directory() const override { return true; }
  bool needs_row_count() const override { return true; }
  std::vector<std::string> files_of(const std::string& target,
                                    const std::vector<std::string>& columns) const override;
  std::unique_ptr<FormatWriter> open(const OutputPlace& place,
                                     const OutputColumns& columns) const override;
};

class NpyDirectory final : public FormatWriter {
 public:
  // Refuses with OutputError standard output, text columns, an existing
  // non-empty `dir`, and rows that cannot fit in the free space of its file
  // system (the sizes say how much is needed and available). Removes the
  // temporary directories of earlier runs for `dir` whose process is gone.
  NpyDirectory(const std::string& dir, const OutputColumns& columns);
  ~NpyDirectory() override;  // removes the temporary directory unless committed
  NpyDirectory(const NpyDirectory&) = delete;
  NpyDirectory& operator=(const NpyDirectory&) = delete;

  // Writes the chunk's rows at their place in every file. Safe from several
  // threads at once.
  void encode(const ColumnChunk& chunk, std::string& bytes) const override;
  void write(std::string_view) override {}
  // Closes the files and renames the directory into place.
  void commit() override;

 private:
  std::string dir_;
  std::string temp_dir_;
  uint64_t first_ = 0;
  std::vector<int> fds_;
  std::vector<Type> types_;
  // Files grow as chunks land, reserved kReserveStep bytes ahead of the
  // furthest chunk (reserving the whole size up front left gigabytes behind
  // an interrupted run; not reserving at all cost about 10 % of throughput).
  static constexpr uint64_t kReserveStep = uint64_t{64} << 20;
  struct Reserved {
    std::atomic<uint64_t> end{0};
    std::mutex mutex;
  };
  void reserve(size_t file, uint64_t end) const;

  // A vector column's dimension: set by the first chunk written (-1 before),
  // checked against every row of every chunk.
  uint64_t vector_dimension(size_t file, const ColumnView& column, uint64_t rows,
                            uint64_t first_row) const;
  std::unique_ptr<std::atomic<int64_t>[]> dims_;
  std::vector<std::string> names_;
  uint64_t rows_ = 0;

  std::vector<uint64_t> data_offsets_;  // per file: where row 0 starts
  std::vector<uint64_t> file_sizes_;
  std::unique_ptr<Reserved[]> reserved_;
  bool committed_ = false;
};

}  // namespace polyrt::scheduler
