// Exact-tail samplers: each distribution's inverse CDF at u, accurate over
// the whole open interval (0, 1) rather than tabulated and clipped as
// polydat's dist_* nodes are; where no closed form exists (gamma, beta,
// Poisson, binomial, Zipf), exact rejection methods on uniforms drawn from
// the row's input. The normal quantile is Wichura's AS241
// (1988; about 1e-16 relative), the others closed forms on an accurate
// log1p. Only + - * /, sqrt and polyrt's own ln and exp: the same bits on
// every host and on the GPU. The logarithm is pd_ln_vector (within one
// ulp, no table, no branch), so that the closed forms vectorize in batch
// kernels.
#include "ln_vector.h"
#include "rtlib.h"
#include "splitmix.h"

namespace {

constexpr double kInfinity = __builtin_inf();

// ln(1 + x) for x > -1, accurate where 1 + x rounds (Goldberg's
// correction: the rounding of 1 + x divides out).
double log1p_accurate(double x) {
  const double y = 1.0 + x;
  if (y == 1.0) return x;
  return pd_ln_vector(y) * (x / (y - 1.0));
}

double horner(const double* c, int n, double r) {
  double v = c[0];
  for (int k = 1; k < n; ++k) v = v * r + c[k];
  return v;
}

}  // namespace

PD_API double pd_normal_quantile(double u) {
  if (u != u) return u;
  if (u <= 0.0) return -kInfinity;
  if (u >= 1.0) return kInfinity;
  const double q = u - 0.5;
  if (q <= 0.425 && q >= -0.425) {
    static const double a[8] = {2.5090809287301226727e+3, 3.3430575583588128105e+4,
                                6.7265770927008700853e+4, 4.5921953931549871457e+4,
                                1.3731693765509461125e+4, 1.9715909503065514427e+3,
                                1.3314166789178437745e+2, 3.3871328727963666080e+0};
    static const double b[8] = {5.2264952788528545610e+3, 2.8729085735721942674e+4,
                                3.9307895800092710610e+4, 2.1213794301586595867e+4,
                                5.3941960214247511077e+3, 6.8718700749205790830e+2,
                                4.2313330701600911252e+1, 1.0};
    const double r = 0.180625 - q * q;
    return q * horner(a, 8, r) / horner(b, 8, r);
  }
  // The tail: 1 - u is exact for u >= 0.5.
  double r = pd_sqrt(-pd_ln_vector(q < 0.0 ? u : 1.0 - u));
  double x;
  if (r <= 5.0) {
    static const double c[8] = {7.74545014278341407640e-4, 2.27238449892691845833e-2,
                                2.41780725177450611770e-1, 1.27045825245236838258e+0,
                                3.64784832476320460504e+0, 5.76949722146069140550e+0,
                                4.63033784615654529590e+0, 1.42343711074968357734e+0};
    static const double d[8] = {1.05075007164441684324e-9, 5.47593808499534494600e-4,
                                1.51986665636164571966e-2, 1.48103976427480074590e-1,
                                6.89767334985100004550e-1, 1.67638483018380384940e+0,
                                2.05319162663775882187e+0, 1.0};
    r -= 1.6;
    x = horner(c, 8, r) / horner(d, 8, r);
  } else {
    static const double e[8] = {2.01033439929228813265e-7, 2.71155556874348757815e-5,
                                1.24266094738807843860e-3, 2.65321895265761230930e-2,
                                2.96560571828504891230e-1, 1.78482653991729133580e+0,
                                5.46378491116411436990e+0, 6.65790464350110377720e+0};
    static const double f[8] = {2.04426310338993978564e-15, 1.42151175831644588870e-7,
                                1.84631831751005468180e-5,  7.86869131145613259100e-4,
                                1.48753612908506148525e-2,  1.36929880922735805310e-1,
                                5.99832206555887937690e-1,  1.0};
    r -= 5.0;
    x = horner(e, 8, r) / horner(f, 8, r);
  }
  return q < 0.0 ? -x : x;
}

