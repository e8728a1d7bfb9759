#include "gpu_backend/device_texts.hpp"

#include <cstring>

namespace polyrt::gpu {

void adopt_packed_texts(const int64_t* offsets, const char* bytes, uint64_t rows,
                        columns::StringColumn& out) {
  out.clear(rows);
  char* p =
      out.append_unwritten(rows, [&](uint64_t r) { return (size_t)(offsets[r + 1] - offsets[r]); });
  if (offsets[rows] > 0) std::memcpy(p, bytes, (size_t)offsets[rows]);
}

}  // namespace polyrt::gpu
