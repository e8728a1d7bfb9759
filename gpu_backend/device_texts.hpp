// The host's side of device-made str columns: a GPU kernel writes each row's
// text into a fixed slot (plan::device_text_slot: its length, then its
// bytes); the host turns the slots it copied back into a chunk's str column.
#pragma once

#include <cstdint>

#include "batch/chunk_buffers.hpp"

namespace polyrt::gpu {

// Empties `out` and appends the `rows` texts of `slots` (each slot_bytes
// long), copying in parts of batch::kPartRows on every core when
// `for_each_part` is set.
void unpack_device_texts(const void* slots, uint64_t slot_bytes, uint64_t rows,
                         columns::StringColumn& out, const batch::ForEachPart& for_each_part);

}  // namespace polyrt::gpu
