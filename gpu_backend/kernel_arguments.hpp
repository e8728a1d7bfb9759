// What a launch of a GPU batch kernel passes and gets back, for the GPU back
// end and the host twins alike (the ABI is in codegen/batch_codegen.hpp:
// polyrt_gpu_kernel_k(first, count, scalars, c0, .., err)).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "batch/chunk_steps.hpp"

namespace polyrt::gpu {

// A kernel's arguments as a launch takes them: one pointer per argument, to
// its 8-byte value held here (device addresses, or host addresses for a twin).
class KernelArguments {
 public:
  explicit KernelArguments(std::vector<uint64_t> values) : values_(std::move(values)) {
    for (uint64_t& v : values_) pointers_.push_back(&v);
  }
  // A batch kernel's (codegen/batch_codegen.hpp).
  KernelArguments(uint64_t first, uint64_t count, uint64_t scalars,
                  std::span<const uint64_t> columns, uint64_t failure_word)
      : KernelArguments(batch_kernel_values(first, count, scalars, columns, failure_word)) {}
  KernelArguments(const KernelArguments&) = delete;  // the pointers point into values_
  KernelArguments& operator=(const KernelArguments&) = delete;

  void** pointers() { return pointers_.data(); }

 private:
  static std::vector<uint64_t> batch_kernel_values(uint64_t first, uint64_t count, uint64_t scalars,
                                                   std::span<const uint64_t> columns,
                                                   uint64_t failure_word) {
    std::vector<uint64_t> values = {first, count, scalars};
    values.insert(values.end(), columns.begin(), columns.end());
    values.push_back(failure_word);
    return values;
  }

  std::vector<uint64_t> values_;
  std::vector<void*> pointers_;
};

// The failure word a kernel lowers by atomic minimum: UINT64_MAX when no row
// failed, else (row << 32) | member of the first failure.
inline constexpr uint64_t kNoFailureWord = ~uint64_t{0};

inline batch::KernelFailure decode_failure_word(uint64_t word) {
  if (word == kNoFailureWord) return {};
  return {word >> 32, (uint32_t)word};
}

}  // namespace polyrt::gpu
