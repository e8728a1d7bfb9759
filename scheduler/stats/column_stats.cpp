#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>

#include "polyrt/numeric_types.hpp"
#include "polyrt/stats.hpp"
#include "rtlib/byte_encodings.hpp"
#include "scheduler/jobs/progress_bar.hpp"
#include "scheduler/stats/text_frequencies.hpp"

namespace polyrt {

namespace {

using stats::CandidateRecount;
using stats::HashCount;
using stats::HashCounts;
using stats::TextFrequencies;
using stats::TextLengths;

constexpr uint64_t kKeyBins = 4096;           // a quantile's key histogram
constexpr uint64_t kCollectLimit = 1u << 20;  // values a pass collects for one quantile
constexpr size_t kTopValues = 10;
__extension__ typedef unsigned __int128 u128;

// A numeric word as an order key: keys sort as the values do.
uint64_t key_of(Type type, uint64_t word) {
  if (is_signed_integer(type)) return word ^ (uint64_t{1} << 63);
  if (is_float(type)) return (word >> 63) ? ~word : word | (uint64_t{1} << 63);
  return word;
}

uint64_t word_of(Type type, uint64_t key) {
  if (is_signed_integer(type)) return key ^ (uint64_t{1} << 63);
  if (is_float(type)) return (key >> 63) ? key & ~(uint64_t{1} << 63) : ~key;
  return key;
}

double value_of(Type type, uint64_t key) {
  const uint64_t word = word_of(type, key);
  if (is_signed_integer(type)) return (double)(int64_t)word;
  if (is_float(type)) return std::bit_cast<double>(word);
  return (double)word;
}

bool is_finite_word(Type type, uint64_t word) {
  if (!is_float(type)) return true;
  const double d = std::bit_cast<double>(word);
  return d - d == 0.0;
}

// Bins over the keys [lo, hi], each 2^shift keys wide (the last one may be
// narrower), at most kKeyBins of them: a shift, not a division, per row.
struct KeyBins {
  uint64_t lo = 0, hi = 0;
  unsigned shift = 0;
  KeyBins(uint64_t lo, uint64_t hi) : lo(lo), hi(hi) {
    while (((hi - lo) >> shift) >= kKeyBins) ++shift;
  }
  uint64_t bin(uint64_t key) const { return (key - lo) >> shift; }
  uint64_t first_key(uint64_t b) const { return lo + (b << shift); }
  uint64_t last_key(uint64_t b) const {
    return b == bin(hi) ? hi : first_key(b + 1) - 1;  // first_key(b + 1) <= hi: no overflow
  }
};

// A quantile being narrowed: its rank among the finite values, the key
// range that holds it and how many finite values lie below that range.
struct QuantileSearch {
  double p = 0;
  uint64_t rank = 0, lo = 0, hi = 0, below = 0;
  uint64_t in_range = 0;        // finite values with keys in [lo, hi]
  std::optional<uint64_t> key;  // found
  // A pass collects the range's keys when they are few, else counts them
  // in a finer key histogram.
  bool collects() const { return in_range <= kCollectLimit; }
};

// One numeric column's accumulators, merged chunk by chunk.
struct NumericAccumulator {
  uint64_t finite = 0, nan = 0, pinf = 0, ninf = 0;
  uint64_t min_key = ~uint64_t{0}, max_key = 0;
  double mean = 0, m2 = 0;              // Welford over the finite values
  std::vector<uint64_t> display, keys;  // pass 2: the display and key histograms
  std::vector<QuantileSearch> searches;
};

// What one pass computes of one chunk (or part of one), merged in order.
// Columns are indexed as the pass's column lists are.
struct ChunkPartial {
  std::vector<NumericAccumulator> numeric;
  std::vector<TextLengths> lengths;
  std::vector<uint64_t> trues;
  std::vector<uint64_t> nulls;  // per output: its null rows (ColumnView::present)
  // Passes 3+, per numeric column and search: the keys it collects or its
  // finer histogram.
  std::vector<std::vector<std::vector<uint64_t>>> refine;
};

void merge_welford(NumericAccumulator& into, uint64_t n, double mean, double m2) {
  if (n == 0) return;
  const uint64_t total = into.finite + n;
  const double delta = mean - into.mean;
  into.mean += delta * (double)n / (double)total;
  into.m2 += m2 + delta * delta * (double)into.finite * (double)n / (double)total;
  into.finite = total;
}

// The most frequent of `counts` with more than `above` occurrences, by
// count and then first coordinate (the order in which they first appear).
std::vector<HashCount> most_frequent(const HashCounts& counts, uint64_t above) {
  std::vector<HashCount> out;
  counts.for_each([&](const HashCount& c) {
    if (c.count > above) out.push_back(c);
  });
  const auto order = [](const HashCount& a, const HashCount& b) {
    return a.count != b.count ? a.count > b.count : a.first < b.first;
  };
  const size_t n = std::min(out.size(), kTopValues);
  std::partial_sort(out.begin(), out.begin() + (ptrdiff_t)n, out.end(), order);
  out.resize(n);
  return out;
}

// A pass's view of one part: each output's column by its index among the
// outputs (a pass generates only some of them).
struct PassPart {
  const ColumnChunk& chunk;
  const std::vector<size_t>& position;  // by output index: its column in `chunk`
  const ColumnView& column(size_t output) const { return chunk.columns[position[output]]; }
};

// A text column's counts: exact after pass 1 while its distinct values are
// few enough, else those of the values that may be frequent, after pass 2.
struct TextColumn {
  std::unique_ptr<TextFrequencies> frequencies = std::make_unique<TextFrequencies>();
  std::unique_ptr<CandidateRecount> recount;  // between passes 1 and 2 when not exact
  TextLengths lengths;
  bool exact = true;
  double estimated_distinct = 0;
  HashCounts counts;
};

class StatsRun {
 public:
  StatsRun(std::shared_ptr<const Program> program, const BatchOptions& options, uint64_t first,
           uint64_t count)
      : program_(std::move(program)),
        options_(options),
        batch_(program_, options),
        first_(first),
        count_(count) {
    const auto& types = batch_.output_types();
    for (size_t c = 0; c < types.size(); ++c) {
      // A vector column is counted (rows, Nones), not summarized: its values
      // are arrays, whose element statistics a vector node computes.
      if (batch_.output_is_none(c) || is_vector(types[c])) continue;
      (is_payload(types[c])     ? text_columns_
       : types[c] == Type::Bool ? bool_columns_
                                : numeric_columns_)
          .push_back(c);
    }
    numeric_.resize(numeric_columns_.size());
    text_.resize(text_columns_.size());
    trues_.assign(bool_columns_.size(), 0);
    nulls_.assign(types.size(), 0);
  }

