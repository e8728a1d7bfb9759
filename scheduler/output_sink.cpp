#include "scheduler/output_sink.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "polyrt/error.hpp"
#include "scheduler/interruption.hpp"
#include "scheduler/temporary_files.hpp"

namespace polyrt::scheduler {

namespace {
std::string errno_text() {
  return std::strerror(errno);
}
}  // namespace

OutputSink::OutputSink(const std::string& path, const std::string& program_file) : path_(path) {
  if (path.empty()) {
    fd_ = STDOUT_FILENO;
    return;
  }
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  struct stat input {};
  if (exists && !program_file.empty() && ::stat(program_file.c_str(), &input) == 0 &&
      input.st_dev == st.st_dev && input.st_ino == st.st_ino) {
    throw UsageError("--out " + path + " is the program file " + program_file +
                     "; refusing to replace the program with its output");
  }
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or pipe such as /dev/null: write it directly, never replace it.
    fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw UsageError("cannot open '" + path + "' for writing: " + errno_text());
    owns_fd_ = true;
    return;
  }
  // A regular file is replaced atomically (a temporary file renamed over
  // it), which is not what a symlink's or a read-only file's owner expects
  // (cp writes through a link; nothing overwrites a read-only file unasked).
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    throw UsageError("--out " + path +
                     " is a symbolic link; polyrt replaces its output atomically, which would "
                     "replace the link, not its target: write to the target path, or remove the "
                     "link first");
  }
  if (exists && (::access(path.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0)) {
    throw UsageError("--out " + path +
                     " is read-only; polyrt does not replace a file it may not write (make it "
                     "writable or remove it first)");
  }
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  remove_stale_temporaries(dir, base);
  std::string temp = dir + "/" + temporary_name(base) + "-XXXXXX";
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
      if (errno == EINTR) {  // a signal: stop if it asks to, else retry
        Interruption::stop_if_requested();
        continue;
      }
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
