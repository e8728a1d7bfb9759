// What polyrt checks before it replaces a file with generated output, and
// the temporary file it writes first: one set of rules for `polyrt run
// --out` and for Python's write_parquet. A file is replaced atomically (a
// temporary beside it, renamed when complete), which is wrong for a symbolic
// link (the link would be replaced, not its target), a read-only file
// (nothing overwrites one unasked) and the program's own source files.
#pragma once

#include <atomic>
#include <span>
#include <string>

namespace polyrt::scheduler {

// Where a job's output goes and what stops its writes.
struct OutputPlace {
  std::string path;  // "" is standard output, where the format allows it
  // Files never replaced (the program and the modules it was compiled from).
  std::span<const std::string> protected_files;
  // The job's cancellation token: a write blocked on a pipe that a signal
  // interrupts throws StoppedError when it is raised, else retries. Null:
  // it always retries.
  const std::atomic<bool>* stop = nullptr;
};

// Throws OutputError when `path` must not be replaced: it is one of
// `protected_files` (same file: the program and the modules it was compiled
// from), a symbolic link or a read-only file. `option` names the path in
// messages ("output file", "write_parquet"), never a command-line flag. Returns true when `path`
// exists and is not a regular file (a device or pipe such as /dev/null: written directly).
bool check_output_target(const std::string& path, std::span<const std::string> protected_files,
                         const std::string& option);

// A temporary file beside `path` (".NAME.polyrt-tmp-PID-HOST-XXXXXX"), made
// after removing the leftovers of dead owners, with the mode a new file gets
// (0666 less the umask) so that the renamed output looks like any other.
struct OutputTemporary {
  int fd = -1;
  std::string path;
};
OutputTemporary create_output_temporary(const std::string& path);

// Renames `temporary` over `path`; throws OutputError when it cannot.
void commit_output_temporary(const std::string& temporary, const std::string& path);

}  // namespace polyrt::scheduler
