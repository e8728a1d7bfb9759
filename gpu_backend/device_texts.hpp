// The host's side of device-made str columns: a GPU kernel writes each row's
// text into a fixed slot (plan::device_text_slot), the text compaction
// kernels pack the slots into Arrow's layout on the device, and only that
// (offsets and bytes) is copied to the host, where it becomes a chunk's str
// column.
#pragma once

#include <cstdint>

#include "columns/string_column.hpp"

namespace polyrt::gpu {

// Empties `out` and appends the `rows` texts of an Arrow layout (offsets[0]
// is 0; row r is bytes [offsets[r], offsets[r + 1])).
void adopt_packed_texts(const int64_t* offsets, const char* bytes, uint64_t rows,
                        columns::StringColumn& out);

}  // namespace polyrt::gpu