  StatsReport run() {
    pass_moments_and_texts();
    pass_histograms_and_top_counts();
    resolve_from_key_histograms();
    while (refining()) pass_refinement();
    return report();
  }

 private:
  const Type& type_of(size_t output) const { return batch_.output_types()[output]; }

  // A text column counted inexactly lists the values of more rows than this.
  uint64_t frequent_count() const { return count_ / kTopShareDivisor; }

  // One generation of the rows of the outputs `columns` (ascending):
  // `compute` runs on any thread for each part and returns its partial;
  // `merge` takes the partials in coordinate order.
  template <typename Compute, typename Merge>
  void pass(std::string purpose, const std::vector<size_t>& columns, const Compute& compute,
            const Merge& merge) {
    const auto& names = batch_.output_names();
    StatsPass log{std::move(purpose), {}};
    std::vector<size_t> position(names.size(), 0);
    for (size_t p = 0; p < columns.size(); ++p) {
      log.columns.push_back(names[columns[p]]);
      position[columns[p]] = p;
    }
    // The pass's own evaluator generates only its columns (and what they read).
    std::optional<BatchEvaluator> subset;
    if (columns.size() != names.size()) {
      BatchOptions options = options_;
      options.outputs = log.columns;
      subset.emplace(program_, options);
    }
    pass_log_.push_back(std::move(log));
    scheduler::ProgressBar progress(
        count_, "pass " + std::to_string(pass_log_.size()) + ": " + pass_log_.back().purpose);
    std::mutex mutex;
    std::map<uint64_t, ChunkPartial> partials;
    (subset ? *subset : batch_)
        .stream_encoded(
            first_, count_,
            [&](const ColumnChunk& chunk, std::string&) {
              ChunkPartial partial = compute(PassPart{chunk, position});
              const std::lock_guard lock(mutex);
              partials.emplace(chunk.first, std::move(partial));
            },
            [&](const ColumnChunk& chunk, std::string&) {
              const std::lock_guard lock(mutex);
              if (chunk.rows == 0) return;
              progress.advance(chunk.rows);
              // The chunk's parts, in order (its last row may be 2^64 - 1).
              const auto end = partials.upper_bound(chunk.first + (chunk.rows - 1));
              for (auto it = partials.lower_bound(chunk.first); it != end;) {
                merge(it->second);
                it = partials.erase(it);
              }
            });
  }

