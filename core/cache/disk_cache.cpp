#include "cache/disk_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "cache/content_hash.hpp"
#include "io/regular_file.hpp"

namespace polyrt::cache {

namespace {

constexpr char kMagic[8] = {'P', 'L', 'Y', 'R', 'T', 'O', 'B', 'J'};
constexpr uint32_t kFormatVersion = 1;

void put(std::string& out, const void* data, size_t n) {
  out.append((const char*)data, n);
}

bool make_dirs(const std::string& dir) {
  for (size_t i = 1; i <= dir.size(); ++i) {
    if (i == dir.size() || dir[i] == '/') {
      const std::string prefix = dir.substr(0, i);
      if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) return false;
    }
  }
  return true;
}

uint64_t checksum(std::string_view payload) {
  return ContentHash().add(payload).low();
}

// No object or PTX file comes near this; a bigger file is not ours.
constexpr uint64_t kMaxEntryBytes = uint64_t{256} << 20;

bool disabled_by(const char* mode) {
  std::string lower;
  for (const char* c = mode; *c; ++c) lower.push_back((char)std::tolower((unsigned char)*c));
  return lower == "off" || lower == "0" || lower == "false" || lower == "no";
}

}  // namespace

std::optional<std::string> default_cache_dir() {
  if (const char* mode = std::getenv("POLYRT_CACHE"); mode && disabled_by(mode)) {
    return std::nullopt;
  }
  if (const char* dir = std::getenv("POLYRT_CACHE_DIR"); dir && *dir) return std::string(dir);
  // The XDG rules: a relative XDG_CACHE_HOME is ignored. The home directory
  // must exist: a cache never creates it (HOME=/nonexistent, as daemons and
  // containers often have, would otherwise make /nonexistent as root).
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') {
    return std::string(xdg) + "/polyrt";
  }
  struct stat home_dir {};
  if (const char* home = std::getenv("HOME");
      home && *home == '/' && ::stat(home, &home_dir) == 0 && S_ISDIR(home_dir.st_mode)) {
    return std::string(home) + "/.cache/polyrt";
  }
  return std::nullopt;
}

std::string DiskCache::path_of(const std::string& key) const {
  return *dir_ + "/" + key + suffix_;
}

std::optional<std::string> DiskCache::load(const std::string& key) const {
  if (!dir_) return std::nullopt;
  const std::string path = path_of(key);
  // Never follows a symlink, never blocks on a FIFO or device, never reads
  // anything but a regular file of bounded size: the directory may hold
  // anything.
  const io::RegularFile entry = io::read_regular_file(path, kMaxEntryBytes, false);
  if (entry.outcome != io::RegularFile::Outcome::Read) return std::nullopt;
  const std::string& file = entry.bytes;
  const size_t header = sizeof kMagic + 4 + 4 + key.size() + 8 + 8;
  bool valid = file.size() >= header && std::memcmp(file.data(), kMagic, sizeof kMagic) == 0;
  uint32_t version = 0, key_len = 0;
  uint64_t length = 0, sum = 0;
  if (valid) {
    size_t at = sizeof kMagic;
    std::memcpy(&version, file.data() + at, 4);
    std::memcpy(&key_len, file.data() + at + 4, 4);
    at += 8;
    valid = version == kFormatVersion && key_len == key.size() &&
            file.compare(at, key.size(), key) == 0;
    at += key.size();
    if (valid) {
      std::memcpy(&length, file.data() + at, 8);
      std::memcpy(&sum, file.data() + at + 8, 8);
      valid =
          file.size() - header == length && checksum(std::string_view(file).substr(header)) == sum;
    }
  }
  if (!valid) {
    ::unlink(path.c_str());  // corrupt or truncated: never load it, let it be replaced
    return std::nullopt;
  }
  return file.substr(header);
}

void DiskCache::store(const std::string& key, std::string_view payload) const {
  if (!dir_ || !make_dirs(*dir_)) return;
  std::string file(kMagic, sizeof kMagic);
  const uint32_t key_len = (uint32_t)key.size();
  const uint64_t length = payload.size(), sum = checksum(payload);
  put(file, &kFormatVersion, 4);
  put(file, &key_len, 4);
  file += key;
  put(file, &length, 8);
  put(file, &sum, 8);
  file.append(payload);
  std::string temp = *dir_ + "/." + key + ".tmp-XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return;
  size_t written = 0;
  while (written < file.size()) {
    const ssize_t n = ::write(fd, file.data() + written, file.size() - written);
    if (n <= 0) break;
    written += (size_t)n;
  }
  ::close(fd);
  if (written != file.size() || ::rename(temp.c_str(), path_of(key).c_str()) != 0) {
    ::unlink(temp.c_str());
  }
}

}  // namespace polyrt::cache
