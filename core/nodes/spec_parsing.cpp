#include "nodes/spec_parsing.hpp"

#include <algorithm>
#include <charconv>

#include "nodes/registry.hpp"

namespace polyrt::nodes {

std::string_view trim_spaces(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

bool parse_number(std::string_view text, double& out) {
  text = trim_spaces(text);
  auto res = std::from_chars(text.data(), text.data() + text.size(), out);
  return res.ec == std::errc() && res.ptr == text.data() + text.size();
}

uint64_t probability_threshold(double probability) {
  const double scaled = std::clamp(probability, 0.0, 1.0) * 18446744073709551616.0;
  return scaled >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)scaled;
}

std::shared_ptr<const Prepared> prepare_probability_threshold(const std::vector<Value>& params) {
  auto prepared = std::make_shared<Prepared>();
  prepared->u64s.push_back(probability_threshold(params[0].as_f64()));
  return prepared;
}

bool parse_u64(std::string_view text, uint64_t& out) {
  const char* end = text.data() + text.size();
  const auto res = std::from_chars(text.data(), end, out);
  return res.ec == std::errc() && res.ptr == end;
}

void require_positive_sum(double sum, size_t count, size_t param) {
  if (count == 0 || !(sum > 0.0) || sum - sum != 0.0) {
    throw ParamError{param, "the weights must have a positive finite sum"};
  }
}

std::vector<std::string_view> split_any(std::string_view text, std::string_view separators) {
  std::vector<std::string_view> pieces;
  size_t start = 0;
  while (true) {
    const size_t end = text.find_first_of(separators, start);
    pieces.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return pieces;
    start = end + 1;
  }
}

std::vector<WeightedEntry> parse_weighted_spec(const std::string& spec, bool zero_weights,
                                               size_t param) {
  std::vector<WeightedEntry> out;
  double total = 0;
  for (std::string_view entry : split_any(spec, ",;")) {
    if (trim_spaces(entry).empty()) continue;
    const size_t colon = entry.rfind(':');
    double w = 0;
    if (colon == std::string_view::npos || !parse_number(entry.substr(colon + 1), w)) {
      throw ParamError{
          param, "entry \"" + std::string(entry) + "\" is not value:weight (e.g. \"a:5,b:3\")"};
    }
    if (w - w != 0.0 || w < 0.0 || (w == 0.0 && !zero_weights)) {
      throw ParamError{param, "weight of \"" + std::string(entry) + "\" must be a " +
                                  (zero_weights ? "non-negative" : "positive") + " finite number"};
    }
    std::string_view value = entry.substr(0, colon);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    out.push_back({std::string(value), w});
    total += w;
  }
  if (out.empty()) throw ParamError{param, "the spec has no value:weight entry"};
  require_positive_sum(total, out.size(), param);
  return out;
}

}  // namespace polyrt::nodes