  // Pass 1, every column: numbers' moments, texts' lengths and counts, bools' trues.
  void pass_moments_and_texts() {
    std::vector<size_t> all(batch_.output_names().size());
    std::iota(all.begin(), all.end(), size_t{0});
    pass(
        "moments and texts", all,
        [&](const PassPart& part) {
          ChunkPartial out;
          const uint64_t rows = part.chunk.rows;
          out.numeric.resize(numeric_columns_.size());
          for (size_t k = 0; k < numeric_columns_.size(); ++k) {
            const size_t c = numeric_columns_[k];
            moments(type_of(c), part.column(c), rows, out.numeric[k]);
          }
          out.lengths.resize(text_columns_.size());
          for (size_t k = 0; k < text_columns_.size(); ++k) {
            text_[k].frequencies->add_part(stats::count_part(part.column(text_columns_[k]), rows,
                                                             part.chunk.first, &out.lengths[k]));
          }
          out.trues.assign(bool_columns_.size(), 0);
          for (size_t k = 0; k < bool_columns_.size(); ++k) {
            const ColumnView& v = part.column(bool_columns_[k]);
            for (uint64_t r = 0; r < rows; ++r) out.trues[k] += !v.is_null(r) && v.words[r] != 0;
          }
          out.nulls.assign(nulls_.size(), 0);
          for (const std::vector<size_t>* columns :
               {&numeric_columns_, &text_columns_, &bool_columns_}) {
            for (size_t c : *columns) {
              const ColumnView& v = part.column(c);
              if (!v.present) continue;
              for (uint64_t r = 0; r < rows; ++r) out.nulls[c] += v.present[r] == 0;
            }
          }
          return out;
        },
        [&](const ChunkPartial& p) {
          for (size_t k = 0; k < numeric_.size(); ++k) {
            NumericAccumulator& g = numeric_[k];
            const NumericAccumulator& a = p.numeric[k];
            g.nan += a.nan;
            g.pinf += a.pinf;
            g.ninf += a.ninf;
            g.min_key = std::min(g.min_key, a.min_key);
            g.max_key = std::max(g.max_key, a.max_key);
            merge_welford(g, a.finite, a.mean, a.m2);
          }
          for (size_t k = 0; k < text_.size(); ++k) text_[k].lengths.merge(p.lengths[k]);
          for (size_t k = 0; k < trues_.size(); ++k) trues_[k] += p.trues[k];
          for (size_t c = 0; c < nulls_.size(); ++c) nulls_[c] += p.nulls[c];
        });
    for (TextColumn& t : text_) {
      t.exact = t.frequencies->exact();
      if (t.exact) {
        t.counts = t.frequencies->take_counts();
      } else {
        t.estimated_distinct = t.frequencies->estimated_distinct();
        HashCounts candidates = t.frequencies->take_candidates(frequent_count());
        if (candidates.size()) t.recount = std::make_unique<CandidateRecount>(candidates);
      }
      t.frequencies.reset();
    }
  }

