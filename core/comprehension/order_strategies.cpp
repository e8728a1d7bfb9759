#include "comprehension/order_strategies.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "rtlib/rtlib.h"

namespace polyrt::comprehension {

namespace {

uint64_t lattice_size(std::span<const uint64_t> axis_sizes) {
  uint64_t total = 1;
  for (uint64_t s : axis_sizes) total *= s;  // the caller bounds the product
  return total;
}

// The strides of the lex enumeration: the rightmost axis fastest.
std::vector<uint64_t> strides_of(std::span<const uint64_t> axis_sizes) {
  std::vector<uint64_t> strides(axis_sizes.size(), 1);
  for (size_t k = axis_sizes.size(); k-- > 1;) strides[k - 1] = strides[k] * axis_sizes[k];
  return strides;
}

uint64_t counted(const Order& order, uint64_t total) {
  return order.count ? std::min(*order.count, total) : total;
}

// polydat's strategy PRNG: PCG-RXS-M-XS read at consecutive positions of
// stream 0 (increment 1), and bounded draws by rejection.
class Prng {
 public:
  explicit Prng(uint64_t seed) : seed_(seed) {}
  uint64_t next() { return pd_pcg(position_++, seed_, 0); }
  uint64_t bounded(uint64_t n) {
    if (n == 0) return 0;
    const uint64_t threshold = (0 - n) % n;  // 2^64 mod n: the biased low values
    while (true) {
      const uint64_t v = next();
      if (v >= threshold) return v % n;
    }
  }
  // Fisher-Yates from the top.
  void shuffle(std::vector<uint64_t>& values) {
    for (size_t i = values.size(); i-- > 1;) std::swap(values[i], values[bounded(i + 1)]);
  }

