#include "scheduler/output_sink.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "polyrt/error.hpp"

namespace polyrt::scheduler {

namespace {
std::string errno_text() {
  return std::strerror(errno);
}
}  // namespace

OutputSink::OutputSink(const std::string& path) : path_(path) {
  if (path.empty()) {
    fd_ = STDOUT_FILENO;
    return;
  }
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or pipe such as /dev/null: write it directly, never replace it.
    fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw UsageError("cannot open '" + path + "' for writing: " + errno_text());
    owns_fd_ = true;
    return;
  }
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string temp = dir + "/." + base + ".polyrt-tmp-XXXXXX";
  fd_ = ::mkstemp(temp.data());
  if (fd_ < 0) throw UsageError("cannot create a temporary file in '" + dir + "': " + errno_text());
  ::fchmod(fd_, 0644);
  owns_fd_ = true;
  temp_path_ = temp;
}

OutputSink::~OutputSink() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void OutputSink::write(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw UsageError("cannot write to '" + (path_.empty() ? std::string("stdout") : path_) +
                       "': " + errno_text());
    }
    bytes.remove_prefix((size_t)n);
  }
}

void OutputSink::commit() {
  if (temp_path_.empty()) return;
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw UsageError("cannot finish writing '" + path_ + "': " + errno_text());
  }
  fd_ = -1;
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    throw UsageError("cannot rename the output into '" + path_ + "': " + errno_text());
  }
  temp_path_.clear();
}

bool OutputSink::is_terminal() const {
  return ::isatty(fd_) == 1;
}

}  // namespace polyrt::scheduler