namespace {

// -ln(1 - u): the standard exponential's quantile, the others' core.
double standard_exponential(double u) {
  if (u != u) return u;
  if (u <= 0.0) return 0.0;
  if (u >= 1.0) return kInfinity;
  return -log1p_accurate(-u);
}

// e^x - 1, accurate near 0 (Kahan: the rounding of e^x divides out).
double expm1_accurate(double x) {
  const double u = pd_exp(x);
  if (u == 1.0) return x;
  const double um1 = u - 1.0;
  if (um1 == -1.0) return -1.0;
  return um1 * x / pd_ln_vector(u);
}

// (e^x - 1) / x and ln(1 + x) / x, each 1 at 0.
double expm1_over(double x) {
  return x == 0.0 ? 1.0 : expm1_accurate(x) / x;
}
double log1p_over(double x) {
  return x == 0.0 ? 1.0 : log1p_accurate(x) / x;
}

// The uniforms of a sampler that needs several: SplitMix64 from the row's
// input, each in the open interval (0, 1).
struct UniformStream {
  polyrt::rt::SplitMixStream words;
  double next() { return ((double)(words.next() >> 11) + 0.5) * 0x1p-53; }
};

// Rejection-inversion for Zipf (Hoermann and Derflinger, 1996): the hat's
// integral H, the density h and H's inverse, for exponent s.
double zipf_hat_integral(double x, double s) {
  const double log_x = pd_ln_vector(x);
  return expm1_over((1.0 - s) * log_x) * log_x;
}
double zipf_density(double x, double s) {
  return pd_exp(-s * pd_ln_vector(x));
}
double zipf_hat_inverse(double x, double s) {
  double t = x * (1.0 - s);
  if (t < -1.0) t = -1.0;
  return pd_exp(log1p_over(t) * x);
}

}  // namespace

PD_API void pd_zipf_constants(uint64_t n, double s, double* out) {
  out[0] = zipf_hat_integral(1.5, s) - 1.0;
  out[1] = zipf_hat_integral((double)n + 0.5, s);
  out[2] = 2.0 - zipf_hat_inverse(zipf_hat_integral(2.5, s) - zipf_density(2.0, s), s);
}

PD_API uint64_t pd_zipf_table_word(uint64_t threshold, uint64_t alias) {
  return threshold << 20 | alias;
}

PD_API uint64_t pd_sample_zipf(uint64_t x, const double* constants, const uint64_t* table,
                               uint64_t table_size, uint64_t n, double s) {
  UniformStream uniforms{{x}};
  if (table_size != 0) {
    // The product's high word is the slot, its low word the fraction
    // within the slot: uniform in every slot, whatever table_size is.
    uint64_t slot;
    const uint64_t fraction = pd_mul_wide(uniforms.words.next(), table_size, &slot);
    const uint64_t word = table[slot];
    return (fraction >> 20) < (word >> 20) ? slot + 1 : (word & 0xfffff) + 1;
  }
  const double h_first = constants[0], h_last = constants[1], squeeze = constants[2];
  // Almost every row takes one or two uniforms; past 64 tries
  // (probability below 1e-60) rank 1.
  for (int attempt = 0; attempt < 64; ++attempt) {
    const double u = h_last + uniforms.next() * (h_first - h_last);
    const double at = zipf_hat_inverse(u, s);
    const uint64_t k = at < 1.0 ? 1 : at + 0.5 >= (double)n ? n : (uint64_t)(at + 0.5);
    if ((double)k - at <= squeeze ||
        u >= zipf_hat_integral((double)k + 0.5, s) - zipf_density((double)k, s)) {
      return k;
    }
  }
  return 1;
}

PD_API double pd_sample_normal(double u, double mean, double stddev) {
  return mean + stddev * pd_normal_quantile(u);
}

PD_API double pd_sample_lognormal(double u, double mu, double sigma) {
  return pd_exp(mu + sigma * pd_normal_quantile(u));
}