 private:
  uint64_t seed_, position_ = 0;
};

constexpr uint64_t kShuffleSeed = 0xD1CE5EEDC0FFEE42ULL;
constexpr uint64_t kLhsSeed = 0x1A5045773EEDBEEFULL;

// ---- shape strategies: a stable sort of the lattice by a key per tuple.

// The lattice's positions with their keys, sorted by key, stably (ties
// stay in lex order):
// - diagonal: ascending sum of the indices; antidiagonal: descending;
// - shells: the Chebyshev distance from the centre (size - 1) / 2, keyed by
//   twice it, outermost first;
// - extrema: ascending count of interior indices (neither 0 nor size - 1).
std::vector<std::pair<int64_t, uint64_t>> shape_ranking(const Order& order,
                                                        std::span<const uint64_t> axis_sizes) {
  const uint64_t total = lattice_size(axis_sizes);
  std::vector<std::pair<int64_t, uint64_t>> keyed;  // (key, lex position)
  keyed.reserve(total);
  for (uint64_t p = 0; p < total; ++p) {
    int64_t sum = 0, interior = 0, twice_distance = 0;
    uint64_t rest = p;
    for (size_t k = axis_sizes.size(); k-- > 0;) {
      const auto i = (int64_t)(rest % axis_sizes[k]);
      rest /= axis_sizes[k];
      const auto size = (int64_t)axis_sizes[k];
      sum += i;
      interior += i != 0 && i != size - 1;
      twice_distance = std::max(twice_distance, std::abs(2 * i - (size - 1)));
    }
    const int64_t key = order.strategy == "diagonal"       ? sum
                        : order.strategy == "antidiagonal" ? -sum
                        : order.strategy == "shells"       ? -twice_distance
                                                           : interior;
    keyed.emplace_back(key, p);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return keyed;
}

// A shape order's count keeps n positions (extrema: n strata).
std::vector<uint64_t> by_shape(const Order& order, std::span<const uint64_t> axis_sizes) {
  const std::vector<std::pair<int64_t, uint64_t>> keyed = shape_ranking(order, axis_sizes);
  std::vector<uint64_t> out;
  uint64_t strata = 0;
  for (size_t k = 0; k < keyed.size(); ++k) {
    strata += k == 0 || keyed[k].first != keyed[k - 1].first;
    if (order.count && order.strategy == "extrema" && strata > *order.count) break;
    if (order.count && order.strategy != "extrema" && out.size() >= *order.count) break;
    out.push_back(keyed[k].second);
  }
  return out;
}

constexpr std::array<uint64_t, 16> kHaltonPrimes = {2,  3,  5,  7,  11, 13, 17, 19,
                                                    23, 29, 31, 37, 41, 43, 47, 53};

// The base-b radical inverse of i (its digits mirrored behind the point),
// summed digit by digit as polydat sums it.
double radical_inverse(uint64_t i, uint64_t base) {
  double result = 0, f = 1.0 / (double)base;
  for (; i > 0; i /= base) {
    result += (double)(i % base) * f;
    f /= (double)base;
  }
  return result;
}

// Sobol direction numbers: dimension 1 is V_i = 2^(32-i); dimensions 2..13
// take the degree s, the coefficient bits a and the initial m_1..m_s of
// Joe and Kuo's new-joe-kuo-6.21201 initialisers.
struct SobolInit {
  uint32_t degree, coefficients;
  std::array<uint32_t, 5> m;
};
constexpr std::array<SobolInit, kMaxSobolAxes - 1> kJoeKuo = {{
    {1, 0, {1}},
    {2, 1, {1, 3}},
    {3, 1, {1, 3, 1}},
    {3, 2, {1, 1, 1}},
    {4, 1, {1, 1, 3, 3}},
    {4, 4, {1, 3, 5, 13}},
    {5, 2, {1, 1, 5, 5, 17}},
    {5, 4, {1, 1, 5, 5, 5}},
    {5, 7, {1, 1, 7, 11, 19}},
    {5, 11, {1, 1, 5, 1, 1}},
    {5, 13, {1, 1, 1, 3, 11}},
    {5, 14, {1, 3, 5, 5, 31}},
}};

using Directions = std::array<uint32_t, 33>;  // V_1..V_32 at 1..32

Directions sobol_directions(size_t axis) {
  Directions v{};
  if (axis == 0) {
    for (uint32_t i = 1; i <= 32; ++i) v[i] = uint32_t{1} << (32 - i);
    return v;
  }
  const SobolInit& init = kJoeKuo[axis - 1];
  const uint32_t s = init.degree;
  for (uint32_t i = 1; i <= s; ++i) v[i] = init.m[i - 1] << (32 - i);
  for (uint32_t i = s + 1; i <= 32; ++i) {
    uint32_t value = v[i - s] ^ (v[i - s] >> s);
    for (uint32_t k = 1; k < s; ++k) {
      if ((init.coefficients >> (s - 1 - k)) & 1) value ^= v[i - k];
    }
    v[i] = value;
  }
  return v;
}

// Point i (from 1) of the halton or sobol sequence over `axes` axes, one
// coordinate in [0, 1) per axis: the discrete orders floor it onto an axis,
// the continuous ones take it as a 53-bit code.
class PointSequence {
 public:
  PointSequence(std::string_view strategy, size_t axes) : sobol_(strategy == "sobol") {
    for (size_t k = 0; k < axes && sobol_; ++k) directions_.push_back(sobol_directions(k));
  }

  double coordinate(uint64_t i, size_t axis) const {
    // Halton: axes past the 16th reuse the last prime, as polydat's table does.
    if (!sobol_) return radical_inverse(i, kHaltonPrimes[std::min(axis, kHaltonPrimes.size() - 1)]);
    // Sobol (Antonov and Saleev): the XOR of the directions of gray(i)'s set bits.
    uint32_t x = 0;
    uint64_t gray = i ^ (i >> 1);
    for (size_t bit = 1; gray != 0 && bit <= 32; ++bit, gray >>= 1) {
      if (gray & 1) x ^= directions_[axis][bit];
    }
    return (double)x / 4294967296.0;
  }

 private:
  bool sobol_;
  std::vector<Directions> directions_;
};

// ---- low-discrepancy strategies: point i = 1, 2, ... in [0, 1)^axes, each
// coordinate floored onto its axis; a point on an index already drawn is
// skipped; at most max(8n, 256) points are drawn.

std::vector<uint64_t> low_discrepancy(uint64_t n, std::span<const uint64_t> axis_sizes,
                                      const PointSequence& points) {
  const std::vector<uint64_t> strides = strides_of(axis_sizes);
  std::vector<uint64_t> out;
  std::unordered_set<uint64_t> seen;
  const uint64_t attempts = std::max(n > ~uint64_t{0} / 8 ? ~uint64_t{0} : n * 8, uint64_t{256});
  for (uint64_t i = 1; out.size() < n && i <= attempts; ++i) {
    uint64_t flat = 0;
    for (size_t k = 0; k < axis_sizes.size(); ++k) {
      const uint64_t size = axis_sizes[k];
      const auto index =
          (uint64_t)(points.coordinate(i, k) * (double)size);  // floor: the value is >= 0
      flat += std::min(index, size - 1) * strides[k];
    }
    if (seen.insert(flat).second) out.push_back(flat);
  }
  return out;
}

// ---- seeded strategies.

std::vector<uint64_t> shuffled(const Order& order, uint64_t total) {
  const uint64_t n = counted(order, total);
  Prng rng(order.seed.value_or(kShuffleSeed) + total);
  if (n == total) {
    std::vector<uint64_t> all(total);
    std::iota(all.begin(), all.end(), uint64_t{0});
    rng.shuffle(all);
    return all;
  }
  // A partial Fisher-Yates over 0..total that stores only the slots a
  // draw displaced: n draws hold at most n entries.
  std::unordered_map<uint64_t, uint64_t> displaced;
  std::vector<uint64_t> out;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t last = total - i - 1, j = rng.bounded(total - i);
    const auto at_j = displaced.find(j);
    out.push_back(at_j == displaced.end() ? j : at_j->second);
    const auto at_last = displaced.find(last);
    const uint64_t tail = at_last == displaced.end() ? last : at_last->second;
    if (at_last != displaced.end()) displaced.erase(at_last);
    if (j != last) displaced[j] = tail;
  }
  return out;
}

// A Latin hypercube: one permutation of 0..n per axis (in axis order, from
// one PRNG); sample i takes stratum perm_a[i] on each axis a, scaled onto
// the axis (or wrapped when the axis has fewer than n indices). Samples
// may repeat a tuple.
std::vector<uint64_t> latin_hypercube(const Order& order, std::span<const uint64_t> axis_sizes) {
  const uint64_t n = counted(order, lattice_size(axis_sizes));
  Prng rng(order.seed.value_or(kLhsSeed) + n);
  const std::vector<uint64_t> strides = strides_of(axis_sizes);
  __extension__ typedef unsigned __int128 u128;
  std::vector<uint64_t> flat(n, 0), perm(n);
  for (size_t axis = 0; axis < axis_sizes.size(); ++axis) {
    std::iota(perm.begin(), perm.end(), uint64_t{0});
    rng.shuffle(perm);
    const uint64_t size = axis_sizes[axis];
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t index = size >= n ? (uint64_t)((u128)perm[i] * size / n) : perm[i] % size;
      flat[i] += index * strides[axis];
    }
  }
  return flat;
}

}  // namespace

