#include <algorithm>
#include <string>

#include "nodes/registry.hpp"
#include "nodes/spec_parsing.hpp"
#include "nodes/table_rows.hpp"
#include "polyrt/error.hpp"
#include "rtlib/probit.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {

// Inverse-CDF tables have this many points, at p = i / (kTablePoints - 1).
constexpr size_t kTablePoints = 1001;

// Builds the table from a quantile function; non-finite entries (p = 0 or 1)
// take the value of their nearest finite neighbour.
template <typename Quantile>
std::shared_ptr<const Prepared> tabulate(Quantile quantile) {
  auto prepared = std::make_shared<Prepared>();
  auto& t = prepared->f64s;
  t.resize(kTablePoints);
  for (size_t i = 0; i < kTablePoints; ++i) t[i] = quantile((double)i / (kTablePoints - 1));
  auto finite = [](double v) { return v - v == 0.0; };
  for (size_t i = 0; i < kTablePoints / 2; ++i) {
    const size_t k = kTablePoints / 2 - 1 - i;
    if (!finite(t[k])) t[k] = t[k + 1];
  }
  for (size_t k = kTablePoints / 2 + 1; k < kTablePoints; ++k) {
    if (!finite(t[k])) t[k] = t[k - 1];
  }
  return prepared;
}

void sample_table(Call& c) {
  const auto& t = c.prepared().f64s;
  c.set_f64(pd_table_sample(t.data(), t.size(), c.f64(0)));
}

std::shared_ptr<const Prepared> prepare_one_of_weighted(const std::vector<Value>& params) {
  const std::vector<WeightedEntry> entries = parse_weighted_spec(params[0].as_str(), false);
  auto prepared = std::make_shared<Prepared>();
  double total = 0;
  for (const WeightedEntry& e : entries) total += e.weight;
  double cumulative = 0;
  for (const WeightedEntry& e : entries) {
    cumulative += e.weight;
    prepared->f64s.push_back(cumulative / total);
    prepared->strs.push_back(e.value);
  }
  prepared->f64s.back() = 1.0;
  return prepared;
}

// one_of_weighted's index: the entry whose cumulative weight first reaches
// unit_interval(hash(x)), natively.
const NodeDef& weighted_index_node() {
  static const NodeDef def{
      .name = "__weighted_index",
      .family = "internal",
      .args = {wire("x", PortType::U64), konst("spec", PortType::Str)},
      .results = {Type::U64},
      .summary = "The index one_of_weighted picks.",
      .prepare = prepare_one_of_weighted,
      .eval =
          [](Call& c) {
            const Prepared& p = c.prepared();
            c.set_u64(pd_weighted_index(c.u64(0), p.f64s.data(), p.f64s.size()));
          },
      .native = PD_NATIVE(pd_weighted_index, in(0), f64_table(), f64_count()),
  };
  return def;
}

}  // namespace

const NodeDef& pick_str_node() {
  static const NodeDef def{
      .name = "__pick_str",
      .family = "internal",
      .args = {wire("index", PortType::U64), konsts("entries", PortType::Str)},
      .results = {Type::Str},
      .summary = "entries[index]: a table pick's entry (one_of, one_of_weighted).",
      .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
        auto prepared = std::make_shared<Prepared>();
        std::vector<std::string_view> entries;
        for (const Value& v : p) entries.push_back(v.as_str());
        prepared->extra = string_table(entries);
        return prepared;
      },
      .eval =
          [](Call& c) {
            const uint64_t index = c.u64(0);
            if (index >= c.params().size())
              internal_error("a table pick's index is past its table");
            c.set_str(c.param_str(index));
          },
      .columnar = gather_table_rows,
      .device_text = DeviceTextForm{.symbol = "pd_text_pick",
                                    .args = {text_input(0), text_blob(0), text_blob(1)},
                                    .blobs = table_blobs,
                                    .bound = [](const std::vector<Value>& entries, const Prepared*,
                                                std::span<const size_t>) -> size_t {
                                      size_t bound = 0;
                                      for (const Value& e : entries)
                                        bound = std::max(bound, e.as_str().size());
                                      return bound;
                                    }},
  };
  return def;
}