PD_API double pd_sample_exponential(double u, double rate) {
  return standard_exponential(u) / rate;
}

PD_API double pd_sample_pareto(double u, double scale, double shape) {
  return scale * pd_exp(standard_exponential(u) / shape);
}

PD_API double pd_sample_weibull(double u, double shape, double scale) {
  const double e = standard_exponential(u);
  return e == 0.0 ? 0.0 : scale * pd_exp(pd_ln_vector(e) / shape);
}

namespace {

// ln Gamma(shape) sample: Marsaglia and Tsang (2000) for shape >= 1, its
// squeeze taking ~98 % of rows on the first try; below 1, Gamma(shape + 1)
// times U^(1 / shape), kept as a logarithm so that a tiny shape does not
// underflow to 0 (a beta of two tiny shapes needs the ratio).
double log_gamma_sample(UniformStream& uniforms, double shape) {
  double boost = 0.0;
  if (shape < 1.0) {
    boost = pd_ln_vector(uniforms.next()) / shape;
    shape += 1.0;
  }
  const double d = shape - 1.0 / 3.0, c = 1.0 / pd_sqrt(9.0 * d);
  for (int attempt = 0; attempt < 64; ++attempt) {
    const double z = pd_normal_quantile(uniforms.next());
    const double t = 1.0 + c * z;
    if (t <= 0.0) continue;
    const double v = t * t * t, u = uniforms.next(), z2 = z * z;
    if (u < 1.0 - 0.0331 * z2 * z2 ||
        pd_ln_vector(u) < 0.5 * z2 + d * (1.0 - v + pd_ln_vector(v))) {
      return pd_ln_vector(d * v) + boost;
    }
  }
  return pd_ln_vector(d) + boost;  // past 64 tries (probability below 1e-100): the mode
}

// Stirling's remainder: ln x! - (x ln x - x + ln(2 pi x) / 2) for x >= 16
// (its first omitted term below 1e-17 of the result).
double stirling_tail(double x) {
  const double inv = 1.0 / x, inv2 = inv * inv;
  return inv * (1.0 / 12 - inv2 * (1.0 / 360 - inv2 * (1.0 / 1260 - inv2 / 1680)));
}

// ln k! for a whole k >= 0: exact products below 16, Stirling beyond.
double log_factorial(double k) {
  if (k < 16.0) {
    double product = 1.0;
    for (double j = 2.0; j <= k; j += 1.0) product *= j;
    return pd_ln_vector(product);
  }
  return k * pd_ln_vector(k) - k + 0.5 * pd_ln_vector(6.283185307179586477 * k) + stirling_tail(k);
}

// ln (b + d)! - ln b! for whole b, b + d >= 0, accurate when both are huge
// and near each other (a rejection test's few units out of terms of 10^13).
// d comes exact from the caller: b + d may round (near 2^63 a double is
// 1,024 wide), and an error of d multiplies ln b.
double log_factorial_ratio(double b, double d) {
  const double a = b + d;
  if (a < 16.0 || b < 16.0) return log_factorial(a) - log_factorial(b);
  const double r = log1p_accurate(d / b);
  return d * pd_ln_vector(b) + a * r - d + 0.5 * r + stirling_tail(a) - stirling_tail(b);
}

}  // namespace

PD_API double pd_sample_gamma(uint64_t x, double shape, double scale) {
  UniformStream uniforms{{x}};
  return scale * pd_exp(log_gamma_sample(uniforms, shape));
}

PD_API double pd_sample_beta(uint64_t x, double a, double b) {
  UniformStream uniforms{{x}};
  const double log_x = log_gamma_sample(uniforms, a);
  const double log_y = log_gamma_sample(uniforms, b);
  return 1.0 / (1.0 + pd_exp(log_y - log_x));
}

