// Weighted picks through Vose alias tables, as polydat builds and samples
// them: weighted_u64 (and its other name weighted_pick), weighted_strings,
// histribution and alias_sample. None of them hashes its input: feed them a
// hashed value. Every pick is native (pd_alias_pick), on the GPU too.
#include "nodes/alias_table.hpp"
#include "nodes/registry.hpp"
#include "nodes/spec_parsing.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {

void pick(Call& c) {
  c.set_u64(alias_pick(c.prepared(), c.u64(0)));
}

std::shared_ptr<const Prepared> prepare_weighted_u64(const std::vector<Value>& params) {
  std::vector<double> weights;
  std::vector<uint64_t> values;
  for (const WeightedEntry& e : parse_weighted_spec(params[0].as_str(), true)) {
    uint64_t v = 0;
    if (!parse_u64(e.value, v)) throw ParamError{0, "value \"" + e.value + "\" is not a u64"};
    values.push_back(v);
    weights.push_back(e.weight);
  }
  return alias_table(weights, values);
}

// The alias index of a weighted_strings spec: its entries' positions.
std::shared_ptr<const Prepared> prepare_string_index(const std::vector<Value>& params) {
  std::vector<double> weights;
  for (const WeightedEntry& e : parse_weighted_spec(params[0].as_str(), true)) {
    weights.push_back(e.weight);
  }
  return alias_table(weights, indices(weights.size()));
}

const NodeDef& alias_index_node() {
  static const NodeDef def{
      .name = "__alias_index",
      .family = "internal",
      .args = {wire("input", PortType::U64), konst("spec", PortType::Str)},
      .results = {Type::U64},
      .summary = "The entry weighted_strings picks.",
      .prepare = prepare_string_index,
      .eval = pick,
      .native = PD_NATIVE(pd_alias_pick, in(0), f64_table(), u64_table(), f64_count()),
  };
  return def;
}

// histribution's spec: weights split on ' ', ',' or ';', each the outcome
// of its position (empty pieces counted), or label:weight pairs when the spec
// has a ':' anywhere.
std::shared_ptr<const Prepared> prepare_histribution(const std::vector<Value>& params) {
  const std::string& spec = params[0].as_str();
  const bool labeled = spec.find(':') != std::string::npos;
  std::vector<double> weights;
  std::vector<uint64_t> labels;
  const std::vector<std::string_view> pieces = split_any(spec, " ,;");
  for (size_t i = 0; i < pieces.size(); ++i) {
    const std::string_view piece = pieces[i];
    if (piece.empty()) continue;
    std::string_view weight_text = piece;
    uint64_t label = i;
    if (labeled) {
      const size_t colon = piece.find(':');
      if (colon == std::string_view::npos || !parse_u64(piece.substr(0, colon), label)) {
        throw ParamError{0, "\"" + std::string(piece) +
                                "\" is not label:weight with a u64 label (a spec with any ':' "
                                "labels every entry)"};
      }
      weight_text = piece.substr(colon + 1);
    }
    double w = 0;
    if (!parse_number(weight_text, w) || w - w != 0.0 || w < 0.0) {
      throw ParamError{
          0, "weight \"" + std::string(weight_text) + "\" is not a non-negative finite number"};
    }
    weights.push_back(w);
    labels.push_back(label);
  }
  double sum = 0;
  for (double w : weights) sum += w;
  require_positive_sum(sum, weights.size());
  return alias_table(weights, labels);
}

std::shared_ptr<const Prepared> prepare_alias_sample(const std::vector<Value>& params) {
  std::vector<double> weights;
  double sum = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    const double w = params[i].as_f64();
    if (w - w != 0.0 || w < 0.0) throw ParamError{i, "weights must be non-negative and finite"};
    weights.push_back(w);
    sum += w;
  }
  require_positive_sum(sum, weights.size());
  return alias_table(weights, indices(weights.size()));
}

