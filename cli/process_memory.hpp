// The command's allocator settings: the process is the command's own, so it
// may tune glibc's malloc (the library and the Python module never do).
#pragma once

namespace polyrt::cli {

// Keeps memory that is freed and soon asked for again (see the .cpp).
void tune_process_allocator();

}  // namespace polyrt::cli