std::vector<std::vector<uint64_t>> sampled_points(const Order& order,
                                                  std::span<const uint64_t> discrete_sizes,
                                                  size_t continuous, uint64_t n) {
  constexpr double kUnit = 9007199254740992.0;  // 2^53
  const size_t discrete = discrete_sizes.size(), axes = discrete + continuous;
  // A code axis's size stands as 0 below.
  std::vector<uint64_t> sizes(discrete_sizes.begin(), discrete_sizes.end());
  sizes.resize(axes, 0);
  std::vector<std::vector<uint64_t>> out(n, std::vector<uint64_t>(axes));
  const std::string& s = order.strategy;
  if (s == "halton" || s == "sobol") {
    // A discrete axis floors the point's coordinate onto its positions.
    const PointSequence points(s, axes);
    for (uint64_t i = 0; i < n; ++i) {
      for (size_t k = 0; k < axes; ++k) {
        const double f = points.coordinate(i + 1, k);
        out[i][k] = sizes[k] ? std::min((uint64_t)(f * (double)sizes[k]), sizes[k] - 1)
                             : (uint64_t)(f * kUnit);
      }
    }
  } else if (s == "shuffle") {
    // Over a sampled space the seed follows the draw count.
    Prng rng(order.seed.value_or(kShuffleSeed) + n);
    for (std::vector<uint64_t>& point : out) {
      for (size_t k = 0; k < axes; ++k) {
        point[k] = sizes[k] ? rng.bounded(sizes[k]) : rng.next() >> 11;
      }
    }
  } else {  // lhs: one permutation of the n strata per axis, then the samples
    Prng rng(order.seed.value_or(kLhsSeed) + n);
    std::vector<std::vector<uint64_t>> perms(axes, std::vector<uint64_t>(n));
    for (std::vector<uint64_t>& perm : perms) {
      std::iota(perm.begin(), perm.end(), uint64_t{0});
      rng.shuffle(perm);
    }
    __extension__ typedef unsigned __int128 u128;
    for (uint64_t i = 0; i < n; ++i) {
      for (size_t k = 0; k < axes; ++k) {
        const uint64_t stratum = perms[k][i], size = sizes[k];
        if (!size) {  // a code drawn inside the stratum's bin
          const double jitter = (double)(rng.next() >> 11) / kUnit;
          out[i][k] = (uint64_t)(((double)stratum + jitter) / (double)n * kUnit);
        } else {
          out[i][k] = size >= n ? (uint64_t)((u128)stratum * size / n) : stratum % size;
        }
      }
    }
  }
  return out;
}

