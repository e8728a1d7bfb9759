// Coherent noise: polydat's perlin_1d, perlin_2d, simplex_2d,
// fractal_noise_1d and fractal_noise_2d (native: the kernels compute them,
// on the GPU too). Nearby coordinates get similar values, for smooth
// time series and spatial fields.
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "nodes/registry.hpp"
#include "rtlib/rtlib.h"
#include "rtlib/xxh3.hpp"

namespace polyrt::nodes {
namespace {

// The permutation of 0..255 a seed determines, as polydat builds it: a
// Fisher-Yates shuffle from the top, each swap index from XXH3-64 chained
// from the seed.
std::shared_ptr<const Prepared> permutation_of(uint64_t seed) {
  auto prepared = std::make_shared<Prepared>();
  std::vector<uint64_t>& perm = prepared->u64s;
  for (uint64_t k = 0; k < 256; ++k) perm.push_back(k);
  uint64_t s = seed;
  for (uint64_t i = 255; i >= 1; --i) {
    s = rt::xxh3_u64(s);
    std::swap(perm[i], perm[s % (i + 1)]);
  }
  return prepared;
}

std::shared_ptr<const Prepared> prepare_noise(const std::vector<Value>& params) {
  return permutation_of(params[0].as_u64());
}

std::shared_ptr<const Prepared> prepare_fractal(const std::vector<Value>& params) {
  const uint64_t octaves = params[2].as_u64();
  if (octaves < 1 || octaves > 64) {
    throw ParamError{2,
                     "octaves must be 1 to 64 (each halves the amplitude: past 53 none "
                     "changes the sum), got " +
                         std::to_string(octaves)};
  }
  return permutation_of(params[0].as_u64());
}

}  // namespace

void register_noise_nodes(Registry& r) {
  using P = PortType;
  r.add({.name = "perlin_1d",
         .family = "noise",
         .args = {wire("input", P::U64), konst("seed", P::U64), konst("frequency", P::F64)},
         .results = {Type::F64},
         .summary = "Improved Perlin noise at input * frequency, in [-1, 1]; the seed picks the "
                    "permutation.",
         .prepare = prepare_noise,
         .eval =
             [](Call& c) {
               c.set_f64(pd_perlin_1d(c.u64(0), c.param_f64(1), c.prepared().u64s.data()));
             },
         .native = PD_NATIVE(pd_perlin_1d, in(0), param(1), u64_table())});
  // Two coordinates, a seed and a frequency.
  const auto noise_2d = [&](std::string_view name, std::string_view summary, void (*eval)(Call&),
                            NativeForm native) {
    r.add({.name = name,
           .family = "noise",
           .args = {wire("x", P::U64), wire("y", P::U64), konst("seed", P::U64),
                    konst("frequency", P::F64)},
           .results = {Type::F64},
           .summary = summary,
           .prepare = prepare_noise,
           .eval = eval,
           .native = std::move(native)});
  };
  noise_2d(
      "perlin_2d", "Improved Perlin noise at (x, y) * frequency.",
      [](Call& c) {
        c.set_f64(pd_perlin_2d(c.u64(0), c.u64(1), c.param_f64(1), c.prepared().u64s.data()));
      },
      PD_NATIVE(pd_perlin_2d, in(0), in(1), param(1), u64_table()));
  noise_2d(
      "simplex_2d", "2D simplex noise at (x, y) * frequency, scaled by 70 to about [-1, 1].",
      [](Call& c) {
        c.set_f64(pd_simplex_2d(c.u64(0), c.u64(1), c.param_f64(1), c.prepared().u64s.data()));
      },
      PD_NATIVE(pd_simplex_2d, in(0), in(1), param(1), u64_table()));
  r.add({.name = "fractal_noise_1d",
         .family = "noise",
         .args = {wire("input", P::U64), konst("seed", P::U64), konst("frequency", P::F64),
                  konst("octaves", P::U64, Value::u64(4))},
         .results = {Type::F64},
         .summary = "Fractal Brownian motion: octaves (1-64) of perlin_1d, each at twice the "
                    "frequency and half the amplitude, divided by the amplitudes' sum.",
         .prepare = prepare_fractal,
         .eval =
             [](Call& c) {
               c.set_f64(pd_fractal_noise_1d(c.u64(0), c.param_f64(1), c.param_u64(2),
                                             c.prepared().u64s.data()));
             },
         .native = PD_NATIVE(pd_fractal_noise_1d, in(0), param(1), param(2), u64_table())});
  r.add({.name = "fractal_noise_2d",
         .family = "noise",
         .args = {wire("x", P::U64), wire("y", P::U64), konst("seed", P::U64),
                  konst("frequency", P::F64), konst("octaves", P::U64, Value::u64(4))},
         .results = {Type::F64},
         .summary = "Fractal Brownian motion over perlin_2d, as fractal_noise_1d.",
         .prepare = prepare_fractal,
         .eval =
             [](Call& c) {
               c.set_f64(pd_fractal_noise_2d(c.u64(0), c.u64(1), c.param_f64(1), c.param_u64(2),
                                             c.prepared().u64s.data()));
             },
         .native = PD_NATIVE(pd_fractal_noise_2d, in(0), in(1), param(1), param(2), u64_table())});
}

}  // namespace polyrt::nodes
