#include "scheduler/output/output_target.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "polyrt/error.hpp"
#include "scheduler/output/temporary_files.hpp"

namespace polyrt::scheduler {

namespace {

std::string errno_text() {
  return std::strerror(errno);
}

// The process's umask, read without changing it (umask(2) both reads and
// sets, which races with other threads creating files).
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Umask:", 0) == 0) return (mode_t)std::strtoul(line.c_str() + 6, nullptr, 8);
  }
  return 022;  // the usual default where /proc does not say
}

}  // namespace

bool check_output_target(const std::string& path, std::span<const std::string> protected_files,
                         const std::string& option) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  for (const std::string& file : protected_files) {
    struct stat source {};
    if (exists && !file.empty() && ::stat(file.c_str(), &source) == 0 &&
        source.st_dev == st.st_dev && source.st_ino == st.st_ino) {
      throw OutputError(option + " " + path + " is " + file +
                        ", a source file of the program; refusing to replace it with output");
    }
  }
  if (exists && !S_ISREG(st.st_mode)) return true;
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    throw OutputError(option + " " + path +
                      " is a symbolic link; polyrt replaces its output atomically, which would "
                      "replace the link, not its target: write to the target path, or remove the "
                      "link first");
  }
  if (exists && (::access(path.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0)) {
    throw OutputError(option + " " + path +
                      " is read-only; polyrt does not replace a file it may not write (make it "
                      "writable or remove it first)");
  }
  return false;
}

OutputTemporary create_output_temporary(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  remove_stale_temporaries(dir, base);
  OutputTemporary t;
  t.path = dir + "/" + temporary_name(base) + "-XXXXXX";
  t.fd = ::mkostemp(t.path.data(), O_CLOEXEC);
  if (t.fd < 0) {
    throw OutputError("cannot create a temporary file in '" + dir + "': " + errno_text());
  }
  ::fchmod(t.fd, 0666 & ~current_umask());
  return t;
}

void commit_output_temporary(const std::string& temporary, const std::string& path) {
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    throw OutputError("cannot rename the output into '" + path + "': " + errno_text());
  }
}

}  // namespace polyrt::scheduler
