// Exact-tail samplers: each distribution's inverse CDF at u, accurate over
// the whole open interval (0, 1) rather than tabulated and clipped as
// polydat's dist_* nodes are. The normal quantile is Wichura's AS241
// (1988; about 1e-16 relative), the others closed forms on an accurate
// log1p. Only + - * /, sqrt and polyrt's own ln and exp: the same bits on
// every host and on the GPU.
#include "rtlib.h"

namespace {

constexpr double kInfinity = __builtin_inf();

// ln(1 + x) for x > -1, accurate where 1 + x rounds (Goldberg's
// correction: the rounding of 1 + x divides out).
double log1p_accurate(double x) {
  const double y = 1.0 + x;
  if (y == 1.0) return x;
  return pd_ln(y) * (x / (y - 1.0));
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
  double r = pd_sqrt(-pd_ln(q < 0.0 ? u : 1.0 - u));
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
  return um1 * x / pd_ln(u);
}

// (e^x - 1) / x and ln(1 + x) / x, each 1 at 0.
double expm1_over(double x) {
  return x == 0.0 ? 1.0 : expm1_accurate(x) / x;
}
double log1p_over(double x) {
  return x == 0.0 ? 1.0 : log1p_accurate(x) / x;
}

// Rejection-inversion for Zipf (Hoermann and Derflinger, 1996): the hat's
// integral H, the density h and H's inverse, for exponent s.
double zipf_hat_integral(double x, double s) {
  const double log_x = pd_ln(x);
  return expm1_over((1.0 - s) * log_x) * log_x;
}
double zipf_density(double x, double s) {
  return pd_exp(-s * pd_ln(x));
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

PD_API uint64_t pd_sample_zipf(uint64_t x, const double* constants, uint64_t n, double s) {
  const double h_first = constants[0], h_last = constants[1], squeeze = constants[2];
  // Each try's uniform from SplitMix64 at x's next state: almost every row
  // takes one or two; past 64 (probability below 1e-60) rank 1.
  uint64_t state = x;
  for (int attempt = 0; attempt < 64; ++attempt) {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    const double uniform = (double)(z >> 11) * 0x1p-53;
    const double u = h_last + uniform * (h_first - h_last);
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
  return e == 0.0 ? 0.0 : scale * pd_exp(pd_ln(e) / shape);
}
