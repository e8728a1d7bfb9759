#include "scheduler/npy_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "polyrt/error.hpp"

namespace polyrt::scheduler {

namespace {

const char* descr(Type type) {
  switch (type) {
    case Type::U64:
      return "<u8";
    case Type::F64:
      return "<f8";
    case Type::Bool:
      return "|u1";
    case Type::Str:
      break;
  }
  return nullptr;
}

void write_all(int fd, const void* data, size_t size, uint64_t offset, const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, p, size, (off_t)offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw WriteError("cannot write '" + path + "': " + std::strerror(errno));
    p += n;
    offset += (uint64_t)n;
    size -= (size_t)n;
  }
}

}  // namespace

std::string npy_header(Type type, uint64_t rows) {
  std::string dict = "{'descr': '" + std::string(descr(type)) +
                     "', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ",), }";
  const size_t unpadded = 10 + dict.size() + 1;  // magic, version, length, dict, newline
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict.push_back('\n');
  std::string header("\x93NUMPY\x01\x00", 8);
  header.push_back((char)(dict.size() & 0xff));
  header.push_back((char)(dict.size() >> 8));
  return header + dict;
}

NpyDirectory::NpyDirectory(const std::string& dir, const std::vector<std::string>& names,
                           const std::vector<Type>& types, uint64_t rows)
    : dir_(dir), types_(types) {
  namespace fs = std::filesystem;
  for (size_t k = 0; k < names.size(); ++k) {
    if (types[k] == Type::Str) {
      throw UsageError("--format npy writes numeric and bool columns; output '" + names[k] +
                       "' is a str (choose --outputs without it, or use csv, tsv or jsonl)");
    }
  }
  std::error_code ec;
  if (fs::exists(dir, ec) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec))) {
    throw UsageError("--out " + dir + " exists and is not an empty directory");
  }
  const fs::path target = fs::absolute(dir, ec);
  temp_dir_ = (target.parent_path() /
               ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid())))
                  .string();
  fs::remove_all(temp_dir_, ec);
  if (!fs::create_directories(temp_dir_, ec)) {
    throw UsageError("cannot create '" + temp_dir_ + "': " + ec.message());
  }
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string path = temp_dir_ + "/" + names[k] + ".npy";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw UsageError("cannot create '" + path + "': " + std::strerror(errno));
    fds_.push_back(fd);
    const std::string header = npy_header(types[k], rows);
    write_all(fd, header.data(), header.size(), 0, path);
    data_offsets_.push_back(header.size());
    // Reserving the blocks once spares the file system an allocation per write.
    const uint64_t width = types[k] == Type::Bool ? 1 : 8;
    ::posix_fallocate(fd, 0, (off_t)(header.size() + rows * width));
  }
}

NpyDirectory::~NpyDirectory() {
  for (int fd : fds_) ::close(fd);
  if (!committed_) {
    std::error_code ec;
    std::filesystem::remove_all(temp_dir_, ec);
  }
}

void NpyDirectory::write(const ColumnChunk& chunk, uint64_t row) const {
  std::vector<uint8_t> bytes;
  for (size_t k = 0; k < fds_.size(); ++k) {
    const ColumnView& v = chunk.columns[k];
    if (types_[k] == Type::Bool) {
      bytes.resize(chunk.rows);
      for (uint64_t r = 0; r < chunk.rows; ++r) bytes[r] = (uint8_t)v.words[r];
      write_all(fds_[k], bytes.data(), bytes.size(), data_offsets_[k] + row, temp_dir_);
    } else {
      write_all(fds_[k], v.words, chunk.rows * 8, data_offsets_[k] + row * 8, temp_dir_);
    }
  }
}

void NpyDirectory::commit() {
  for (int fd : fds_) {
    if (::close(fd) != 0) throw WriteError("cannot close a file in '" + temp_dir_ + "'");
  }
  fds_.clear();
  std::error_code ec;
  std::filesystem::remove(dir_, ec);  // an empty directory in the way
  std::filesystem::rename(temp_dir_, dir_, ec);
  if (ec) throw WriteError("cannot rename '" + temp_dir_ + "' to '" + dir_ + "': " + ec.message());
  committed_ = true;
}

}  // namespace polyrt::scheduler
