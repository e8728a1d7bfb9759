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

// a * b as two words: returns the low word and stores the high one. On
// nvptx64 the high word is mul.hi.u64 and no 128-bit integer reaches a
// kernel's IR: there the code generator's loop strength reduction may
// rewrite arithmetic on one (a product of `x % 26`) into a 128-bit division,
// a routine NVPTX lacks, and LLVM then aborts the process. Every wide product
// of code that runs in a kernel goes through here (docs/gpu.md).
PD_INLINE uint64_t pd_mul_wide(uint64_t a, uint64_t b, uint64_t* high) {
#if defined(__NVPTX__)
  *high = __nvvm_mulhi_ull(a, b);
  return a * b;
#else
  __extension__ typedef unsigned __int128 u128;
  const u128 product = (u128)a * b;
  *high = (uint64_t)(product >> 64);
  return (uint64_t)product;
#endif
}
PD_INLINE uint64_t pd_mul_high(uint64_t a, uint64_t b) {
  uint64_t high;
  pd_mul_wide(a, b, &high);
  return high;
}

// floor without libm (exact; -0.0 stays -0.0; a value past 2^52 is already
// whole, as are infinities, and NaN stays NaN).
PD_INLINE double pd_floor_exact(double x) {
  if (!(x > -4503599627370496.0 && x < 4503599627370496.0)) return x;
  if (x == 0.0) return x;
  const double t = (double)(int64_t)x;  // toward zero, exact below 2^52
  return t > x ? t - 1.0 : t;
}
// Rust's f64::round: half away from zero, the sign of zero kept, without
// libm (exact: below 2^52 the integer part and the remainder are exact).
PD_INLINE double pd_round_half_away(double v) {
  if (!(v > -4503599627370496.0 && v < 4503599627370496.0)) return v;  // integral, inf, NaN
  const double whole = (double)(int64_t)v;
  const double rest = v - whole;
  double rounded = whole;
  if (rest >= 0.5) rounded = whole + 1.0;
  if (rest <= -0.5) rounded = whole - 1.0;
  return __builtin_copysign(rounded, v);
}
// XXH3-64 (seed 0, the default secret) of one u64's eight little-endian
// bytes: the algorithm's 4-to-8-byte path, whose two secret words are
// bytes 8..23 of the default secret (rtlib/xxh3.hpp has the whole hash).
PD_INLINE uint64_t pd_xxh3_u64_inline(uint64_t x) {
  const uint64_t secret8 = 0x1cad21f72c81017cULL, secret16 = 0xdb979083e96dd4deULL;
  const uint64_t prime = 0x9FB21C651E98DF25ULL;
  // The two 4-byte halves, swapped: input2 + (input1 << 32).
  uint64_t h = ((x >> 32) | (x << 32)) ^ (secret8 ^ secret16);
  h ^= ((h << 49) | (h >> 15)) ^ ((h << 24) | (h >> 40));
  h *= prime;
  h ^= (h >> 35) + 8;  // + the input's length
  h *= prime;
  return h ^ (h >> 28);
}
// XXH3-64 (seed 0, the default secret) of 16 bytes, `lo` then `hi`, each
// little-endian: the algorithm's 9-to-16-byte path, whose secret words are
// bytes 24..55 of the default secret, folded in pairs (rtlib/xxh3.hpp has
// the whole hash; the tests check the two agree).
PD_INLINE uint64_t pd_xxh3_16_inline(uint64_t lo, uint64_t hi) {
  lo ^= 0x6782737bea4239b9ULL;  // secret[24..32) ^ secret[32..40)
  hi ^= 0xaf56bc3b0996523aULL;  // secret[40..48) ^ secret[48..56)
  uint64_t high;
  const uint64_t low = pd_mul_wide(lo, hi, &high);
  uint64_t h = 16 + __builtin_bswap64(lo) + hi + (low ^ high);
  h ^= h >> 37;
  h *= 0x165667919E3779F9ULL;
  return h ^ (h >> 32);
}
// a + b, and 1 in *carry when it wrapped (0 otherwise).
PD_INLINE uint64_t pd_add_carry(uint64_t a, uint64_t b, uint64_t* carry) {
  const uint64_t sum = a + b;
  *carry = sum < a;
  return sum;
}

PD_INLINE double pd_bits_to_f64(uint64_t u) {
  return __builtin_bit_cast(double, u);
}
PD_INLINE uint64_t pd_f64_to_bits(double d) {
  return __builtin_bit_cast(uint64_t, d);
}
PD_INLINE double pd_sqrt_op(double x) {
  return __builtin_sqrt(x);
}
