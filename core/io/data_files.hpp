// Data files that nodes read when a program compiles (csv_field, jsonl_row,
// ...): where a relative path is found, and which files a compile read, so
// that output never replaces one (Program::source_files).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace polyrt::io {

// While alive, on this thread: a relative data-file path that does not name
// a file from the working directory is tried against `base` (the program
// file's directory; "" for none), as polydat resolves one against its
// workload's directory; and every data file read is recorded. Scopes nest
// (a compile inside a compile restores the outer one).
class DataFileScope {
 public:
  explicit DataFileScope(std::string base);
  ~DataFileScope();
  DataFileScope(const DataFileScope&) = delete;
  DataFileScope& operator=(const DataFileScope&) = delete;
  // The data files read in this scope, as resolved, in the order read.
  const std::vector<std::string>& files() const { return files_; }

 private:
  friend std::optional<std::string> read_data_file(const std::string&, std::string&);
  std::string base_;
  std::vector<std::string> files_;
  DataFileScope* outer_;
};

// The largest data file a node reads (the whole file is held in memory).
inline constexpr uint64_t kMaxDataFileBytes = uint64_t(1) << 30;

// The whole data file `path` (resolved as DataFileScope says), or none with
// `why` set: unreadable, not a regular file, larger than kMaxDataFileBytes,
// or refused by this thread's confinement (io/confinement.hpp).
std::optional<std::string> read_data_file(const std::string& path, std::string& why);

}  // namespace polyrt::io
