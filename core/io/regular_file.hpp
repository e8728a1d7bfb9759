// Reading a whole file that must be a regular file of bounded size, safely
// whatever the path names: opened without blocking (a FIFO has no writer to
// wait for) and checked with fstat before any read, so a directory, a device
// (/dev/zero never ends), a FIFO or an oversized file is refused, never
// read. Program files and object-cache entries are read through it.
#pragma once

#include <cstdint>
#include <string>

namespace polyrt::io {

struct RegularFile {
  enum class Outcome {
    Read,        // `bytes` holds the file
    Unreadable,  // open, fstat or read failed: `why` is the system's reason
    NotRegular,  // `why` says what it is: "a directory", "a FIFO", ...
    TooBig,      // more than max_bytes, or grew past it while read: `why` the size
  };
  Outcome outcome = Outcome::Unreadable;
  std::string bytes;
  std::string why;
};

// follow_symlinks = false refuses a symlink as Unreadable (O_NOFOLLOW).
RegularFile read_regular_file(const std::string& path, uint64_t max_bytes, bool follow_symlinks);

}  // namespace polyrt::io