  // Pass 2's columns (ascending), their histograms made ready.
  std::vector<size_t> second_pass_columns() {
    std::vector<size_t> columns;
    for (size_t k = 0; k < numeric_.size(); ++k) {
      NumericAccumulator& g = numeric_[k];
      if (g.finite == 0) continue;  // no finite value: no histogram, no quantile
      g.display.assign(display_bins(type_of(numeric_columns_[k]), g), 0);
      g.keys.assign(kKeyBins, 0);
      columns.push_back(numeric_columns_[k]);
    }
    for (size_t k = 0; k < text_.size(); ++k) {
      if (text_[k].recount) columns.push_back(text_columns_[k]);
    }
    std::sort(columns.begin(), columns.end());
    return columns;
  }

  // Pass 2, the numbers with finite values and the texts counted inexactly:
  // display and key histograms, the candidates' exact counts.
  void pass_histograms_and_top_counts() {
    const std::vector<size_t> columns = second_pass_columns();
    if (columns.empty()) return;
    pass(
        "histograms and top counts", columns,
        [&](const PassPart& part) {
          ChunkPartial out;
          out.numeric.resize(numeric_columns_.size());
          for (size_t k = 0; k < numeric_columns_.size(); ++k) {
            const size_t c = numeric_columns_[k];
            if (numeric_[k].finite) {
              histograms(type_of(c), part.column(c), part.chunk.rows, numeric_[k], out.numeric[k]);
            }
          }
          for (size_t k = 0; k < text_.size(); ++k) {
            if (!text_[k].recount) continue;
            text_[k].recount->add_part(stats::count_part(
                part.column(text_columns_[k]), part.chunk.rows, part.chunk.first, nullptr));
          }
          return out;
        },
        [&](const ChunkPartial& p) {
          for (size_t k = 0; k < numeric_.size(); ++k) {
            NumericAccumulator& g = numeric_[k];
            const NumericAccumulator& a = p.numeric[k];
            if (a.display.empty()) continue;  // a column without finite values
            for (size_t b = 0; b < g.display.size(); ++b) g.display[b] += a.display[b];
            for (size_t b = 0; b < kKeyBins; ++b) g.keys[b] += a.keys[b];
          }
        });
    for (TextColumn& t : text_) {
      if (!t.recount) continue;
      t.counts = t.recount->counts();
      t.recount.reset();
    }
  }

  // Passes 3+, the numbers with quantiles not yet pinned: each such
  // search's keys, or its finer histogram.
  void pass_refinement() {
    std::vector<size_t> columns;
    for (size_t k = 0; k < numeric_.size(); ++k) {
      if (has_open_search(numeric_[k])) columns.push_back(numeric_columns_[k]);
    }
    // Per numeric column and search: the keys collected or the histogram.
    std::vector<std::vector<std::vector<uint64_t>>> found(numeric_.size());
    for (size_t k = 0; k < numeric_.size(); ++k) found[k].resize(numeric_[k].searches.size());
    pass(
        "exact quantiles", columns,
        [&](const PassPart& part) {
          ChunkPartial out;
          out.refine.resize(numeric_columns_.size());
          for (size_t k = 0; k < numeric_columns_.size(); ++k) {
            const size_t c = numeric_columns_[k];
            if (std::binary_search(columns.begin(), columns.end(), c)) {
              refine(type_of(c), part.column(c), part.chunk.rows, numeric_[k], out.refine[k]);
            }
          }
          return out;
        },
        [&](const ChunkPartial& p) {
          for (size_t k = 0; k < numeric_.size(); ++k) {
            for (size_t q = 0; q < p.refine[k].size(); ++q) {
              std::vector<uint64_t>& into = found[k][q];
              const std::vector<uint64_t>& part = p.refine[k][q];
              if (numeric_[k].searches[q].collects()) {
                into.insert(into.end(), part.begin(), part.end());
              } else if (!part.empty()) {
                into.resize(kKeyBins);
                for (size_t b = 0; b < kKeyBins; ++b) into[b] += part[b];
              }
            }
          }
        });
    // A search that collected its range's keys takes its value from them
    // sorted; one that counted a finer histogram narrows again.
    for (size_t k = 0; k < numeric_.size(); ++k) {
      for (size_t q = 0; q < numeric_[k].searches.size(); ++q) {
        QuantileSearch& s = numeric_[k].searches[q];
        std::vector<uint64_t>& keys = found[k][q];
        if (s.key) continue;
        if (s.collects()) {
          std::sort(keys.begin(), keys.end());
          s.key = keys.at(s.rank - s.below);
        } else {
          narrow(s, keys);
        }
      }
    }
  }

