#include "scheduler/output/npy_format.hpp"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "columns/native_columns.hpp"
#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "scheduler/output/temporary_files.hpp"

namespace polyrt::scheduler {

namespace {

// The npy type string of a column of `type` (a vector: of its elements),
// its elements little-endian.
std::string descr(Type type) {
  type = vector_element(type);
  if (type == Type::Bool) return "|u1";  // 0 or 1
  const char kind = is_float(type) ? 'f' : is_signed_integer(type) ? 'i' : 'u';
  const size_t width = native_width(type);
  return std::string(width == 1 ? "|" : "<") + kind + std::to_string(width);
}

void write_all(int fd, const void* data, size_t size, uint64_t offset, const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, p, size, (off_t)offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw OutputError("cannot write '" + path + "': " + std::strerror(errno));
    p += n;
    offset += (uint64_t)n;
    size -= (size_t)n;
  }
}

}  // namespace

std::string npy_header(Type type, uint64_t rows, std::optional<uint64_t> dim, size_t size) {
  const std::string shape =
      std::to_string(rows) + (dim ? ", " + std::to_string(*dim) + ")" : std::string(",)"));
  std::string dict =
      "{'descr': '" + descr(type) + "', 'fortran_order': False, 'shape': (" + shape + ", }";
  const size_t unpadded = 10 + dict.size() + 1;  // magic, version, length, dict, newline
  dict.append((64 - unpadded % 64) % 64 + (size > unpadded ? (size - unpadded) / 64 * 64 : 0), ' ');
  dict.push_back('\n');
  std::string header("\x93NUMPY\x01\x00", 8);
  header.push_back((char)(dict.size() & 0xff));
  header.push_back((char)(dict.size() >> 8));
  return header + dict;
}

std::vector<std::string> NpyFormat::files_of(const std::string& target,
                                             const std::vector<std::string>& columns) const {
  std::vector<std::string> files;
  for (const std::string& column : columns) files.push_back(target + "/" + column + ".npy");
  return files;
}

std::unique_ptr<FormatWriter> NpyFormat::open(const OutputPlace& place,
                                              const OutputColumns& columns) const {
  // The program's sources are files, never the directory an npy job makes.
  return std::make_unique<NpyDirectory>(place.path, columns);
}

NpyDirectory::NpyDirectory(const std::string& dir, const OutputColumns& columns)
    : dir_(dir), first_(columns.first), types_(columns.types) {
  namespace fs = std::filesystem;
  const std::vector<std::string>& names = columns.names;
  const uint64_t rows = columns.rows;
  if (dir.empty()) {
    throw OutputError(
        "npy output is a directory of files, one per column: it needs a directory "
        "to write, not standard output");
  }
  if (columns.compression && columns.compression->codec != Codec::None) {
    throw OutputError(
        "npy output is not compressed (its files are read by memory-mapping "
        "them); drop --compress, or write csv, tsv or jsonl");
  }
  for (size_t k = 0; k < names.size(); ++k) {
    if (is_text(types_[k])) {
      throw OutputError("npy output holds numeric, bool and vector columns; output '" + names[k] +
                        "' is a " + std::string(type_name(types_[k])) +
                        " (leave it out of the outputs, or write csv, tsv or jsonl)");
    }
    if (k < columns.nullable.size() && columns.nullable[k]) {
      throw OutputError("npy output has no nulls; output '" + names[k] +
                        "' may be null (write default_or(" + names[k] +
                        ", fallback), or parquet, arrow, csv, tsv or jsonl)");
    }
    const LogicalType logical =
        k < columns.logical_types.size() ? columns.logical_types[k] : LogicalType{};
    if (!logical.is_none()) {
      throw OutputError("npy output holds plain numbers; output '" + names[k] + "' is a " +
                        logical_type_name(logical) + " (write it as its number, e.g. '" + names[k] +
                        " as " + std::string(type_name(physical_type(logical))) +
                        "' or 'as f64', or write parquet, arrow, csv, tsv or jsonl)");
    }
  }
  names_ = names;
  rows_ = rows;
  std::error_code ec;
  if (fs::exists(dir, ec) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec))) {
    throw OutputError("npy output directory " + dir + " exists and is not an empty directory");
  }
  fs::path target = fs::absolute(dir, ec);
  if (target.filename().empty()) target = target.parent_path();  // "out/" names "out"
  const std::string parent = target.parent_path().string();
  // Each file's header and full size (saturating: 10^20 rows cannot fit
  // anywhere); refuse up front what cannot fit, rather than fill the disk.
  constexpr uint64_t kMax = ~uint64_t{0};
  std::vector<std::string> headers;
  uint64_t needed = 0;
  for (Type type : types_) {
    if (is_vector(type)) {
      // Its dimension is known from the first chunk: the header is written
      // at commit, in room for the longest dimension; its size is unknown.
      headers.push_back(npy_header(type, rows, kMax));
      file_sizes_.push_back(kMax);
      continue;
    }
    headers.push_back(npy_header(type, rows));
    const uint64_t header = headers.back().size();
    const uint64_t width = native_width(type);
    file_sizes_.push_back(rows > (kMax - header) / width ? kMax : header + rows * width);
    needed = needed > kMax - file_sizes_.back() ? kMax : needed + file_sizes_.back();
  }
  struct statvfs fs_info {};
  if (::statvfs(parent.c_str(), &fs_info) == 0) {
    const uint64_t available = (uint64_t)fs_info.f_bavail * fs_info.f_frsize;
    if (needed > available) {
      throw OutputError("npy output directory " + dir + " needs " + std::to_string(needed) +
                        " bytes for " + std::to_string(rows) + " rows of " +
                        std::to_string(names.size()) + " column(s), but only " +
                        std::to_string(available) + " bytes are free on its file system");
    }
  }
  remove_stale_temporaries(parent, target.filename().string());
  temp_dir_ = (target.parent_path() / temporary_name(target.filename().string())).string();
  fs::remove_all(temp_dir_, ec);
  if (!fs::create_directories(temp_dir_, ec)) {
    throw OutputError("cannot create '" + temp_dir_ + "': " + ec.message());
  }
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string path = temp_dir_ + "/" + names[k] + ".npy";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw OutputError("cannot create '" + path + "': " + std::strerror(errno));
    fds_.push_back(fd);
    write_all(fd, headers[k].data(), headers[k].size(), 0, path);
    data_offsets_.push_back(headers[k].size());
  }
  reserved_ = std::make_unique<Reserved[]>(fds_.size());
  dims_ = std::make_unique<std::atomic<int64_t>[]>(fds_.size());
  for (size_t k = 0; k < fds_.size(); ++k) dims_[k].store(-1);
}

