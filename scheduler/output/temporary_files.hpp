// Names of the temporary files and directories bulk jobs write before
// renaming them into place, and the removal of those a crashed run left:
// ".NAME.polyrt-tmp-PID-HOST-XXXXXX" (files) and ".NAME.polyrt-tmp-PID-HOST"
// (npy directories), beside the target NAME. A leftover is removed only when
// it was made on this host by a process that no longer exists.
#pragma once

#include <string>

namespace polyrt::scheduler {

// ".NAME.polyrt-tmp-PID-HOST" for target `name` (a file name, no directory).
std::string temporary_name(const std::string& name);

// Removes leftovers of target `name` in `dir` whose process is gone.
void remove_stale_temporaries(const std::string& dir, const std::string& name);

}  // namespace polyrt::scheduler
