#include "columns/native_columns.hpp"

#include <bit>
#include <cstring>
#include <type_traits>

#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"

namespace polyrt::columns {

namespace {

// Each word truncated to `T` (integers) or converted to float (f32, whose
// word holds it exactly, so the conversion is exact).
template <typename T>
void narrow(const uint64_t* words, uint64_t rows, void* out) {
  T* to = static_cast<T*>(out);
  for (uint64_t r = 0; r < rows; ++r) {
    if constexpr (std::is_same_v<T, float>) {
      to[r] = (float)std::bit_cast<double>(words[r]);
    } else {
      to[r] = (T)words[r];
    }
  }
}

}  // namespace

void copy_native(Type type, const uint64_t* words, uint64_t rows, void* out) {
  switch (native_width(type)) {
    case 8:
      std::memcpy(out, words, rows * 8);
      return;
    case 4:
      if (type == Type::F32) return narrow<float>(words, rows, out);
      return narrow<uint32_t>(words, rows, out);
    case 2:
      return narrow<uint16_t>(words, rows, out);
    case 1:
      return narrow<uint8_t>(words, rows, out);
    default:
      internal_error("a str column has no native width");
  }
}

}  // namespace polyrt::columns
