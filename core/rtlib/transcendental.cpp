// polyrt's own elementary functions. Only + - * /, sqrt and integer operations
// are used, and the build forbids FP contraction, so every target that runs
// this source (g++ native, the JIT, the GPU) computes bit-identical results.
// Accuracy is measured against long double in tests/math_accuracy_test.cpp and
// documented in docs/nodes.md.
#include "math_constants.h"
#include "rtlib.h"

namespace {

const double kInf = __builtin_inf();
const double kNaN = __builtin_nan("");
const double kLn2Hi = 0x1.62e42fee00000p-1;  // 32 significant bits: k * hi is exact
const double kLn2Lo = 0x1.a39ef35793c76p-33;

PD_INLINE double pow2i(int n) {
  return pd_bits_to_f64((uint64_t)(n + 1023) << 52);
}

PD_INLINE void two_sum(double a, double b, double* s, double* e) {
  *s = a + b;
  double bb = *s - a;
  *e = (a - (*s - bb)) + (b - bb);
}

// Veltkamp split and Dekker product: a * b = *p + *e exactly (no fma needed).
PD_INLINE void split(double a, double* hi, double* lo) {
  double c = 134217729.0 * a;
  *hi = c - (c - a);
  *lo = a - *hi;
}

PD_INLINE void two_prod(double a, double b, double* p, double* e) {
  *p = a * b;
  double ah, al, bh, bl;
  split(a, &ah, &al);
  split(b, &bh, &bl);
  *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

// exp(x + xt) for a small tail xt.
double exp_dd(double x, double xt) {
  if (x != x) return x + x;
  if (x > 0x1.62e42fefa39efp+9) return kInf;
  if (x < -0x1.74910d52d3051p+9) return 0.0;
  const double kd = (x * 0x1.71547652b82fep+0 + 0x1.8p52) - 0x1.8p52;
  const int k = (int)kd;
  const double hi = x - kd * kLn2Hi;
  const double lo = kd * kLn2Lo - xt;
  const double r = hi - lo;
  double q = 1.0 / 6227020800.0;  // 1/13!
  q = q * r + 1.0 / 479001600.0;
  q = q * r + 1.0 / 39916800.0;
  q = q * r + 1.0 / 3628800.0;
  q = q * r + 1.0 / 362880.0;
  q = q * r + 1.0 / 40320.0;
  q = q * r + 1.0 / 5040.0;
  q = q * r + 1.0 / 720.0;
  q = q * r + 1.0 / 120.0;
  q = q * r + 1.0 / 24.0;
  q = q * r + 1.0 / 6.0;
  q = q * r + 0.5;
  const double y = 1.0 + (r + r * r * q);
  if (k > 1023) return y * 0x1p1023 * pow2i(k - 1023);
  if (k < -1022) return (y * pow2i(k + 1000)) * 0x1p-1000;  // one rounding into subnormals
  return y * pow2i(k);
}

// ln(x) = *hi + *lo for finite x > 0, accurate to about 2^-100 relative, so
// that pow can scale it by a large exponent. x = 2^e * m with m near 1, then
// m = c * (1 + r) with c = 1 + k/64 from a table and |r| <= 1/128 kept as a
// double-double; ln(1 + r) is a short series whose leading terms are exact.
void ln_dd(double x, double* hi, double* lo) {
  uint64_t ux = pd_f64_to_bits(x);
  int e = 0;
  if (ux < 0x0010000000000000ULL) {
    ux = pd_f64_to_bits(x * 0x1p54);
    e = -54;
  }
  e += (int)(ux >> 52) - 1023;
  uint64_t mbits = (ux & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
  if (mbits > 0x3ff6a09e667f3bcdULL) {  // m > sqrt(2): use m/2
    mbits -= 0x0010000000000000ULL;
    e += 1;
  }
  const double m = pd_bits_to_f64(mbits);
  const int k = (int)((m - 1.0) * 64.0 + 64.5) - 64;  // round((m - 1) * 64)
  const double c = 1.0 + (double)k * 0x1p-6;
  const double d = m - c;  // exact: m and c are within a factor of two
  // r = d / c as rh + rl: the division's remainder is computed exactly.
  const double rh = d / c;
  double p, pe;
  two_prod(rh, c, &p, &pe);
  const double rl = ((d - p) - pe) / c;
  // ln(1 + r) = r - r^2/2 + r^3 * (1/3 - r/4 + r^2/5 - ...).
  double sq, sqe;
  two_prod(rh, rh, &sq, &sqe);
  double q = -1.0 / 10.0;
  q = q * rh + 1.0 / 9.0;
  q = q * rh - 1.0 / 8.0;
  q = q * rh + 1.0 / 7.0;
  q = q * rh - 1.0 / 6.0;
  q = q * rh + 1.0 / 5.0;
  q = q * rh - 1.0 / 4.0;
  q = q * rh + 1.0 / 3.0;
  const double cubic = rh * sq * q;
  const double ed = (double)e;
  double s1, t1, s2, t2, s3, t3;
  two_sum(ed * kLn2Hi, pd_ln_table_hi[k + 24], &s1, &t1);
  two_sum(s1, rh, &s2, &t2);
  two_sum(s2, -0.5 * sq, &s3, &t3);
  const double tail =
      t1 + t2 + t3 + (ed * kLn2Lo + pd_ln_table_lo[k + 24] + rl - 0.5 * sqe - rh * rl + cubic);
  two_sum(s3, tail, hi, lo);
}

// sin(y + yt) for |y| <= pi/4.
double sin_kernel(double y, double yt) {
  const double z = y * y;
  double q = -1.0 / 121645100408832000.0;  // -1/19!
  q = q * z + 1.0 / 355687428096000.0;
  q = q * z - 1.0 / 1307674368000.0;
  q = q * z + 1.0 / 6227020800.0;
  q = q * z - 1.0 / 39916800.0;
  q = q * z + 1.0 / 362880.0;
  q = q * z - 1.0 / 5040.0;
  q = q * z + 1.0 / 120.0;
  q = q * z - 1.0 / 6.0;
  return y + (y * z * q + yt * (1.0 - 0.5 * z));
}

// cos(y + yt) for |y| <= pi/4.
double cos_kernel(double y, double yt) {
  const double z = y * y;
  double q = 1.0 / 2432902008176640000.0;  // 1/20!
  q = q * z - 1.0 / 6402373705728000.0;
  q = q * z + 1.0 / 20922789888000.0;
  q = q * z - 1.0 / 87178291200.0;
  q = q * z + 1.0 / 479001600.0;
  q = q * z - 1.0 / 3628800.0;
  q = q * z + 1.0 / 40320.0;
  q = q * z - 1.0 / 720.0;
  q = q * z + 1.0 / 24.0;
  const double hz = 0.5 * z;
  const double w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + (z * z * q - y * yt));
}

uint64_t bits_of_two_over_pi(int offset) {  // 64 bits starting at bit `offset` (0-based)
  const int word = offset >> 6;
  const int shift = offset & 63;
  const uint64_t a = word < 20 ? pd_two_over_pi_bits[word] : 0;
  if (shift == 0) return a;
  const uint64_t b = word + 1 < 20 ? pd_two_over_pi_bits[word + 1] : 0;
  return (a << shift) | (b >> (64 - shift));
}

uint64_t bits_of_product(const uint64_t* p, int offset) {  // 64 bits of a 256-bit number
  const int word = offset >> 6;
  const int shift = offset & 63;
  if (shift == 0) return p[word];
  const uint64_t hi = word + 1 < 4 ? p[word + 1] : 0;
  return (p[word] >> shift) | (hi << (64 - shift));
}

int count_leading_zeros(uint64_t x) {
  return x == 0 ? 64 : __builtin_clzll(x);
}

// Payne-Hanek reduction: |x| = n * pi/2 + (*rh + *rl), |r| <= pi/4; returns n mod 4.
int reduce_pio2(double x, double* rh, double* rl) {
  const bool negative = x < 0;
  const uint64_t ux = pd_f64_to_bits(x) & 0x7fffffffffffffffULL;
  const uint64_t m = (ux & 0x000fffffffffffffULL) | (1ULL << 52);
  const int q = (int)(ux >> 52) - 1075;  // |x| = m * 2^q, q >= -53 here
  // Bits of 2/pi before index q - 1 only add multiples of 4 to |x| * 2/pi.
  const int first = q >= 2 ? q - 1 : 1;
  const uint64_t w0 = bits_of_two_over_pi(first - 1);
  const uint64_t w1 = bits_of_two_over_pi(first - 1 + 64);
  const uint64_t w2 = bits_of_two_over_pi(first - 1 + 128);
  // p = m * (w0 * 2^128 + w1 * 2^64 + w2), four words, least significant first.
  uint64_t t2_high, t1_high, t0_high, carry, carry2;
  uint64_t p[4];
  p[0] = pd_mul_wide(m, w2, &t2_high);
  p[1] = pd_add_carry(t2_high, pd_mul_wide(m, w1, &t1_high), &carry);
  p[2] = pd_add_carry(t1_high, carry, &carry2);
  const uint64_t t0_low = pd_mul_wide(m, w0, &t0_high);
  p[2] = pd_add_carry(p[2], t0_low, &carry);
  p[3] = t0_high + carry + carry2;
  const int point = first + 191 - q;  // binary point of the product, from its LSB
  int n = (int)(bits_of_product(p, point) & 3);
  uint64_t fh = bits_of_product(p, point - 64);
  uint64_t fl = bits_of_product(p, point - 128);
  bool frac_negative = false;
  if (fh >> 63) {  // fraction >= 1/2: round the quotient up, the remainder goes negative
    n = (n + 1) & 3;
    frac_negative = true;
    fh = ~fh;
    fl = ~fl + 1;
    if (fl == 0) fh += 1;
  }
  double hi = 0.0, lo = 0.0;
  if (fh != 0 || fl != 0) {
    const int lz = fh != 0 ? count_leading_zeros(fh) : 64 + count_leading_zeros(fl);
    uint64_t nh, nl;  // the fraction shifted so its top bit is bit 127
    if (lz >= 64) {
      nh = fl << (lz - 64);
      nl = 0;
    } else if (lz == 0) {
      nh = fh;
      nl = fl;
    } else {
      nh = (fh << lz) | (fl >> (64 - lz));
      nl = fl << lz;
    }
    const uint64_t top = nh >> 11;                               // 53 bits
    const uint64_t next = ((nh & 0x7ffULL) << 42) | (nl >> 22);  // the next 53 bits
    hi = (double)top * pow2i(-128 + 75 - lz);
    lo = (double)next * pow2i(-128 + 22 - lz);
  }
  double ph, pl;
  two_prod(hi, PD_PIO2_HI, &ph, &pl);
  pl += hi * PD_PIO2_LO + lo * PD_PIO2_HI;
  two_sum(ph, pl, rh, rl);
  if (frac_negative != negative) {
    *rh = -*rh;
    *rl = -*rl;
  }
  return negative ? (4 - n) & 3 : n;
}

const double kPiOver4 = 0x1.921fb54442d18p-1;

// atan for finite or infinite x, via atan(k/8) tables.
double atan_impl(double x) {
  if (x != x || x == 0.0) return x;
  const bool negative = x < 0;
  double a = negative ? -x : x;
  const bool invert = a > 1.0;
  if (invert) a = 1.0 / a;
  const int k = (int)(a * 8.0 + 0.5);
  const double c = (double)k * 0.125;
  const double u = k == 0 ? a : (a - c) / (1.0 + a * c);
  const double z = u * u;
  double q = 1.0 / 17.0;
  q = q * z - 1.0 / 15.0;
  q = q * z + 1.0 / 13.0;
  q = q * z - 1.0 / 11.0;
  q = q * z + 1.0 / 9.0;
  q = q * z - 1.0 / 7.0;
  q = q * z + 1.0 / 5.0;
  q = q * z - 1.0 / 3.0;
  const double at = u + u * z * q;
  double result;
  if (invert) {
    double s, e;
    two_sum(PD_PIO2_HI, -pd_atan_k8_hi[k], &s, &e);
    result = s + (e + PD_PIO2_LO - (pd_atan_k8_lo[k] + at));
  } else {
    result = pd_atan_k8_hi[k] + (pd_atan_k8_lo[k] + at);
  }
  return negative ? -result : result;
}

bool is_integer(double y) {
  const double a = y < 0 ? -y : y;
  if (a >= 0x1p52) return true;
  return (double)(int64_t)y == y;
}

bool is_odd_integer(double y) {
  const double a = y < 0 ? -y : y;
  if (a >= 0x1p53) return false;
  return is_integer(y) && ((int64_t)y & 1) != 0;
}

}  // namespace

PD_API double pd_sqrt(double x) {
  return pd_sqrt_op(x);
}

PD_API double pd_exp(double x) {
  return exp_dd(x, 0.0);
}

PD_API double pd_ln(double x) {
  if (x != x) return x;
  if (x < 0.0) return kNaN;
  if (x == 0.0) return -kInf;
  if (x == kInf) return kInf;
  double hi, lo;
  ln_dd(x, &hi, &lo);
  return hi + lo;
}

PD_API double pd_pow(double x, double y) {
  if (y == 0.0 || x == 1.0) return 1.0;
  if (x != x || y != y) return kNaN;
  const double ax = pd_abs_f64(x);
  if (y == kInf || y == -kInf) {
    if (ax == 1.0) return 1.0;
    return (ax < 1.0) == (y > 0) ? 0.0 : kInf;
  }
  const bool y_odd = is_odd_integer(y);
  if (x == 0.0) {
    const double r = y < 0 ? kInf : 0.0;
    return (y_odd && pd_f64_to_bits(x) >> 63) ? -r : r;
  }
  if (ax == kInf) {
    const double r = y < 0 ? 0.0 : kInf;
    return (y_odd && x < 0) ? -r : r;
  }
  double sign = 1.0;
  if (x < 0) {
    if (!is_integer(y)) return kNaN;
    if (y_odd) sign = -1.0;
  }
  double lh, ll;
  ln_dd(ax, &lh, &ll);
  const double estimate = y * lh;
  if (estimate > 710.0) return sign * kInf;
  if (estimate < -746.0) return sign * 0.0;
  double th, tl;
  two_prod(y, lh, &th, &tl);
  tl += y * ll;
  double sh, sl;
  two_sum(th, tl, &sh, &sl);
  return sign * exp_dd(sh, sl);
}

PD_API double pd_sin(double x) {
  if (x - x != 0.0) return kNaN;  // inf or NaN
  if (x == 0.0) return x;         // keeps the sign of zero
  if (pd_abs_f64(x) <= kPiOver4) return sin_kernel(x, 0.0);
  double rh, rl;
  const int n = reduce_pio2(x, &rh, &rl);
  switch (n) {
    case 0:
      return sin_kernel(rh, rl);
    case 1:
      return cos_kernel(rh, rl);
    case 2:
      return -sin_kernel(rh, rl);
    default:
      return -cos_kernel(rh, rl);
  }
}

PD_API double pd_cos(double x) {
  if (x - x != 0.0) return kNaN;
  if (pd_abs_f64(x) <= kPiOver4) return cos_kernel(x, 0.0);
  double rh, rl;
  const int n = reduce_pio2(x, &rh, &rl);
  switch (n) {
    case 0:
      return cos_kernel(rh, rl);
    case 1:
      return -sin_kernel(rh, rl);
    case 2:
      return -cos_kernel(rh, rl);
    default:
      return sin_kernel(rh, rl);
  }
}

PD_API double pd_tan(double x) {
  if (x - x != 0.0) return kNaN;
  if (x == 0.0) return x;
  double rh = x, rl = 0.0;
  int n = 0;
  if (pd_abs_f64(x) > kPiOver4) n = reduce_pio2(x, &rh, &rl);
  const double s = sin_kernel(rh, rl);
  const double c = cos_kernel(rh, rl);
  return (n & 1) ? -c / s : s / c;
}

PD_API double pd_atan(double x) {
  return atan_impl(x);
}

PD_API double pd_atan2(double y, double x) {
  if (x != x || y != y) return kNaN;
  // pi as a double-double: twice pi/2's parts (doubling is exact).
  const double pi_hi = 2.0 * PD_PIO2_HI, pi_lo = 2.0 * PD_PIO2_LO;
  const bool y_negative = __builtin_signbit(y), x_negative = __builtin_signbit(x);
  const double sign = y_negative ? -1.0 : 1.0;
  const double inf = __builtin_inf();
  if (y == 0.0) return x_negative ? sign * pi_hi : y;
  if (x == 0.0) return sign * PD_PIO2_HI;
  if (y == inf || y == -inf) {
    if (x == inf) return sign * 0.5 * PD_PIO2_HI;
    if (x == -inf) return sign * (PD_PIO2_HI + 0.5 * PD_PIO2_HI);
    return sign * PD_PIO2_HI;
  }
  if (x == inf) return sign * 0.0;
  if (x == -inf) return sign * pi_hi;
  const double a = atan_impl(y / x);
  if (!x_negative) return a;
  // atan(y / x) is within (-pi/2, pi/2); the quadrant adds or takes away pi.
  return y_negative ? (a - pi_hi) - pi_lo : (a + pi_hi) + pi_lo;
}

PD_API double pd_asin(double x) {
  if (x != x) return x;
  if (x > 1.0 || x < -1.0) return kNaN;
  return atan_impl(x / pd_sqrt_op((1.0 - x) * (1.0 + x)));
}

PD_API double pd_acos(double x) {
  if (x != x) return x;
  if (x > 1.0 || x < -1.0) return kNaN;
  return 2.0 * atan_impl(pd_sqrt_op((1.0 - x) / (1.0 + x)));
}
