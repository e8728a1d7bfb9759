// polydat's round-number selectors: a positive, finite x snapped down, up or
// to the closest (ties down) power of ten, multiple of its power of ten,
// Fibonacci number (1, 2, 3, 5, 8, ...) or power of two; 0 for any other x.
// And x rounded to a multiple of an interval (x itself when the interval is
// not positive and finite). Powers are built as LLVM's powi builds them
// (polydat's f64::powi), so every value is polydat's; only + - * / and
// integer operations, so every engine and the GPU agree.
#include "rtlib.h"

namespace {

bool positive_finite(double x) {
  return x > 0.0 && x - x == 0.0;
}

// base^e by squaring, 1 / base^|e| for a negative e (compiler-rt's
// __powidf2, which Rust's powi calls).
double powi(double base, int e) {
  unsigned n = e < 0 ? 0u - (unsigned)e : (unsigned)e;
  double r = 1.0;
  for (;;) {
    if (n & 1) r *= base;
    n /= 2;
    if (n == 0) break;
    base *= base;
  }
  return e < 0 ? 1.0 / r : r;
}

// The largest power `base`^e <= x (x positive and finite), the powers as
// powi makes them: e estimated from x's binary exponent (within one of
// floor(log_base x)) and stepped until the power is the largest one <= x.
// polydat steps once from its log10's estimate, which lands on the same
// power (its estimate is never below the true floor of log10 x).
double floor_power(double x, double base, double log_base_of_2) {
  const uint64_t bits = pd_f64_to_bits(x);
  const int binary = (bits >> 52) == 0 ? -1023 : (int)(bits >> 52) - 1023;  // subnormals: below
  int e = (int)pd_floor_exact((double)binary * log_base_of_2);
  while (e > -1100 && powi(base, e) > x) --e;
  while (e < 1100 && powi(base, e + 1) <= x) ++e;
  return powi(base, e);
}

double ceiling_power(double x, double base, double log_base_of_2) {
  const double low = floor_power(x, base, log_base_of_2);
  return low == x ? low : low * base;
}

// Whichever is nearer x; the lower on a tie.
double closest(double x, double low, double high) {
  const double above = high - x, below = x - low;
  return pd_abs_f64(above) < pd_abs_f64(below) ? high : low;
}

constexpr double kLog10Of2 = 0.30102999566398119521;

double ceil_exact(double x) {
  return -pd_floor_exact(-x);
}

double floor_fibonacci(double x) {
  if (x < 1.0) return 0.0;
  double a = 1.0, b = 2.0;
  while (b <= x) {
    const double next = a + b;
    a = b;
    b = next;
    if (b - b != 0.0) return a;
  }
  return a;
}

double ceiling_fibonacci(double x) {
  double a = 1.0, b = 2.0;
  if (x <= a) return a;
  for (;;) {
    if (b >= x) return b;
    const double next = a + b;
    a = b;
    b = next;
    if (b - b != 0.0) return b;
  }
}

bool usable_interval(double interval) {
  return interval > 0.0 && interval - interval == 0.0;
}

}  // namespace

PD_API double pd_floor_base10(double x) {
  return positive_finite(x) ? floor_power(x, 10.0, kLog10Of2) : 0.0;
}
PD_API double pd_ceiling_base10(double x) {
  return positive_finite(x) ? ceiling_power(x, 10.0, kLog10Of2) : 0.0;
}
PD_API double pd_closest_base10(double x) {
  if (!positive_finite(x)) return 0.0;
  return closest(x, floor_power(x, 10.0, kLog10Of2), ceiling_power(x, 10.0, kLog10Of2));
}

PD_API double pd_floor_decade(double x) {
  if (!positive_finite(x)) return 0.0;
  const double base = floor_power(x, 10.0, kLog10Of2);
  return pd_floor_exact(x / base) * base;
}
PD_API double pd_ceiling_decade(double x) {
  if (!positive_finite(x)) return 0.0;
  const double base = floor_power(x, 10.0, kLog10Of2);
  return ceil_exact(x / base) * base;
}
PD_API double pd_closest_decade(double x) {
  if (!positive_finite(x)) return 0.0;
  const double base = floor_power(x, 10.0, kLog10Of2);
  return pd_round_half_away(x / base) * base;
}

PD_API double pd_floor_fibonacci(double x) {
  return positive_finite(x) ? floor_fibonacci(x) : 0.0;
}
PD_API double pd_ceiling_fibonacci(double x) {
  return positive_finite(x) ? ceiling_fibonacci(x) : 0.0;
}
PD_API double pd_closest_fibonacci(double x) {
  return positive_finite(x) ? closest(x, floor_fibonacci(x), ceiling_fibonacci(x)) : 0.0;
}

PD_API double pd_floor_binomial(double x) {
  return positive_finite(x) ? floor_power(x, 2.0, 1.0) : 0.0;
}
PD_API double pd_ceiling_binomial(double x) {
  return positive_finite(x) ? ceiling_power(x, 2.0, 1.0) : 0.0;
}
PD_API double pd_closest_binomial(double x) {
  if (!positive_finite(x)) return 0.0;
  return closest(x, floor_power(x, 2.0, 1.0), ceiling_power(x, 2.0, 1.0));
}

PD_API double pd_round_floor(double x, double interval) {
  return usable_interval(interval) ? pd_floor_exact(x / interval) * interval : x;
}
PD_API double pd_round_ceiling(double x, double interval) {
  return usable_interval(interval) ? ceil_exact(x / interval) * interval : x;
}
PD_API double pd_round_nearest(double x, double interval) {
  return usable_interval(interval) ? pd_round_half_away(x / interval) * interval : x;
}
