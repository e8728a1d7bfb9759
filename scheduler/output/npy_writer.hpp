// NumPy .npy output: one file per column (u64 as <u8, f64 as <f8, bool as
// |u1) in a directory that appears only when the job succeeds (written as a
// temporary directory beside it, renamed on commit).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "polyrt/batch.hpp"

namespace polyrt::scheduler {

// The .npy header (format 1.0, padded to 64 bytes) of a 1-d array.
std::string npy_header(Type type, uint64_t rows);

class NpyDirectory {
 public:
  // Refuses with UsageError str columns, an existing non-empty `dir`, and
  // rows that cannot fit in the free space of its file system (the sizes
  // say how much is needed and available). Removes the temporary
  // directories of earlier runs for `dir` whose process is gone.
  NpyDirectory(const std::string& dir, const std::vector<std::string>& names,
               const std::vector<Type>& types, uint64_t rows);
  ~NpyDirectory();  // removes the temporary directory unless committed
  NpyDirectory(const NpyDirectory&) = delete;
  NpyDirectory& operator=(const NpyDirectory&) = delete;

  // Writes the chunk's rows at their place in every file (`row` rows come
  // before it). Safe from several threads at once.
  void write(const ColumnChunk& chunk, uint64_t row) const;
  // Closes the files and renames the directory into place.
  void commit();

 private:
  std::string dir_;
  std::string temp_dir_;
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

  std::vector<uint64_t> data_offsets_;  // per file: where row 0 starts
  std::vector<uint64_t> file_sizes_;
  std::unique_ptr<Reserved[]> reserved_;
  bool committed_ = false;
};

}  // namespace polyrt::scheduler
