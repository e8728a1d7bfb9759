// The constant spec strings of the weighted and empirical nodes, read as
// polydat reads them (entries split on separators, empty ones skipped).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "polyrt/value.hpp"

namespace polyrt::nodes {

// `text` without its leading and trailing spaces.
std::string_view trim_spaces(std::string_view text);

// A decimal number with optional surrounding spaces (std::from_chars: no locale).
bool parse_number(std::string_view text, double& out);

// polydat's threshold of a probability: (clamp(p, 0, 1) * 2^64) as u64,
// saturating at 2^64 - 1 (a u64 below it is true with that probability).
uint64_t probability_threshold(double probability);

// The prepare of a node whose first constant argument is a probability:
// its threshold in u64s[0] (coin_flip, random_bool).
struct Prepared;
std::shared_ptr<const Prepared> prepare_probability_threshold(const std::vector<Value>& params);

// A u64 in decimal, the whole text (std::from_chars: no sign, no spaces).
bool parse_u64(std::string_view text, uint64_t& out);

// Throws ParamError{param} unless `count` weights were given and their `sum`
// is positive and finite (an alias table needs something to pick).
void require_positive_sum(double sum, size_t count, size_t param = 0);

struct WeightedEntry {
  std::string value;  // what precedes the entry's last ':', leading spaces trimmed
  double weight;
};

// "value:weight" entries separated by ',' or ';'; an entry that is empty
// after trimming spaces is skipped. Weights must be finite and positive, or
// non-negative with `zero_weights` (then their sum must be positive). Throws
// ParamError{param} for a bad entry or a spec with none.
std::vector<WeightedEntry> parse_weighted_spec(const std::string& spec, bool zero_weights,
                                               size_t param = 0);

// The pieces of `text` between any of `separators`, empty ones included.
std::vector<std::string_view> split_any(std::string_view text, std::string_view separators);

}  // namespace polyrt::nodes