  static bool has_open_search(const NumericAccumulator& g) {
    return std::any_of(g.searches.begin(), g.searches.end(),
                       [](const QuantileSearch& s) { return !s.key; });
  }

  bool refining() const { return std::any_of(numeric_.begin(), numeric_.end(), has_open_search); }

  // Pass 1 of a numeric column's part: the special values, the key range
  // and Welford's moments.
  static void moments(Type type, const ColumnView& v, uint64_t rows, NumericAccumulator& a) {
    double mean = 0, m2 = 0;
    uint64_t n = 0;
    for (uint64_t r = 0; r < rows; ++r) {
      if (v.is_null(r)) continue;
      const uint64_t w = v.words[r];
      if (!is_finite_word(type, w)) {
        const double d = std::bit_cast<double>(w);
        (std::isnan(d) ? a.nan : d > 0 ? a.pinf : a.ninf) += 1;
        continue;
      }
      const uint64_t key = key_of(type, w);
      a.min_key = std::min(a.min_key, key);
      a.max_key = std::max(a.max_key, key);
      const double x = value_of(type, key);
      ++n;
      const double delta = x - mean;
      mean += delta / (double)n;
      m2 += delta * (x - mean);
    }
    a.finite = n;
    a.mean = mean;
    a.m2 = m2;
  }

  // Pass 2: the display histogram and the key histogram over [min, max].
  static void histograms(Type type, const ColumnView& v, uint64_t rows,
                         const NumericAccumulator& global, NumericAccumulator& a) {
    a.display.assign(display_bins(type, global), 0);
    a.keys.assign(kKeyBins, 0);
    const KeyBins bins(global.min_key, global.max_key);
    for (uint64_t r = 0; r < rows; ++r) {
      const uint64_t w = v.words[r];
      if (v.is_null(r) || !is_finite_word(type, w)) continue;
      const uint64_t key = key_of(type, w);
      ++a.keys[bins.bin(key)];
      ++a.display[display_bin(type, key, global)];
    }
  }

  // Pass 3+: each open search's keys, or its finer histogram.
  static void refine(Type type, const ColumnView& v, uint64_t rows,
                     const NumericAccumulator& global, std::vector<std::vector<uint64_t>>& out) {
    out.resize(global.searches.size());
    std::vector<KeyBins> bins;
    for (size_t q = 0; q < global.searches.size(); ++q) {
      const QuantileSearch& s = global.searches[q];
      bins.emplace_back(s.lo, s.hi);
      if (!s.key && !s.collects()) out[q].assign(kKeyBins, 0);
    }
    for (uint64_t r = 0; r < rows; ++r) {
      const uint64_t w = v.words[r];
      if (v.is_null(r) || !is_finite_word(type, w)) continue;
      const uint64_t key = key_of(type, w);
      for (size_t q = 0; q < global.searches.size(); ++q) {
        const QuantileSearch& s = global.searches[q];
        if (s.key || key < s.lo || key > s.hi) continue;
        if (s.collects()) {
          out[q].push_back(key);
        } else {
          ++out[q][bins[q].bin(key)];
        }
      }
    }
  }