// dynamic_weighted_select: weighted_strings whose spec is a wire, read
// each row (polydat memoizes the last spec it parsed; the picks are the
// same). An empty spec picks "".
void dynamic_pick(Call& c) {
  if (c.str(1).empty()) {
    c.set_str("");
    return;
  }
  try {
    const std::vector<WeightedEntry> entries = parse_weighted_spec(c.str(1), true, 1);
    std::vector<double> weights;
    for (const WeightedEntry& e : entries) weights.push_back(e.weight);
    const std::shared_ptr<const Prepared> table = alias_table(weights, indices(weights.size()));
    c.set_str(entries[alias_pick(*table, c.u64(0))].value);
  } catch (const ParamError& e) {
    throw NodeFailure{"weights_spec \"" + c.str(1) + "\": " + e.message};
  }
}

}  // namespace

void register_weighted_nodes(Registry& r) {
  using P = PortType;
  constexpr const char* kNoHash =
      " Does not hash: slot = input mod n, coin = (input >> 32) / (2^32 - 1) against the slot's "
      "bias (Vose's alias method, built as polydat builds it); feed it a hashed value.";
  static const std::string weighted_u64_summary =
      std::string(
          "A value of \"v:w;v:w;...\" (or ','-separated) with probability proportional "
          "to its weight.") +
      kNoHash;
  r.add({.name = "weighted_u64",
         .family = "weighted",
         .wants_hashed_input = true,
         .args = {wire("input", P::U64), konst("spec", P::Str)},
         .results = {Type::U64},
         .summary = weighted_u64_summary,
         .prepare = prepare_weighted_u64,
         .eval = pick,
         .native = PD_NATIVE(pd_alias_pick, in(0), f64_table(), u64_table(), f64_count())});
  r.add_alias("weighted_pick", "weighted_u64");
  static const std::string weighted_strings_summary =
      std::string(
          "A string of \"text:w;text:w;...\" with probability proportional to its "
          "weight.") +
      kNoHash;
  r.add({.name = "weighted_strings",
         .family = "weighted",
         .wants_hashed_input = true,
         .args = {wire("input", P::U64), konst("spec", P::Str)},
         .results = {Type::Str},
         .summary = weighted_strings_summary,
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           auto prepared = std::make_shared<Prepared>();
           for (const WeightedEntry& e : parse_weighted_spec(p[0].as_str(), true)) {
             prepared->strs.push_back(e.value);
           }
           return prepared;
         },
         .table_pick = TablePick{
             .index = alias_index_node,
             .index_params = [](const std::vector<Value>& p, const Prepared*) { return p; },
             .entries = prepared_str_entries}});
  static const std::string dynamic_summary =
      std::string(
          "weighted_strings with its spec a value, not a constant (\"alpha:0.3;beta:0.5\"), "
          "parsed each row: an empty spec picks \"\", a malformed one fails the row.") +
      kNoHash;
  r.add({.name = "dynamic_weighted_select",
         .family = "weighted",
         .wants_hashed_input = true,
         .args = {wire("selector", P::U64), wire("weights_spec", P::Str)},
         .results = {Type::Str},
         .can_fail = true,
         .summary = dynamic_summary,
         .failure = "weights_spec is not value:weight entries with a positive total weight",
         .eval = dynamic_pick});
  static const std::string histribution_summary =
      std::string(
          "An outcome of a histogram spec: weights separated by spaces, ',' or ';' "
          "(\"50 25 13 12\": outcomes 0..3, an empty piece still counts a position) or "
          "label:weight pairs (\"234:50 33:25\").") +
      kNoHash;
  r.add({.name = "histribution",
         .family = "weighted",
         .wants_hashed_input = true,
         .args = {wire("input", P::U64), konst("spec", P::Str)},
         .results = {Type::U64},
         .summary = histribution_summary,
         .prepare = prepare_histribution,
         .eval = pick,
         .native = PD_NATIVE(pd_alias_pick, in(0), f64_table(), u64_table(), f64_count())});
  static const std::string alias_sample_summary =
      std::string(
          "The index (0..n-1) of one of the weights, with probability proportional to "
          "it.") +
      kNoHash;
  r.add({.name = "alias_sample",
         .family = "weighted",
         .wants_hashed_input = true,
         .args = {wire("input", P::U64), konsts("weights", P::F64)},
         .results = {Type::U64},
         .summary = alias_sample_summary,
         .prepare = prepare_alias_sample,
         .eval = pick,
         .native = PD_NATIVE(pd_alias_pick, in(0), f64_table(), u64_table(), f64_count())});
}

}  // namespace polyrt::nodes
