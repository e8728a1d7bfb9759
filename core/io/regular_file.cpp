#include "io/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace polyrt::io {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

RegularFile read_regular_file(const std::string& path, uint64_t max_bytes, bool follow_symlinks) {
  RegularFile file;
  const int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (follow_symlinks ? 0 : O_NOFOLLOW);
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    file.why = std::strerror(errno);
    return file;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    file.why = std::strerror(errno);
    return file;
  }
  if (!S_ISREG(st.st_mode)) {
    file.outcome = RegularFile::Outcome::NotRegular;
    file.why = kind_of(st.st_mode);
    return file;
  }
  auto too_big = [&](uint64_t size) {
    file.outcome = RegularFile::Outcome::TooBig;
    file.why = std::to_string(size) + " bytes";
    return file;
  };
  if ((uint64_t)st.st_size > max_bytes) return too_big((uint64_t)st.st_size);
  std::string& text = file.bytes;
  text.resize((size_t)st.st_size);
  size_t have = 0;
  while (true) {
    if (have == text.size()) {
      if (text.size() > max_bytes) return too_big(text.size());
      text.resize(text.size() + 4096);  // a file that grows while it is read
    }
    const ssize_t n = ::read(fd, text.data() + have, text.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      file.why = std::strerror(errno);
      return file;
    }
    if (n == 0) break;
    have += (size_t)n;
  }
  text.resize(have);
  file.outcome = RegularFile::Outcome::Read;
  return file;
}

}  // namespace polyrt::io
