// Column buffers for numpy arrays, recycled: a fresh buffer costs a page
// fault and the kernel's zeroing per 4 KiB, three times what computing the
// ladder graph into it costs, while a buffer a dropped array gave back costs
// nothing. Freed buffers of 1 MiB or more are kept, up to a limit (1 GiB by
// default, polyrt.set_buffer_cache_limit), for the next evaluate to reuse.
#pragma once

#include <cstddef>

namespace polyrt::python {

// At least `bytes` bytes (malloc'd, or a kept buffer of up to twice that).
// Throws std::bad_alloc.
void* take_buffer(size_t bytes);
// Keeps the buffer for reuse, or frees it when the cache is full.
void give_buffer(void* buffer) noexcept;
// The most bytes kept; lowering it frees what is above it. 0 keeps none.
void set_buffer_cache_limit(size_t bytes);

}  // namespace polyrt::python