  // An integer column's display bins are whole numbers of values wide
  // (62 ages make 31 bins of two, not 40 that alias).
  static uint64_t integer_bin_width(const NumericAccumulator& g) {
    const u128 span = (u128)(g.max_key - g.min_key) + 1;
    return (uint64_t)((span + kHistogramBins - 1) / kHistogramBins);
  }

  static size_t display_bins(Type type, const NumericAccumulator& g) {
    if (is_float(type) || g.finite == 0) return kHistogramBins;
    const u128 span = (u128)(g.max_key - g.min_key) + 1;
    const uint64_t width = integer_bin_width(g);
    return (size_t)((span + width - 1) / width);
  }

  static uint64_t display_bin(Type type, uint64_t key, const NumericAccumulator& g) {
    if (!is_float(type)) return (key - g.min_key) / integer_bin_width(g);
    const double lo = value_of(type, g.min_key), hi = value_of(type, g.max_key);
    const double x = value_of(type, key);
    if (!(hi > lo)) return 0;
    return std::min<uint64_t>(kHistogramBins - 1,
                              (uint64_t)((x - lo) / (hi - lo) * (double)kHistogramBins));
  }

  // Narrows `s` to the bin of `histogram` (KeyBins over its [lo, hi]) that
  // holds its rank; pinned when the bin holds one key.
  static void narrow(QuantileSearch& s, const std::vector<uint64_t>& histogram) {
    uint64_t below = s.below, b = 0;
    while (below + histogram[b] <= s.rank) below += histogram[b++];
    const KeyBins bins(s.lo, s.hi);
    s.lo = bins.first_key(b);
    s.hi = bins.last_key(b);
    s.below = below;
    s.in_range = histogram[b];
    if (s.lo == s.hi) s.key = s.lo;
  }

  // Each quantile's key bin, from the key histogram of pass 2.
  void resolve_from_key_histograms() {
    for (NumericAccumulator& g : numeric_) {
      if (g.finite == 0) continue;
      for (double p : kStatsQuantiles) {
        QuantileSearch s;
        s.p = p;
        s.rank = (uint64_t)std::floor(p * (double)(g.finite - 1));
        s.lo = g.min_key;
        s.hi = g.max_key;
        narrow(s, g.keys);
        g.searches.push_back(s);
      }
      g.keys = {};
    }
  }

  // The texts of the values `top` lists, generated again at their first
  // coordinates (on the CPU: every device gives the same values).
  std::vector<std::vector<std::pair<std::string, uint64_t>>> top_texts(
      const std::vector<std::vector<HashCount>>& top) const {
    std::vector<std::vector<std::pair<std::string, uint64_t>>> out(top.size());
    if (text_columns_.empty()) return out;
    BatchOptions options = options_;
    options.device = DeviceChoice{};
    options.outputs.clear();
    for (size_t c : text_columns_) options.outputs.push_back(batch_.output_names()[c]);
    const BatchEvaluator texts(program_, options);
    std::map<uint64_t, std::vector<Column>> rows;
    for (size_t k = 0; k < top.size(); ++k) {
      for (const HashCount& c : top[k]) {
        auto it = rows.find(c.first);
        if (it == rows.end()) it = rows.emplace(c.first, texts.evaluate(c.first, 1)).first;
        out[k].emplace_back(std::string(it->second[k].text(0)), c.count);
      }
    }
    return out;
  }

