#include "nodes/alias_table.hpp"

#include <deque>

#include "rtlib/rtlib.h"

namespace polyrt::nodes {

std::shared_ptr<Prepared> alias_table(const std::vector<double>& weights,
                                      const std::vector<uint64_t>& values) {
  const size_t n = weights.size();
  double sum = 0;
  for (double w : weights) sum += w;
  const double scale = (double)n / sum;
  std::vector<double> scaled(n);
  std::deque<size_t> small, large;
  for (size_t i = 0; i < n; ++i) {
    scaled[i] = weights[i] * scale;
    (scaled[i] < 1.0 ? small : large).push_back(i);
  }
  std::vector<double> bias(n, 1.0);
  std::vector<size_t> alias(n);
  for (size_t i = 0; i < n; ++i) alias[i] = i;
  while (!small.empty() && !large.empty()) {
    const size_t s = small.front(), l = large.front();
    small.pop_front();
    large.pop_front();
    bias[s] = scaled[s];
    alias[s] = l;
    scaled[l] -= 1.0 - scaled[s];
    (scaled[l] < 1.0 ? small : large).push_back(l);
  }
  for (size_t i : small) bias[i] = 1.0;
  for (size_t i : large) bias[i] = 1.0;
  auto prepared = std::make_shared<Prepared>();
  prepared->f64s = std::move(bias);
  for (size_t i = 0; i < n; ++i) {
    prepared->u64s.push_back(values[i]);
    prepared->u64s.push_back(values[alias[i]]);
  }
  return prepared;
}

uint64_t alias_pick(const Prepared& table, uint64_t input) {
  return pd_alias_pick(input, table.f64s.data(), table.u64s.data(), table.f64s.size());
}

std::vector<uint64_t> indices(size_t n) {
  std::vector<uint64_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = i;
  return out;
}

}  // namespace polyrt::nodes
