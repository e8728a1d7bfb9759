// Portability header of the rtlib: the same sources compile with g++ (the
// interpreter's native copy) and with clang-19 to LLVM bitcode for the host
// and for nvptx64, where no C or C++ standard library headers exist.
#pragma once

#if __has_include(<cstdint>)
#include <cstdint>
#else
typedef __UINT64_TYPE__ uint64_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __INT32_TYPE__ int32_t;
typedef __UINT8_TYPE__ uint8_t;
#endif

// Every rtlib entry point is extern "C" with scalar or pointer parameters only:
// C++ mangling of uint64_t differs between x86-64 and nvptx64.
#define PD_API extern "C"
#define PD_INLINE static inline __attribute__((always_inline))

// Status codes of fallible rtlib functions (0 = success).
#define PD_OK 0
#define PD_FAIL 1

PD_INLINE double pd_bits_to_f64(uint64_t u) {
  return __builtin_bit_cast(double, u);
}
PD_INLINE uint64_t pd_f64_to_bits(double d) {
  return __builtin_bit_cast(uint64_t, d);
}
PD_INLINE double pd_sqrt_op(double x) {
  return __builtin_sqrt(x);
}
