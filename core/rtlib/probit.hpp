// The probit (the standard normal quantile) as polydat computes it:
// Abramowitz & Stegun 26.2.23, |error| < 4.5e-4, on polyrt's own ln and
// sqrt (the same bits on every host). Host-side: table building and
// comprehension sampling.
#pragma once

#include "rtlib/rtlib.h"

namespace polyrt {

inline double probit_as26223(double p) {
  const bool lower = p <= 0.5;
  const double q = lower ? p : 1.0 - p;
  const double t = pd_sqrt(-2.0 * pd_ln(q));
  const double num = 2.515517 + t * (0.802853 + t * 0.010328);
  const double den = 1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308));
  const double z = t - num / den;
  return lower ? -z : z;
}

}  // namespace polyrt