void register_distribution_nodes(Registry& r) {
  using P = PortType;
  r.add({.name = "dist_uniform",
         .family = "distributions",
         .args = {wire("input", P::F64), konst("min", P::F64), konst("max", P::F64)},
         .results = {Type::F64},
         .summary = "Uniform on [min, max]: the 1001-point table of min + p(max - min), sampled "
                    "by linear interpolation at u clamped to [0, 1].",
         .prepare =
             [](const std::vector<Value>& p) {
               const double lo = p[0].as_f64(), hi = p[1].as_f64();
               return tabulate([=](double q) { return lo + q * (hi - lo); });
             },
         .eval = sample_table,
         .native = PD_NATIVE(pd_table_sample, f64_table(), f64_count(), in(0))});
  r.add({.name = "dist_normal",
         .family = "distributions",
         .args = {wire("input", P::F64), konst("mean", P::F64), konst("stddev", P::F64)},
         .results = {Type::F64},
         .summary = "Normal: mean + stddev * probit(u), the probit tabulated at 1001 points by "
                    "Abramowitz & Stegun 26.2.23 (error < 4.5e-4) and linearly interpolated, as "
                    "polydat computes it: its tails are clipped at the table's ends (mean +- 3.09 "
                    "stddev). sample_normal has the exact tails.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           const double mean = p[0].as_f64(), sd = p[1].as_f64();
           if (!(sd >= 0.0)) throw ParamError{1, "stddev must be >= 0"};
           return tabulate([=](double q) { return mean + sd * probit_as26223(q); });
         },
         .eval = sample_table,
         .native = PD_NATIVE(pd_table_sample, f64_table(), f64_count(), in(0))});
  r.add({.name = "dist_exponential",
         .family = "distributions",
         .args = {wire("input", P::F64), konst("rate", P::F64)},
         .results = {Type::F64},
         .summary = "Exponential: -ln(1 - p) / rate tabulated at 1001 points, interpolated, as "
                    "polydat computes it: its tail is clipped at 6.9 / rate. sample_exponential "
                    "has the exact tail.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           const double rate = p[0].as_f64();
           if (!(rate > 0.0) || rate - rate != 0.0) {
             throw ParamError{0, "rate must be a positive finite number"};
           }
           return tabulate([=](double q) { return -pd_ln(1.0 - q) / rate; });
         },
         .eval = sample_table,
         .native = PD_NATIVE(pd_table_sample, f64_table(), f64_count(), in(0))});
  r.add({.name = "dist_zipf",
         .family = "distributions",
         .args = {wire("input", P::F64), konst("n", P::U64), konst("exponent", P::F64)},
         .results = {Type::F64},
         .summary = "Zipf on 1..n: the discrete inverse of the normalized harmonic CDF tabulated "
                    "at 1001 points and interpolated, as polydat computes it: values are not "
                    "always integral, and ranks between the table's points are not in their "
                    "Zipf proportions.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           const uint64_t n = p[0].as_u64();
           const double s = p[1].as_f64();
           if (n == 0 || n > 100000000) throw ParamError{0, "n must be in [1, 100000000]"};
           if (!(s >= 0.0) || s - s != 0.0) throw ParamError{1, "exponent must be >= 0"};
           double total = 0;
           for (uint64_t k = 1; k <= n; ++k) total += pd_pow((double)k, -s);
           auto prepared = std::make_shared<Prepared>();
           prepared->f64s.resize(kTablePoints);
           uint64_t k = 1;
           double cumulative = pd_pow(1.0, -s);
           for (size_t i = 0; i < kTablePoints; ++i) {
             const double q = (double)i / (kTablePoints - 1);
             while (k < n && cumulative / total < q) {
               ++k;
               cumulative += pd_pow((double)k, -s);
             }
             prepared->f64s[i] = (double)k;
           }
           return prepared;
         },
         .eval = sample_table,
         .native = PD_NATIVE(pd_table_sample, f64_table(), f64_count(), in(0))});
  r.add(
      {.name = "one_of",
       .family = "distributions",
       .args = {wire("input", P::U64), konsts("values", P::Str)},
       .results = {Type::Str},
       .summary = "values[hash(x) mod N], i.e. values[hash_range(x, N)].",
       .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
         if (p.empty()) throw ParamError{0, "one_of needs at least one value"};
         return nullptr;
       },
       .table_pick = TablePick{
           .index = []() -> const NodeDef& { return *find_node("hash_range"); },
           .index_params = [](const std::vector<Value>& p,
                              const Prepared*) { return std::vector<Value>{Value::u64(p.size())}; },
           .entries = [](const std::vector<Value>& p, const Prepared*) { return p; }}});
  r.add({.name = "one_of_weighted",
         .family = "distributions",
         .args = {wire("input", P::U64), konst("spec", P::Str)},
         .results = {Type::Str},
         .summary = "Picks from \"a:w,b:w,...\": cumulative normalized weights (the last forced "
                    "to 1.0), the first index whose cumulative weight >= unit_interval(hash(x)).",
         .prepare = prepare_one_of_weighted,
         .table_pick = TablePick{
             .index = weighted_index_node,
             .index_params = [](const std::vector<Value>& p, const Prepared*) { return p; },
             .entries = prepared_str_entries}});
  r.add({.name = "dist_pareto",
         .family = "distributions",
         .args = {wire("input", P::F64), konst("scale", P::F64), konst("shape", P::F64)},
         .results = {Type::F64},
         .summary = "Pareto: scale / (1 - p)^(1 / shape) tabulated at 1001 points, interpolated "
                    "(the infinite last point takes its neighbour's value), as polydat computes "
                    "it: its tail is clipped at scale * 1000^(1 / shape). sample_pareto has the "
                    "exact tail.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           const double scale = p[0].as_f64(), shape = p[1].as_f64();
           if (!(scale > 0.0) || scale - scale != 0.0) {
             throw ParamError{0, "scale must be a positive finite number"};
           }
           if (!(shape > 0.0) || shape - shape != 0.0) {
             throw ParamError{1, "shape must be a positive finite number"};
           }
           return tabulate([=](double q) { return scale / pd_pow(1.0 - q, 1.0 / shape); });
         },
         .eval = sample_table,
         .native = PD_NATIVE(pd_table_sample, f64_table(), f64_count(), in(0))});
  r.add({.name = "dist_empirical",
         .family = "distributions",
         .args = {wire("input", P::F64), konst("spec", P::Str)},
         .results = {Type::F64},
         .summary = "The data points of spec (separated by spaces, ',' or ';'; at least 2), "
                    "sorted, as the table: input 0 is the smallest, 1 the largest, linear in "
                    "between.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           auto prepared = std::make_shared<Prepared>();
           for (std::string_view piece : split_any(p[0].as_str(), " ,;")) {
             if (piece.empty()) continue;
             double v = 0;
             if (!parse_number(piece, v) || v - v != 0.0) {
               throw ParamError{0,
                                "data point \"" + std::string(piece) + "\" is not a finite number"};
             }
             prepared->f64s.push_back(v);
           }
           if (prepared->f64s.size() < 2) {
             throw ParamError{0, "an empirical distribution needs at least 2 data points"};
           }
           std::sort(prepared->f64s.begin(), prepared->f64s.end());
           return prepared;
         },
         .eval = sample_table,
         .native = PD_NATIVE(pd_table_sample, f64_table(), f64_count(), in(0))});
  r.add_alias("icd_normal", "dist_normal");
  r.add_alias("icd_exponential", "dist_exponential");
  r.add_alias("icd_zipf", "dist_zipf");
}

}  // namespace polyrt::nodes
