// Where bulk output goes: stdout, a device or pipe written directly, or a
// regular file written atomically (a temporary file beside it, renamed only
// when the job succeeds, so a failed job leaves no partial file), its bytes
// compressed on every core when asked (BlockCompressor).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "scheduler/output/block_compressor.hpp"
#include "scheduler/output/output_target.hpp"

namespace polyrt::scheduler {

class OutputSink {
 public:
  // Empty path: standard output. Throws OutputError when the path cannot be
  // opened or must not be replaced (check_output_target: one of the place's
  // protected files, a symlink, a read-only file). Removes the temporaries
  // of earlier runs for this path whose process is gone. Compressed bytes
  // are refused to a terminal.
  explicit OutputSink(const OutputPlace& place, Compression compression = {});
  ~OutputSink();  // discards the temporary file unless commit() ran
  OutputSink(const OutputSink&) = delete;
  OutputSink& operator=(const OutputSink&) = delete;

  void write(std::string_view bytes);
  // Flushes (the compressor's last blocks too) and, for an atomic file,
  // renames it into place.
  void commit();
  bool is_terminal() const;
  // Whether what was written stays if the job stops: true for a stream
  // (standard output, a pipe, a device), false for a file written
  // atomically (removed unless committed).
  bool keeps_partial_output() const { return streams_; }

 private:
  std::string path_;
  std::string temp_path_;  // non-empty while an atomic write is pending
  int fd_ = -1;
  bool owns_fd_ = false;
  bool streams_ = false;  // standard output, a device or a pipe: written in place
  const std::atomic<bool>* stop_;
  std::unique_ptr<BlockCompressor> compressor_;  // null: bytes written as they come

  void write_out(std::string_view bytes);
};

}  // namespace polyrt::scheduler
