#include "gpu_backend/device_texts.hpp"

#include <algorithm>
#include <cstring>

namespace polyrt::gpu {

void unpack_device_texts(const void* slots, uint64_t slot_bytes, uint64_t rows,
                         columns::StringColumn& out, const batch::ForEachPart& for_each_part) {
  const auto* base = static_cast<const char*>(slots);
  const auto length = [&](uint64_t r) {
    uint32_t n;
    std::memcpy(&n, base + r * slot_bytes, 4);
    return (size_t)n;
  };
  out.clear(rows);
  char* const bytes = out.append_unwritten(rows, length);
  const int64_t* const offsets = out.offsets();
  const auto copy = [&](uint64_t begin, uint64_t end) {
    for (uint64_t r = begin; r < end; ++r) {
      std::memcpy(bytes + offsets[r], base + r * slot_bytes + 4,
                  (size_t)(offsets[r + 1] - offsets[r]));
    }
  };
  if (!for_each_part || rows <= batch::kPartRows) return copy(0, rows);
  const uint64_t parts = (rows + batch::kPartRows - 1) / batch::kPartRows;
  for_each_part(parts, [&](size_t k) {
    copy(k * batch::kPartRows, std::min(rows, (k + 1) * batch::kPartRows));
  });
}

}  // namespace polyrt::gpu