bool is_strategy(std::string_view name) {
  return name == "lex" || name == "reverse_lex" || name == "halton" || name == "sobol" ||
         name == "lhs" || name == "shuffle" || is_lattice_strategy(name);
}

bool is_lattice_strategy(std::string_view name) {
  return name == "diagonal" || name == "antidiagonal" || name == "shells" || name == "extrema" ||
         is_sampling_strategy(name);
}

bool is_sampling_strategy(std::string_view name) {
  return name == "halton" || name == "sobol" || name == "lhs" || name == "shuffle";
}

bool takes_seed(std::string_view name) {
  return name == "shuffle" || name == "lhs";
}

std::vector<uint64_t> order_positions(const Order& order, std::span<const uint64_t> axis_sizes) {
  const uint64_t total = lattice_size(axis_sizes);
  if (total == 0) return {};
  const std::string& s = order.strategy;
  if (s == "lex" || s == "reverse_lex") {
    std::vector<uint64_t> out(counted(order, total));
    for (uint64_t i = 0; i < out.size(); ++i) out[i] = s == "lex" ? i : total - 1 - i;
    return out;
  }
  if (s == "halton" || s == "sobol") {
    return low_discrepancy(counted(order, total), axis_sizes, PointSequence(s, axis_sizes.size()));
  }
  if (s == "shuffle") return shuffled(order, total);
  if (s == "lhs") return latin_hypercube(order, axis_sizes);
  return by_shape(order, axis_sizes);
}

std::vector<uint64_t> select_survivors(const Order& order, std::span<const uint64_t> axis_sizes,
                                       const std::vector<bool>& survives) {
  const uint64_t total = lattice_size(axis_sizes);
  const uint64_t survivors = (uint64_t)std::count(survives.begin(), survives.end(), true);
  std::vector<uint64_t> out;
  if (order.strategy == "extrema") {
    // The strata in order, each counted when it holds a survivor.
    uint64_t strata = 0;
    int64_t last_key = 0;
    for (const auto& [key, p] : shape_ranking(order, axis_sizes)) {
      if (!survives[p]) continue;
      if (out.empty() || key != last_key) {
        if (order.count && strata == *order.count) break;
        ++strata;
      }
      last_key = key;
      out.push_back(p);
    }
    return out;
  }
  const uint64_t n = order.count ? std::min(*order.count, survivors) : survivors;
  for (uint64_t draws = std::max<uint64_t>(n, 1);; draws = std::min(draws * 2, total)) {
    Order drawn = order;
    drawn.count = draws;
    out.clear();
    for (uint64_t p : order_positions(drawn, axis_sizes)) {
      if (survives[p] && out.size() < n) out.push_back(p);
    }
    if (out.size() >= n || draws >= total) break;
  }
  std::vector<bool> taken(total, false);
  for (uint64_t p : out) taken[p] = true;
  for (uint64_t p = 0; p < total && out.size() < n; ++p) {
    if (survives[p] && !taken[p]) out.push_back(p);
  }
  return out;
}

}  // namespace polyrt::comprehension
