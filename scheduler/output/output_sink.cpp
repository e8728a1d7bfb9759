#include "scheduler/output/output_sink.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "polyrt/error.hpp"
#include "scheduler/output/blocking_write.hpp"

namespace polyrt::scheduler {

namespace {
std::string errno_text() {
  return std::strerror(errno);
}
}  // namespace

OutputSink::OutputSink(const OutputPlace& place, Compression compression)
    : path_(place.path), stop_(place.stop) {
  const std::string& path = place.path;
  if (compression.codec != Codec::None) {
    if (path.empty() && ::isatty(STDOUT_FILENO) == 1) {
      throw OutputError(std::string(codec_name(compression.codec)) +
                        "-compressed output is not written to a terminal; redirect standard "
                        "output or pass --out FILE");
    }
    compressor_ = std::make_unique<BlockCompressor>(
        compression, [this](std::string_view bytes) { write_out(bytes); });
  }
  if (path.empty()) {
    fd_ = STDOUT_FILENO;
    streams_ = true;
    return;
  }
  if (check_output_target(path, place.protected_files, "output file")) {
    // A device or pipe such as /dev/null: write it directly, never replace it.
    streams_ = true;
    fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw OutputError("cannot open '" + path + "' for writing: " + errno_text());
    owns_fd_ = true;
    return;
  }
  OutputTemporary temporary = create_output_temporary(path);
  fd_ = temporary.fd;
  owns_fd_ = true;
  temp_path_ = std::move(temporary.path);
}

OutputSink::~OutputSink() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void OutputSink::write(std::string_view bytes) {
  if (compressor_) {
    compressor_->write(bytes);
  } else {
    write_out(bytes);
  }
}

void OutputSink::write_out(std::string_view bytes) {
  const auto target = [&] { return path_.empty() ? std::string("stdout") : path_; };
  const BlockingWrite blocking;
  while (!bytes.empty()) {
    // A signal ends a blocked write with EINTR, or with the bytes it wrote
    // so far when it wrote some: either way, stop when the job stops.
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno != EINTR) {
      throw OutputError("cannot write to '" + target() + "': " + errno_text());
    }
    if (n > 0) bytes.remove_prefix((size_t)n);
    if (!bytes.empty() && stop_ && stop_->load(std::memory_order_relaxed)) {
      throw StoppedError("writing '" + target() + "' was stopped");
    }
  }
}

void OutputSink::commit() {
  if (compressor_) compressor_->finish();
  if (temp_path_.empty()) return;
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw OutputError("cannot finish writing '" + path_ + "': " + errno_text());
  }
  fd_ = -1;
  commit_output_temporary(temp_path_, path_);
  temp_path_.clear();
}

bool OutputSink::is_terminal() const {
  return ::isatty(fd_) == 1;
}

}  // namespace polyrt::scheduler
