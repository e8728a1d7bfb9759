// f32 vectors as the vector nodes write them on every tier: the host steps
// of the CPU tiers (core/nodes/nodes_vector.cpp) and the device text of GPU
// kernels (device_text.cpp's pd_vec_*). Freestanding, as text_writers.h, so
// the one source compiles with g++ and to bitcode for the host and nvptx64.
// A vector's elements are little-endian f32s where they lie (byte loads and
// stores: a payload has no alignment); sums run in element order from -0.0,
// each product rounded before it is added (fp-contract off), as polydat's
// scalar reference computes them, so every tier and device gives the same
// bits.
#pragma once

#include "pd_rt.h"
#include "rtlib.h"
#include "splitmix.h"

namespace polyrt::rt {

inline float f32_at(const char* bytes, uint64_t i) {
  float v;
  __builtin_memcpy(&v, bytes + 4 * i, 4);
  return v;
}

inline void store_f32(char* out, uint64_t i, float v) {
  __builtin_memcpy(out + 4 * i, &v, 4);
}

// The f32 sum of the products of a's and b's elements, in element order
// (Rust's f32 sum, from -0.0).
inline float dot_f32(const char* a, const char* b, uint64_t n) {
  float sum = -0.0f;
  for (uint64_t i = 0; i < n; ++i) sum += f32_at(a, i) * f32_at(b, i);
  return sum;
}

// Every element of a times k, in f32.
inline void write_scaled_f32(const char* a, uint64_t n, float k, char* out) {
  for (uint64_t i = 0; i < n; ++i) store_f32(out, i, f32_at(a, i) * k);
}

// a times 1 / |a| rounded to f32 (|a| the f64 square root of the f32 sum of
// squares); a zero vector as it is.
inline void write_unit_f32(const char* a, uint64_t n, char* out) {
  const double magnitude = pd_sqrt_op((double)dot_f32(a, a, n));
  if (magnitude == 0.0) {
    for (uint64_t b = 0; b < 4 * n; ++b) out[b] = a[b];
  } else {
    write_scaled_f32(a, n, (float)(1.0 / magnitude), out);
  }
}

// A hash as an element in [-1, 1]: h / 2^64 * 2 - 1 in f64 (polydat divides
// by u64::MAX as f64, which is 2^64: the same exact scaling as * 2^-63),
// rounded to f32.
inline float signed_unit_f32(uint64_t h) {
  return (float)((double)h * 0x1p-63 - 1.0);
}

// hash_vec's dim elements: element i is splitmix64(seed + i * golden ratio).
inline void write_hash_vec(uint64_t seed, uint64_t dim, char* out) {
  for (uint64_t i = 0; i < dim; ++i) {
    store_f32(out, i, signed_unit_f32(splitmix64(seed + i * 0x9E3779B97F4A7C15ull)));
  }
}

// xxhash3_vec's dim elements: element i is XXH3-64 of the 16 bytes seed, i.
inline void write_xxhash3_vec(uint64_t seed, uint64_t dim, char* out) {
  for (uint64_t i = 0; i < dim; ++i) store_f32(out, i, signed_unit_f32(pd_xxh3_16_inline(seed, i)));
}

// a + b, element by element, in f32.
inline void write_sum_f32(const char* a, const char* b, uint64_t n, char* out) {
  for (uint64_t i = 0; i < n; ++i) store_f32(out, i, f32_at(a, i) + f32_at(b, i));
}

// The f32 sum of the squared f32 differences, in element order.
inline float squared_distance_f32(const char* a, const char* b, uint64_t n) {
  float sum = -0.0f;
  for (uint64_t i = 0; i < n; ++i) {
    const float d = f32_at(a, i) - f32_at(b, i);
    sum += d * d;
  }
  return sum;
}

// The Euclidean distance: the f64 square root of the f32 sum of squares.
inline double l2_distance(const char* a, const char* b, uint64_t n) {
  return pd_sqrt_op((double)squared_distance_f32(a, b, n));
}

// dot(a, b) / (|a| |b|), the norms the f64 square roots of the f32 dots; 0
// when either norm is 0.
inline double cosine_similarity(const char* a, const char* b, uint64_t n) {
  const double na = pd_sqrt_op((double)dot_f32(a, a, n));
  const double nb = pd_sqrt_op((double)dot_f32(b, b, n));
  return na == 0.0 || nb == 0.0 ? 0.0 : (double)dot_f32(a, b, n) / (na * nb);
}

// Levina-Bickel's estimate of the local intrinsic dimension from n ascending
// neighbour distances: m / sum(ln(r_k / r_j)) over the m positive r_j before
// r_k; 0 when it is degenerate (k < 2, r_k <= 0, no term, no spread).
inline double lid_mle(const char* distances, uint64_t n, double k_arg) {
  // k as Rust's `as usize` reads an f64 (truncated; NaN and below 0 are 0),
  // cut to the length.
  const double clamped = k_arg > 0.0 ? k_arg : 0.0;
  const uint64_t k = clamped >= (double)n ? n : (uint64_t)clamped;
  if (k < 2) return 0.0;
  const double r_k = f32_at(distances, k - 1);
  if (!(r_k > 0.0)) return 0.0;
  const double ln_rk = pd_ln(r_k);
  double sum = 0.0;
  uint32_t terms = 0;
  for (uint64_t j = 0; j + 1 < k; ++j) {
    const double r_j = f32_at(distances, j);
    if (r_j > 0.0) {
      sum += ln_rk - pd_ln(r_j);
      ++terms;
    }
  }
  return terms == 0 || !(sum > 0.0) ? 0.0 : (double)terms / sum;
}

}  // namespace polyrt::rt
