#include "io/buffer_sizes.hpp"

#include <unistd.h>

#include "polyrt/error.hpp"

namespace polyrt::io {

uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  uint64_t bytes = 0;
  if (__builtin_mul_overflow((uint64_t)pages, (uint64_t)page, &bytes)) return UINT64_MAX;
  return bytes;
}

void BufferSizes::add(uint64_t count, uint64_t width) {
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(count, width, &bytes) ||
      __builtin_add_overflow(total_, bytes, &total_)) {
    refuse_overflow();
  }
}

void BufferSizes::refuse_overflow() const {
  throw WriteError(call_ +
                   ": the rows' buffers would need more than 2**64 bytes; evaluate a smaller "
                   "range (or stream it in batches)");
}

void BufferSizes::check_memory() const {
  const uint64_t memory = physical_memory_bytes();
  if (memory != 0 && total_ > memory) {
    throw WriteError(call_ + ": the rows' buffers need " + std::to_string(total_) +
                     " bytes, more than this machine's memory (" + std::to_string(memory) +
                     " bytes); evaluate a smaller range (or stream it in batches)");
  }
}

void check_coordinate_range(uint64_t first, uint64_t count, const std::string& call) {
  if (count != 0 && count - 1 > UINT64_MAX - first) {
    throw WriteError(call + ": rows [" + std::to_string(first) + ", " + std::to_string(first) +
                     " + " + std::to_string(count) +
                     ") pass the last coordinate 2**64 - 1; coordinates do not wrap");
  }
}

}  // namespace polyrt::io
