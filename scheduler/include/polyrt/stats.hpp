// Statistics of a program's columns over a coordinate range, computed in
// the batch tier by regenerating the rows (they are a pure function of the
// coordinate, so a further pass costs a re-evaluation, not storage). Each
// pass generates only the columns it needs:
//
//   pass 1 (every column): count, min, max, mean and standard deviation
//           (Welford per chunk, merged in coordinate order: the last bits
//           of these two may change with the chunk size), NaN and infinity
//           counts; for text, the lengths and every value's exact count
//           while there are at most kExactDistinct distinct values (values
//           are told apart by 64-bit hashes: a collision at the bound is
//           below 3e-8); past the bound a HyperLogLog sketch, its standard
//           error stated, and Misra-Gries summaries that bound every
//           value's count from above;
//   pass 2 (numbers with finite values, texts past the bound that may
//           hold a value of share > 1/kTopShareDivisor): the display
//           histogram over [min, max], a histogram of each numeric column's
//           order keys for its quantiles, and the exact counts of the
//           values that the summaries did not rule out;
//   pass 3+ (numbers with quantiles still open): each quantile not yet
//           pinned to one value collects the values of its key bin (or a
//           finer histogram when the bin is large), until every quantile
//           is exact.
//
// Quantiles are exact order statistics: q(p) = x_(floor(p * (n - 1))) of
// the finite values (numpy's method="lower"). The same range gives the
// same report on every device and thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "polyrt/batch.hpp"

namespace polyrt {

inline constexpr double kStatsQuantiles[] = {0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99};
inline constexpr uint64_t kExactDistinct = 1'000'000;
// A text column counted inexactly lists its values of more than
// 1/kTopShareDivisor of the rows.
inline constexpr uint64_t kTopShareDivisor = 1024;
inline constexpr size_t kHistogramBins = 40;

struct NumericStats {
  uint64_t finite = 0, nan = 0, positive_infinity = 0, negative_infinity = 0;
  // Of the finite values, in the column's type (None when there are none).
  Value min, max;
  double mean = 0, stddev = 0;                      // population standard deviation
  std::vector<std::pair<double, Value>> quantiles;  // (p, value), kStatsQuantiles
  // Equal bins over [min, max]: kHistogramBins for floats (the last one
  // closed); for integers at most that many, each a whole number of values
  // wide (bin b holds min + b * w .. min + (b + 1) * w - 1).
  std::vector<uint64_t> histogram;
  // Its histogram.size() + 1 bin edges, as doubles of the column's numbers
  // (a logical type's words): bin b is [edges[b], edges[b + 1]), the last
  // one closed for floats; for integers the last edge is max + 1.
  std::vector<double> histogram_edges;
};

struct TextStats {
  uint64_t distinct = 0;
  bool distinct_exact = true;
  double distinct_standard_error = 0;  // relative, when not exact
  // The most frequent values with their exact counts, by count and then
  // by first appearance; at most 10. When the distinct count is not exact
  // they are only the values of share above top_share_bound (fewer than
  // 10 then): every value not listed has a share of at most that bound.
  // A bytes column's values are in lowercase hex, as its rows are written.
  std::vector<std::pair<std::string, uint64_t>> top;
  double top_share_bound = 0;               // 0: `top` is the column's whole top 10
  uint64_t min_length = 0, max_length = 0;  // bytes
  double mean_length = 0;
};

struct ColumnStats {
  std::string name;
  Type type = Type::U64;
  LogicalType logical;  // Program::output_logical_type; numeric holds its words' numbers
  uint64_t rows = 0, nones = 0;
  std::optional<NumericStats> numeric;  // integer and float columns
  std::optional<TextStats> text;        // str, bytes, json
  std::optional<uint64_t> trues;        // bool columns
};

// One generation of the rows: what it computed, of which columns.
struct StatsPass {
  std::string purpose;
  std::vector<std::string> columns;
};

struct StatsReport {
  uint64_t first = 0, count = 0;
  std::vector<ColumnStats> columns;
  std::vector<StatsPass> passes;  // in the order they ran
  std::string device;
};

// The statistics of `options.outputs` (all by default) over [first, first
// + count). WriteError and RefusedError as BatchEvaluator.
StatsReport compute_stats(std::shared_ptr<const Program> program, const BatchOptions& options,
                          uint64_t first, uint64_t count);

// The report as one JSON document (docs/stats.md describes it).
std::string stats_json(const StatsReport& report);

// How the reports print for people: a double to 6 significant digits, a
// column's value in its type (an integer exactly, a float so, None "-").
std::string stats_number_text(double v);
// A number's text with thousands separators in its integer digits
// ("1,661.92", "-57,735"); other text (a date, "1e+20", "NaN") as it is.
// A count so ("1,000,000"); a share of the rows as a percentage with two
// decimals ("13.00%", "<0.01%" for a sliver).
std::string stats_grouped_text(const std::string& text);
std::string stats_count_text(uint64_t v);
std::string stats_share_text(double share);
std::string stats_value_text(const Value& v, LogicalType logical = {});
// A column's type as reports show it: its logical type's name, if any.
std::string stats_type_text(const ColumnStats& s);
// A column's mean and standard deviation: plain numbers, or in its logical
// type's terms (a decimal's value, a time's instant; a spread in its units).
std::string stats_mean_text(const ColumnStats& s, double mean);
std::string stats_spread_text(const ColumnStats& s, double stddev);
// Which passes ran, of which columns: "3 passes over them (1: moments and
// texts of every column; 2: ...)".
std::string stats_passes_text(const StatsReport& report);
// What a top list that is not the whole top 10 leaves out ("no other
// value has a share above 0.0976563%"), or "" when it is.
std::string stats_top_bound_text(const TextStats& t);

// The report as one self-contained HTML page (no network: the charts are
// inline SVG, the switch between a histogram's linear and log views a few
// lines of inline script): an overview table of the columns, a section per
// column, then the program's text.
std::string stats_html(const StatsReport& report, std::string_view title,
                       std::string_view program_text);

}  // namespace polyrt
