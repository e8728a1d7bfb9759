// Vose alias tables for pd_alias_pick, built as polydat builds them: the
// weighted picks (nodes_weighted.cpp) and the built-in word lists
// (nodes_word_lists.cpp) share them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "nodes/registry.hpp"

namespace polyrt::nodes {

// The alias table of `weights` (non-negative, positive sum; the caller
// checks) with the value each outcome stands for, laid out for
// pd_alias_pick: f64s = bias per slot, u64s = (the slot's own value, its
// alias's value) per slot. Vose's method exactly as polydat's AliasTableU64:
// weights scaled by n / sum, FIFO work lists in index order, the same
// arithmetic, a slot left in either list keeps bias 1.
std::shared_ptr<Prepared> alias_table(const std::vector<double>& weights,
                                      const std::vector<uint64_t>& values);

// The value an alias table (as alias_table lays it out) picks for `input`.
uint64_t alias_pick(const Prepared& table, uint64_t input);

// 0, 1, ..., n - 1: the values of a table whose outcomes are its indices.
std::vector<uint64_t> indices(size_t n);

}  // namespace polyrt::nodes
