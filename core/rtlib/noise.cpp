// Coherent noise over u64 coordinates scaled by a frequency: improved Perlin
// noise in one and two dimensions, 2D simplex noise, and fractal Brownian
// motion (octaves of Perlin noise, each at twice the frequency and half the
// amplitude). Every operation is polydat's, in its order (its results to
// the bit): coordinates cell by floor, cells saturated to i32 and hashed
// through a 256-entry permutation that the node prepares from its seed.
#include "rtlib.h"

namespace {

// Rust's `as i32`: saturating, NaN to 0.
PD_INLINE int32_t saturate_i32(double x) {
  if (x != x) return 0;
  if (x >= 2147483647.0) return 2147483647;
  if (x <= -2147483648.0) return (int32_t)(-2147483647 - 1);
  return (int32_t)x;
}

// i32 addition that wraps, as the permutation indices do.
PD_INLINE int32_t add_i32(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}

PD_INLINE int32_t cell(const uint64_t* perm, int32_t i) {
  return (int32_t)perm[(uint32_t)i & 255];
}

PD_INLINE double fade(double t) {
  return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}

PD_INLINE double mix(double t, double a, double b) {
  return a + t * (b - a);
}

PD_INLINE double gradient_1d(int32_t hash, double x) {
  return (hash & 1) == 0 ? x : -x;
}

PD_INLINE double gradient_2d(int32_t hash, double x, double y) {
  switch (hash & 3) {
    case 0:
      return x + y;
    case 1:
      return -x + y;
    case 2:
      return x - y;
    default:
      return -x - y;
  }
}

PD_INLINE double perlin_1d_at(const uint64_t* perm, double x) {
  const double floor_x = pd_floor_exact(x);
  const int32_t xi = saturate_i32(floor_x);
  const double xf = x - floor_x;
  return mix(fade(xf), gradient_1d(cell(perm, xi), xf),
             gradient_1d(cell(perm, add_i32(xi, 1)), xf - 1.0));
}

PD_INLINE double perlin_2d_at(const uint64_t* perm, double x, double y) {
  const double floor_x = pd_floor_exact(x), floor_y = pd_floor_exact(y);
  const int32_t xi = saturate_i32(floor_x), yi = saturate_i32(floor_y);
  const double xf = x - floor_x, yf = y - floor_y;
  const double u = fade(xf), v = fade(yf);
  const int32_t a = cell(perm, xi), b = cell(perm, add_i32(xi, 1));
  const int32_t aa = cell(perm, add_i32(a, yi)), ab = cell(perm, add_i32(add_i32(a, yi), 1));
  const int32_t ba = cell(perm, add_i32(b, yi)), bb = cell(perm, add_i32(add_i32(b, yi), 1));
  return mix(v, mix(u, gradient_2d(aa, xf, yf), gradient_2d(ba, xf - 1.0, yf)),
             mix(u, gradient_2d(ab, xf, yf - 1.0), gradient_2d(bb, xf - 1.0, yf - 1.0)));
}

// One corner's contribution to simplex noise.
PD_INLINE double corner(int32_t hash, double x, double y) {
  double t = 0.5 - x * x - y * y;
  if (!(t > 0.0)) return 0.0;
  t = t * t;
  return t * t * gradient_2d(hash, x, y);
}

}  // namespace

PD_API double pd_perlin_1d(uint64_t x, double frequency, const uint64_t* perm) {
  return perlin_1d_at(perm, (double)x * frequency);
}

PD_API double pd_perlin_2d(uint64_t x, uint64_t y, double frequency, const uint64_t* perm) {
  return perlin_2d_at(perm, (double)x * frequency, (double)y * frequency);
}

PD_API double pd_simplex_2d(uint64_t x_in, uint64_t y_in, double frequency, const uint64_t* perm) {
  const double skew = 0.3660254037844386;     // (sqrt(3) - 1) / 2
  const double unskew = 0.21132486540518713;  // (3 - sqrt(3)) / 6
  const double x = (double)x_in * frequency, y = (double)y_in * frequency;
  const double s = (x + y) * skew;
  const int32_t i = saturate_i32(pd_floor_exact(x + s)), j = saturate_i32(pd_floor_exact(y + s));
  const double t = (double)add_i32(i, j) * unskew;
  const double x0 = x - ((double)i - t), y0 = y - ((double)j - t);
  const int32_t i1 = x0 > y0 ? 1 : 0, j1 = x0 > y0 ? 0 : 1;
  const double x1 = x0 - (double)i1 + unskew, y1 = y0 - (double)j1 + unskew;
  const double x2 = x0 - 1.0 + 2.0 * unskew, y2 = y0 - 1.0 + 2.0 * unskew;
  const int32_t g0 = cell(perm, add_i32(i, cell(perm, j)));
  const int32_t g1 = cell(perm, add_i32(add_i32(i, i1), cell(perm, add_i32(j, j1))));
  const int32_t g2 = cell(perm, add_i32(add_i32(i, 1), cell(perm, add_i32(j, 1))));
  return 70.0 * (corner(g0, x0, y0) + corner(g1, x1, y1) + corner(g2, x2, y2));
}

PD_API double pd_fractal_noise_1d(uint64_t x, double frequency, uint64_t octaves,
                                  const uint64_t* perm) {
  const double base = (double)x;
  double total = 0.0, scale = frequency, amplitude = 1.0, amplitudes = 0.0;
  for (uint64_t k = 0; k < octaves; ++k) {
    total += perlin_1d_at(perm, base * scale) * amplitude;
    amplitudes += amplitude;
    scale *= 2.0;
    amplitude *= 0.5;
  }
  return total / amplitudes;
}

PD_API double pd_fractal_noise_2d(uint64_t x, uint64_t y, double frequency, uint64_t octaves,
                                  const uint64_t* perm) {
  const double base_x = (double)x, base_y = (double)y;
  double total = 0.0, scale = frequency, amplitude = 1.0, amplitudes = 0.0;
  for (uint64_t k = 0; k < octaves; ++k) {
    total += perlin_2d_at(perm, base_x * scale, base_y * scale) * amplitude;
    amplitudes += amplitude;
    scale *= 2.0;
    amplitude *= 0.5;
  }
  return total / amplitudes;
}