uint64_t NpyDirectory::vector_dimension(size_t k, const ColumnView& v, uint64_t rows,
                                        uint64_t first_row) const {
  const size_t width = vector_element_width(types_[k]);
  const uint64_t dim = (uint64_t)(v.offsets[1] - v.offsets[0]) / width;
  int64_t unset = -1;
  dims_[k].compare_exchange_strong(unset, (int64_t)dim);  // the first chunk's dimension holds
  const uint64_t fixed = (uint64_t)dims_[k].load();
  for (uint64_t r = 0; r < rows; ++r) {
    const uint64_t n = (uint64_t)(v.offsets[r + 1] - v.offsets[r]) / width;
    if (n != fixed) {
      throw OutputError("npy output '" + names_[k] + "': the " + std::string(type_name(types_[k])) +
                        " at row " + std::to_string(first_row + r) + " has " + std::to_string(n) +
                        " elements where others have " + std::to_string(fixed) +
                        "; a 2-d npy array needs one dimension (write jsonl or csv instead)");
    }
  }
  return fixed;
}

NpyDirectory::~NpyDirectory() {
  for (int fd : fds_) ::close(fd);
  if (!committed_) {
    std::error_code ec;
    std::filesystem::remove_all(temp_dir_, ec);
  }
}

void NpyDirectory::reserve(size_t k, uint64_t end) const {
  Reserved& r = reserved_[k];
  if (r.end.load(std::memory_order_acquire) >= end) return;
  std::lock_guard lock(r.mutex);
  const uint64_t from = r.end.load(std::memory_order_relaxed);
  if (from >= end) return;
  const uint64_t to = std::min(file_sizes_[k], std::max(end, from + kReserveStep));
  ::posix_fallocate(fds_[k], (off_t)from, (off_t)(to - from));  // best effort: pwrite allocates too
  r.end.store(to, std::memory_order_release);
}

void NpyDirectory::encode(const ColumnChunk& chunk, std::string&) const {
  const uint64_t row = chunk.first - first_;
  std::vector<uint8_t> bytes;
  for (size_t k = 0; k < fds_.size(); ++k) {
    const ColumnView& v = chunk.columns[k];
    if (is_vector(types_[k])) {
      if (chunk.rows == 0) continue;
      // Rows of dim elements, packed as the column's bytes are.
      const uint64_t stride =
          vector_dimension(k, v, chunk.rows, row) * vector_element_width(types_[k]);
      reserve(k, data_offsets_[k] + (row + chunk.rows) * stride);
      write_all(fds_[k], v.bytes + v.offsets[0], (size_t)(v.offsets[chunk.rows] - v.offsets[0]),
                data_offsets_[k] + row * stride, temp_dir_);
      continue;
    }
    reserve(k, data_offsets_[k] + (row + chunk.rows) * native_width(types_[k]));
    const size_t width = native_width(types_[k]);
    if (width == 8) {
      write_all(fds_[k], v.words, chunk.rows * 8, data_offsets_[k] + row * 8, temp_dir_);
    } else {
      bytes.resize(chunk.rows * width);
      columns::copy_native(types_[k], v.words, chunk.rows, bytes.data());
      write_all(fds_[k], bytes.data(), bytes.size(), data_offsets_[k] + row * width, temp_dir_);
    }
  }
}

void NpyDirectory::commit() {
  for (size_t k = 0; k < fds_.size(); ++k) {
    if (!is_vector(types_[k])) continue;
    // The shape, now that the dimension is known, and the file cut to its
    // rows (reserve may have allocated past them). No row: (0, 0).
    const int64_t dim = std::max<int64_t>(dims_[k].load(), 0);
    const std::string path = temp_dir_ + "/" + names_[k] + ".npy";
    const std::string header = npy_header(types_[k], rows_, (uint64_t)dim, data_offsets_[k]);
    write_all(fds_[k], header.data(), header.size(), 0, path);
    const uint64_t size =
        data_offsets_[k] + rows_ * (uint64_t)dim * vector_element_width(types_[k]);
    if (::ftruncate(fds_[k], (off_t)size) != 0) {
      throw OutputError("cannot size '" + path + "': " + std::strerror(errno));
    }
  }
  for (int fd : fds_) {
    if (::close(fd) != 0) throw OutputError("cannot close a file in '" + temp_dir_ + "'");
  }
  fds_.clear();
  std::error_code ec;
  std::filesystem::remove(dir_, ec);  // an empty directory in the way
  std::filesystem::rename(temp_dir_, dir_, ec);
  if (ec) throw OutputError("cannot rename '" + temp_dir_ + "' to '" + dir_ + "': " + ec.message());
  committed_ = true;
}

}  // namespace polyrt::scheduler
