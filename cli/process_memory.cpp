#include "cli/process_memory.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace polyrt::cli {

// Parquet's zstd (inside libarrow) asks malloc for a new workspace of about
// a megabyte for every page it compresses and frees it after. glibc serves
// such blocks with mmap until its dynamic threshold learns, and returns the
// heap's free top to the system past 128 KiB, so pages were faulted and
// zeroed again and again (clear_page was 5-8 % of a Parquet run's samples).
// A fixed 32 MiB mmap threshold and a 128 MiB trim threshold keep them:
// users.polydat to Parquet 0.98-1.03 s -> 0.93-0.98 s, ladder 1.23-1.32 s ->
// 1.20-1.24 s, CSV unchanged, peak memory within 5 % (3 rounds each).
void tune_process_allocator() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
}

}  // namespace polyrt::cli
