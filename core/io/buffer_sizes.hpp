// Sizes of buffers that a caller's row count decides (a batch range, a row
// group, a GPU column): multiplied and added with overflow checks and held
// against the machine's memory before anything is allocated, so a range too
// large for memory is a WriteError naming the call instead of a wrapped size
// that a later write runs past.
#pragma once

#include <cstdint>
#include <string>

namespace polyrt::io {

// The machine's physical memory in bytes (0 when the system does not say).
uint64_t physical_memory_bytes();

// Accumulates the bytes of the buffers one call needs.
class BufferSizes {
 public:
  // `call` names the request in messages, e.g. "evaluate(0, 2**61)".
  explicit BufferSizes(std::string call) : call_(std::move(call)) {}

  // count * width bytes more; throws WriteError when the total passes 2**64.
  void add(uint64_t count, uint64_t width);
  // Throws WriteError when the total passes the machine's physical memory.
  void check_memory() const;

 private:
  [[noreturn]] void refuse_overflow() const;
  std::string call_;
  uint64_t total_ = 0;
};

// Throws WriteError when [first, first + count) passes the last coordinate
// 2**64 - 1 (the rows would wrap to coordinate 0).
void check_coordinate_range(uint64_t first, uint64_t count, const std::string& call);

}  // namespace polyrt::io