PD_API uint64_t pd_sample_poisson(uint64_t x, double lambda) {
  UniformStream uniforms{{x}};
  if (lambda < 10.0) {
    // Inversion: one uniform, the CDF summed term by term (a u so near 1
    // that the sum never reaches it stops at 1,000).
    const double u = uniforms.next();
    double p = pd_exp(-lambda), cdf = p;
    uint64_t k = 0;
    while (u > cdf && k < 1000) {
      ++k;
      p *= lambda / (double)k;
      cdf += p;
    }
    return k;
  }
  // Hoermann's PTRS (1993): transformed rejection with a squeeze. The
  // density's logarithm at k is taken from its mode m's, so that it stays
  // accurate for a lambda of 10^12.
  const double root = pd_sqrt(lambda), log_lambda = pd_ln_vector(lambda);
  const double m = pd_floor_exact(lambda);
  const double log_at_mode = m < 16.0 ? -lambda + m * log_lambda - log_factorial(m)
                                      : (m - lambda) - m * log1p_accurate((m - lambda) / lambda) -
                                            0.5 * pd_ln_vector(6.283185307179586477 * m) -
                                            stirling_tail(m);
  const double b = 0.931 + 2.53 * root, a = -0.059 + 0.02483 * b;
  const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
  for (int attempt = 0; attempt < 256; ++attempt) {
    const double u = uniforms.next() - 0.5, v = uniforms.next();
    const double us = 0.5 - (u < 0.0 ? -u : u);
    const double k = pd_floor_exact((2.0 * a / us + b) * u + lambda + 0.43);
    if (k < 0.0) continue;
    if (us >= 0.07 && v <= vr) return pd_f64_to_u64(k);
    if (us < 0.013 && v > us) continue;
    if (pd_ln_vector(v) + pd_ln_vector(inv_alpha) - pd_ln_vector(a / (us * us) + b) <=
        log_at_mode + (k - m) * log_lambda - log_factorial_ratio(m, k - m)) {
      return pd_f64_to_u64(k);
    }
  }
  return pd_f64_to_u64(lambda);
}

namespace {

// A whole k in [0, n] as a u64 (n as a double may round past n).
uint64_t at_most(double k, uint64_t n) {
  const uint64_t whole = pd_f64_to_u64(k);
  return whole < n ? whole : n;
}

// A binomial draw with p <= 0.5: inversion while n p < 10 (a row past
// 1,000 steps, beyond any such distribution's reach, stops there), else
// Hoermann's BTRS (1993).
uint64_t binomial_low(UniformStream& uniforms, uint64_t n, double p) {
  const double q = 1.0 - p, np = (double)n * p;
  if (np < 10.0) {
    const double s = p / q, a = ((double)n + 1.0) * s;
    double r = pd_exp((double)n * log1p_accurate(-p)), u = uniforms.next();
    uint64_t k = 0;
    while (u > r && k < n && k < 1000) {
      u -= r;
      ++k;
      r *= a / (double)k - s;
    }
    return k;
  }
  const double spq = pd_sqrt(np * q), b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p, c = np + 0.5;
  const double alpha = (2.83 + 5.1 / b) * spq, vr = 0.92 - 4.2 / b, lpq = pd_ln_vector(p / q);
  const double m = pd_floor_exact(((double)n + 1.0) * p);
  for (int attempt = 0; attempt < 256; ++attempt) {
    const double u = uniforms.next() - 0.5;
    double v = uniforms.next();
    const double us = 0.5 - (u < 0.0 ? -u : u);
    const double k = pd_floor_exact((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > (double)n) continue;
    if (us >= 0.07 && v <= vr) return at_most(k, n);
    v = pd_ln_vector(v * alpha / (a / (us * us) + b));
    if (v <= -log_factorial_ratio(m, k - m) - log_factorial_ratio((double)n - m, m - k) +
                 (k - m) * lpq) {
      return at_most(k, n);
    }
  }
  return at_most(m, n);
}

}  // namespace

PD_API uint64_t pd_sample_binomial(uint64_t x, uint64_t n, double p) {
  UniformStream uniforms{{x}};
  if (p <= 0.5) return binomial_low(uniforms, n, p);
  return n - binomial_low(uniforms, n, 1.0 - p);
}
