// Columns of the native width: the 8-byte words of a scalar column written
// as the type's own elements (1 byte for u8, i8 and bool, 4 for u32, i32 and
// f32, ...), for npy files and narrow batch destinations.
#pragma once

#include <cstdint>

#include "polyrt/value.hpp"

namespace polyrt::columns {

// Writes words[0..rows) of a column of `type` to `out` as native_width(type)
// bytes each, little-endian (an f32 as its IEEE single bits).
void copy_native(Type type, const uint64_t* words, uint64_t rows, void* out);

}  // namespace polyrt::columns
