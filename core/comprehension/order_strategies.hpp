// polydat's ten `order` strategies over a lattice: the positions (into the
// lattice's lex enumeration, the rightmost axis fastest) a comprehension
// visits, in the order it visits them, bit for bit as polydat computes them
// (the sampling orders' points, seeds and pseudo-random draws included).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace polyrt::comprehension {

struct Order {
  std::string strategy = "lex";
  std::optional<uint64_t> count;  // `/n` or count=n: the first n (extrema: n strata)
  std::optional<uint64_t> seed;   // seed=s: shuffle and lhs only
};

// Whether `name` is one of the ten strategies.
bool is_strategy(std::string_view name);

// Strategies that read the lattice's shape (a multi-index per tuple), not a
// sequence of positions: they need an independent cartesian.
bool is_lattice_strategy(std::string_view name);

// Strategies that take seed=.
bool takes_seed(std::string_view name);

// The sampling strategies (halton, sobol, lhs, shuffle): the ones that draw
// points over a continuous space (sampled_points).
bool is_sampling_strategy(std::string_view name);

// The most axes sobol's direction-number table covers.
inline constexpr size_t kMaxSobolAxes = 13;

// The positions `order` visits over the lattice `axis_sizes` (one axis for
// a sequence), its count applied. A count of survivors after a `where` is
// the caller's (see select_survivors).
std::vector<uint64_t> order_positions(const Order& order, std::span<const uint64_t> axis_sizes);

// The n points a sampling order (halton, sobol, lhs, shuffle) draws over a
// space with a continuous axis, laid out as polydat's hybrid index lays
// them: a position on each discrete axis (`discrete_sizes`, in clause
// order), then a code on each of the `continuous` axes, a 53-bit fraction
// of the unit interval (code / 2^53). Never deduplicated.
std::vector<std::vector<uint64_t>> sampled_points(const Order& order,
                                                  std::span<const uint64_t> discrete_sizes,
                                                  size_t continuous, uint64_t n);

// An order after a `where` (polydat's rule V5): the strategy ranks the
// survivors by their positions in the unfiltered lattice. A counted
// strategy draws n, 2n, 4n, ... positions until n of them survive; the
// survivors it did not reach follow in ascending position; extrema/k keeps
// the first k strata that hold a survivor. `survives[p]` says whether the
// lattice position p passed the predicate.
std::vector<uint64_t> select_survivors(const Order& order, std::span<const uint64_t> axis_sizes,
                                       const std::vector<bool>& survives);

}  // namespace polyrt::comprehension