  NumericStats numeric_stats(size_t k) const {
    const NumericAccumulator& g = numeric_[k];
    const Type type = type_of(numeric_columns_[k]);
    NumericStats n;
    n.finite = g.finite;
    n.nan = g.nan;
    n.positive_infinity = g.pinf;
    n.negative_infinity = g.ninf;
    if (g.finite == 0) return n;
    n.min = Value::of_word(type, word_of(type, g.min_key));
    n.max = Value::of_word(type, word_of(type, g.max_key));
    n.mean = g.mean;
    n.stddev = g.finite > 1 ? std::sqrt(g.m2 / (double)g.finite) : 0.0;
    for (const QuantileSearch& s : g.searches) {
      n.quantiles.emplace_back(s.p, Value::of_word(type, word_of(type, *s.key)));
    }
    n.histogram = g.display;
    const double lo = value_of(type, g.min_key), hi = value_of(type, g.max_key);
    const double width =
        is_float(type) ? (hi - lo) / (double)kHistogramBins : (double)integer_bin_width(g);
    for (size_t b = 0; b < n.histogram.size(); ++b)
      n.histogram_edges.push_back(lo + (double)b * width);
    n.histogram_edges.push_back(is_float(type) ? hi : hi + 1);
    return n;
  }

  TextStats text_stats(size_t k, std::vector<std::pair<std::string, uint64_t>> top) const {
    const TextColumn& g = text_[k];
    TextStats t;
    t.distinct_exact = g.exact;
    t.distinct = g.exact ? g.counts.size() : (uint64_t)std::llround(g.estimated_distinct);
    t.distinct_standard_error = g.exact ? 0.0 : TextFrequencies::estimate_standard_error();
    const uint64_t values = count_ - nulls_[text_columns_[k]];  // the rows that have one
    if (values) {
      t.min_length = g.lengths.min;
      t.max_length = g.lengths.max;
      t.mean_length = (double)g.lengths.total / (double)values;
    }
    t.top = std::move(top);
    t.top_share_bound =
        g.exact || t.top.size() == kTopValues ? 0.0 : 1.0 / (double)kTopShareDivisor;
    return t;
  }

  StatsReport report() const {
    StatsReport out;
    out.first = first_;
    out.count = count_;
    out.passes = pass_log_;
    out.device = batch_.device_name();
    const auto& names = batch_.output_names();
    const auto& types = batch_.output_types();
    for (size_t c = 0; c < names.size(); ++c) {
      ColumnStats s;
      s.name = names[c];
      s.type = types[c];
      s.logical = batch_.output_logical_types()[c];
      s.rows = count_;
      s.nones = batch_.output_is_none(c) ? count_ : nulls_[c];
      out.columns.push_back(std::move(s));
    }
    for (size_t k = 0; k < numeric_.size(); ++k) {
      out.columns[numeric_columns_[k]].numeric = numeric_stats(k);
    }
    // Counted inexactly, a column's recounted candidates include every
    // value of more than frequent_count() rows: those are listed.
    std::vector<std::vector<HashCount>> top;
    for (const TextColumn& t : text_) {
      top.push_back(most_frequent(t.counts, t.exact ? 0 : frequent_count()));
    }
    std::vector<std::vector<std::pair<std::string, uint64_t>>> texts = top_texts(top);
    for (size_t k = 0; k < text_.size(); ++k) {
      if (types[text_columns_[k]] == Type::Bytes) {
        for (auto& entry : texts[k]) entry.first = rt::hex_text(entry.first);
      }
      out.columns[text_columns_[k]].text = text_stats(k, std::move(texts[k]));
    }
    for (size_t k = 0; k < bool_columns_.size(); ++k)
      out.columns[bool_columns_[k]].trues = trues_[k];
    return out;
  }

  std::shared_ptr<const Program> program_;
  BatchOptions options_;
  BatchEvaluator batch_;  // pass 1's: every column
  uint64_t first_, count_;
  std::vector<size_t> numeric_columns_, text_columns_, bool_columns_;  // output indices
  std::vector<NumericAccumulator> numeric_;
  std::vector<TextColumn> text_;
  std::vector<uint64_t> trues_;
  std::vector<uint64_t> nulls_;  // per output
  std::vector<StatsPass> pass_log_;
};

}  // namespace

StatsReport compute_stats(std::shared_ptr<const Program> program, const BatchOptions& options,
                          uint64_t first, uint64_t count) {
  return StatsRun(std::move(program), options, first, count).run();
}

}  // namespace polyrt
