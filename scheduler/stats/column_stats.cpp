#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <mutex>
#include <unordered_map>

#include "polyrt/numeric_types.hpp"
#include "polyrt/stats.hpp"
#include "rtlib/xxh3.hpp"

namespace polyrt {

namespace {

constexpr uint64_t kKeyBins = 4096;           // a quantile's key histogram
constexpr uint64_t kCollectLimit = 1u << 20;  // values a pass collects for one quantile
constexpr unsigned kSketchBits = 14;          // HyperLogLog: 2^14 registers

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

// The bin of `key` among `bins` equal bins over the keys [lo, hi].
uint64_t bin_of(uint64_t key, uint64_t lo, uint64_t hi, uint64_t bins) {
  const unsigned __int128 span = (unsigned __int128)(hi - lo) + 1;
  return (uint64_t)((unsigned __int128)(key - lo) * bins / span);
}

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

// Text keys looked up by string_view, without a copy per row.
struct TextHash {
  using is_transparent = void;
  size_t operator()(std::string_view t) const { return rt::xxh3_64(t); }
};
using TextCounts = std::unordered_map<std::string, uint64_t, TextHash, std::equal_to<>>;

// The distinct texts of a column as their 64-bit hashes, in an open-addressed
// table (a string set costs a microsecond an insert here). Two texts
// sharing a hash count once: at kExactDistinct values the chance of any
// such pair is below 3e-8.
class HashSet {
 public:
  size_t size() const { return size_; }
  void insert(uint64_t h) {
    h |= h == 0;  // 0 marks an empty slot
    if (2 * (size_ + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      if (slots_[i] == h) return;
      if (slots_[i] == 0) {
        slots_[i] = h;
        ++size_;
        return;
      }
    }
  }
  void clear() {
    slots_ = {};
    size_ = 0;
  }

 private:
  void grow() {
    std::vector<uint64_t> old = std::move(slots_);
    slots_.assign(std::max<size_t>(1024, old.size() * 2), 0);
    size_ = 0;
    for (uint64_t h : old) {
      if (h) insert(h);
    }
  }
  std::vector<uint64_t> slots_;
  size_t size_ = 0;
};

// One numeric column's accumulators, merged chunk by chunk.
struct NumericAccumulator {
  uint64_t finite = 0, nan = 0, pinf = 0, ninf = 0;
  uint64_t min_key = ~uint64_t{0}, max_key = 0;
  double mean = 0, m2 = 0;              // Welford over the finite values
  std::vector<uint64_t> display, keys;  // pass 2: the display and key histograms
  std::vector<QuantileSearch> searches;
};

struct TextAccumulator {
  uint64_t min_length = ~uint64_t{0}, max_length = 0, total_length = 0, rows = 0;
  HashSet distinct;  // the column's (a part's: in `hashes`)
  std::vector<uint64_t> hashes;
  bool exact = true;
  std::vector<uint8_t> sketch;  // HyperLogLog registers (the column's, a pass-1 part's)
  TextCounts candidates;        // a Misra-Gries summary, then exact counts
};

// What one pass computes of one chunk (or part of one), merged in order.
struct ChunkPartial {
  std::vector<NumericAccumulator> numeric;
  std::vector<TextAccumulator> text;
  std::vector<uint64_t> trues;
  // Stage 3, per numeric column and search: the keys it collects or its
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

void sketch_add(std::vector<uint8_t>& sketch, std::string_view text) {
  const uint64_t h = rt::xxh3_64(text);
  const uint64_t index = h >> (64 - kSketchBits);
  const uint8_t rank =
      (uint8_t)(std::countl_zero((h << kSketchBits) | (uint64_t{1} << (kSketchBits - 1))) + 1);
  sketch[index] = std::max(sketch[index], rank);
}

double sketch_estimate(const std::vector<uint8_t>& sketch) {
  const double m = (double)sketch.size();
  double sum = 0;
  size_t zeros = 0;
  for (uint8_t r : sketch) {
    sum += std::ldexp(1.0, -r);
    zeros += r == 0;
  }
  const double estimate = 0.7213 / (1 + 1.079 / m) * m * m / sum;
  if (estimate <= 2.5 * m && zeros) return m * std::log(m / (double)zeros);  // linear counting
  return estimate;
}

// A Misra-Gries summary reduced to kTopCandidates counters: every counter
// drops by the (kTopCandidates + 1)-th largest and the empty ones go. Any
// value of share above 1/kTopCandidates keeps a counter through any number
// of such merges (Agarwal et al., mergeable summaries).
void reduce_candidates(TextCounts& c) {
  if (c.size() <= kTopCandidates) return;
  std::vector<uint64_t> counts;
  counts.reserve(c.size());
  for (const auto& [text, n] : c) counts.push_back(n);
  std::nth_element(counts.begin(), counts.begin() + kTopCandidates, counts.end(), std::greater<>());
  const uint64_t cut = counts[kTopCandidates];
  for (auto it = c.begin(); it != c.end();) {
    if (it->second <= cut) {
      it = c.erase(it);
    } else {
      it->second -= cut;
      ++it;
    }
  }
}

class StatsRun {
 public:
  StatsRun(std::shared_ptr<const Program> program, const BatchOptions& options, uint64_t first,
           uint64_t count)
      : batch_(std::move(program), options), first_(first), count_(count) {
    const auto& types = batch_.output_types();
    for (size_t c = 0; c < types.size(); ++c) {
      if (batch_.output_is_none(c)) continue;
      (is_text(types[c])        ? text_columns_
       : types[c] == Type::Bool ? bool_columns_
                                : numeric_columns_)
          .push_back(c);
    }
    numeric_.resize(numeric_columns_.size());
    text_.resize(text_columns_.size());
    for (TextAccumulator& t : text_) t.sketch.assign(size_t{1} << kSketchBits, 0);
    trues_.assign(bool_columns_.size(), 0);
  }

  StatsReport run() {
    pass(1);
    prepare_second_pass();
    pass(2);
    resolve_from_key_histograms();
    while (open_searches()) pass(3);
    return report();
  }

 private:
  // One generation of the rows: `stage` 1 (moments, texts), 2 (histograms,
  // candidates' counts) or 3 (quantile refinement).
  void pass(int stage) {
    ++passes_;
    std::mutex mutex;
    std::map<uint64_t, ChunkPartial> partials;
    batch_.stream_encoded(
        first_, count_,
        [&](const ColumnChunk& chunk, std::string&) {
          ChunkPartial partial = compute(stage, chunk);
          const std::lock_guard lock(mutex);
          partials.emplace(chunk.first, std::move(partial));
        },
        [&](const ColumnChunk& chunk, std::string&) {
          const std::lock_guard lock(mutex);
          if (chunk.rows == 0) return;
          // The chunk's parts, in order (its last row may be 2^64 - 1).
          const auto end = partials.upper_bound(chunk.first + (chunk.rows - 1));
          for (auto it = partials.lower_bound(chunk.first); it != end;) {
            merge(stage, it->second);
            it = partials.erase(it);
          }
        });
  }

  ChunkPartial compute(int stage, const ColumnChunk& chunk) const {
    ChunkPartial out;
    out.numeric.resize(numeric_columns_.size());
    out.refine.resize(numeric_columns_.size());
    for (size_t k = 0; k < numeric_columns_.size(); ++k) {
      const ColumnView& v = chunk.columns[numeric_columns_[k]];
      const Type type = batch_.output_types()[numeric_columns_[k]];
      if (stage == 1) {
        moments(type, v, chunk.rows, out.numeric[k]);
      } else if (numeric_[k].finite == 0) {
        continue;  // no finite value: no histogram, no quantile
      } else if (stage == 2) {
        histograms(type, v, chunk.rows, numeric_[k], out.numeric[k]);
      } else {
        refine(type, v, chunk.rows, numeric_[k], out.refine[k]);
      }
    }
    // Texts take part in passes 1 and 2 only: refinement is numeric.
    out.text.resize(stage <= 2 ? text_columns_.size() : 0);
    for (size_t k = 0; k < out.text.size(); ++k) {
      const ColumnView& v = chunk.columns[text_columns_[k]];
      TextAccumulator& a = out.text[k];
      if (stage == 1) a.sketch.assign(size_t{1} << kSketchBits, 0);
      for (uint64_t r = 0; r < chunk.rows; ++r) {
        const std::string_view t = v.text(r);
        if (stage == 1) {
          a.min_length = std::min<uint64_t>(a.min_length, t.size());
          a.max_length = std::max<uint64_t>(a.max_length, t.size());
          a.total_length += t.size();
          sketch_add(a.sketch, t);
          if (const auto it = a.candidates.find(t); it != a.candidates.end()) {
            ++it->second;
          } else {
            a.candidates.emplace(t, 1);
          }
        } else if (stage == 2) {
          if (const auto it = text_[k].candidates.find(t); it != text_[k].candidates.end()) {
            ++a.candidates[it->first];
          }
        }
      }
      a.rows = chunk.rows;
      if (stage == 1) {
        // The part's distinct values as hashes, then its counts as a summary.
        a.hashes.reserve(a.candidates.size());
        for (const auto& [t, n] : a.candidates) a.hashes.push_back(rt::xxh3_64(t));
        reduce_candidates(a.candidates);
      }
    }
    out.trues.assign(bool_columns_.size(), 0);
    for (size_t k = 0; stage == 1 && k < bool_columns_.size(); ++k) {
      const ColumnView& v = chunk.columns[bool_columns_[k]];
      for (uint64_t r = 0; r < chunk.rows; ++r) out.trues[k] += v.words[r] != 0;
    }
    return out;
  }

  // Pass 1 of a numeric column's part: the special values, the key range
  // and Welford's moments.
  static void moments(Type type, const ColumnView& v, uint64_t rows, NumericAccumulator& a) {
    double mean = 0, m2 = 0;
    uint64_t n = 0;
    for (uint64_t r = 0; r < rows; ++r) {
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
    for (uint64_t r = 0; r < rows; ++r) {
      const uint64_t w = v.words[r];
      if (!is_finite_word(type, w)) continue;
      const uint64_t key = key_of(type, w);
      ++a.keys[bin_of(key, global.min_key, global.max_key, kKeyBins)];
      ++a.display[display_bin(type, key, global)];
    }
  }

  // Pass 3+: each open search's keys, or its finer histogram.
  static void refine(Type type, const ColumnView& v, uint64_t rows,
                     const NumericAccumulator& global, std::vector<std::vector<uint64_t>>& out) {
    out.resize(global.searches.size());
    for (size_t q = 0; q < global.searches.size(); ++q) {
      const QuantileSearch& s = global.searches[q];
      if (!s.key && !s.collects()) out[q].assign(kKeyBins, 0);
    }
    for (uint64_t r = 0; r < rows; ++r) {
      const uint64_t w = v.words[r];
      if (!is_finite_word(type, w)) continue;
      const uint64_t key = key_of(type, w);
      for (size_t q = 0; q < global.searches.size(); ++q) {
        const QuantileSearch& s = global.searches[q];
        if (s.key || key < s.lo || key > s.hi) continue;
        if (s.collects()) {
          out[q].push_back(key);
        } else {
          ++out[q][bin_of(key, s.lo, s.hi, kKeyBins)];
        }
      }
    }
  }

  // An integer column's display bins are whole numbers of values wide
  // (62 ages make 31 bins of two, not 40 that alias).
  static uint64_t integer_bin_width(const NumericAccumulator& g) {
    const unsigned __int128 span = (unsigned __int128)(g.max_key - g.min_key) + 1;
    return (uint64_t)((span + kHistogramBins - 1) / kHistogramBins);
  }

  static size_t display_bins(Type type, const NumericAccumulator& g) {
    if (is_float(type) || g.finite == 0) return kHistogramBins;
    const unsigned __int128 span = (unsigned __int128)(g.max_key - g.min_key) + 1;
    const uint64_t width = integer_bin_width(g);
    return (size_t)((span + width - 1) / width);
  }

  static uint64_t display_bin(Type type, uint64_t key, const NumericAccumulator& g) {
    if (!is_float(type)) return (key - g.min_key) / integer_bin_width(g);
    {
      const double lo = value_of(type, g.min_key), hi = value_of(type, g.max_key);
      const double x = value_of(type, key);
      if (!(hi > lo)) return 0;
      return std::min<uint64_t>(kHistogramBins - 1,
                                (uint64_t)((x - lo) / (hi - lo) * (double)kHistogramBins));
    }
  }

  void merge(int stage, ChunkPartial& p) {
    for (size_t k = 0; k < numeric_.size(); ++k) {
      NumericAccumulator& g = numeric_[k];
      NumericAccumulator& a = p.numeric[k];
      if (stage == 1) {
        g.nan += a.nan;
        g.pinf += a.pinf;
        g.ninf += a.ninf;
        g.min_key = std::min(g.min_key, a.min_key);
        g.max_key = std::max(g.max_key, a.max_key);
        merge_welford(g, a.finite, a.mean, a.m2);
      } else if (stage == 2) {
        if (a.display.empty()) continue;  // a column without finite values
        for (size_t b = 0; b < g.display.size(); ++b) g.display[b] += a.display[b];
        for (size_t b = 0; b < kKeyBins; ++b) g.keys[b] += a.keys[b];
      } else {
        for (size_t q = 0; q < p.refine[k].size(); ++q) {
          std::vector<uint64_t>& into = refine_[k][q];
          const std::vector<uint64_t>& part = p.refine[k][q];
          if (g.searches[q].collects()) {
            into.insert(into.end(), part.begin(), part.end());
          } else if (!part.empty()) {
            into.resize(kKeyBins);
            for (size_t b = 0; b < kKeyBins; ++b) into[b] += part[b];
          }
        }
      }
    }
    for (size_t k = 0; k < p.text.size(); ++k) {
      TextAccumulator& g = text_[k];
      TextAccumulator& a = p.text[k];
      if (stage == 1) {
        g.rows += a.rows;
        g.min_length = std::min(g.min_length, a.min_length);
        g.max_length = std::max(g.max_length, a.max_length);
        g.total_length += a.total_length;
        for (size_t r = 0; r < g.sketch.size(); ++r)
          g.sketch[r] = std::max(g.sketch[r], a.sketch[r]);
        for (uint64_t h : a.hashes) {
          if (!g.exact) break;
          g.distinct.insert(h);
          if (g.distinct.size() > kExactDistinct) {
            g.exact = false;
            g.distinct.clear();
          }
        }
        for (auto& [t, n] : a.candidates) g.candidates[t] += n;
        reduce_candidates(g.candidates);
      } else if (stage == 2) {
        for (auto& [t, n] : a.candidates) exact_counts_[k][t] += n;
      }
    }
    for (size_t k = 0; k < trues_.size(); ++k) trues_[k] += p.trues[k];
  }

  void prepare_second_pass() {
    for (size_t k = 0; k < numeric_.size(); ++k) {
      NumericAccumulator& g = numeric_[k];
      g.display.assign(display_bins(batch_.output_types()[numeric_columns_[k]], g), 0);
      g.keys.assign(kKeyBins, 0);
    }
    exact_counts_.assign(text_.size(), {});
  }

  // Narrows `s` to the bin of `histogram` (equal bins over its [lo, hi])
  // that holds its rank; pinned when the bin holds one key.
  static void narrow(QuantileSearch& s, const std::vector<uint64_t>& histogram) {
    uint64_t below = s.below, b = 0;
    while (below + histogram[b] <= s.rank) below += histogram[b++];
    // Bin b holds the keys k with floor((k - lo) * bins / span) == b: from
    // lo + ceil(b * span / bins) up to the next bin's first key.
    const uint64_t lo = s.lo, hi = s.hi;
    const unsigned __int128 span = (unsigned __int128)(hi - lo) + 1;
    const auto first_key = [&](uint64_t bin) {
      return lo + (uint64_t)((span * bin + kKeyBins - 1) / kKeyBins);
    };
    s.lo = first_key(b);
    s.hi = b + 1 == kKeyBins ? hi : first_key(b + 1) - 1;
    s.below = below;
    s.in_range = histogram[b];
    if (s.lo == s.hi) s.key = s.lo;
  }

  // Each quantile's key bin, from the key histogram of pass 2.
  void resolve_from_key_histograms() {
    refine_.assign(numeric_.size(), {});
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
    for (size_t k = 0; k < numeric_.size(); ++k) {
      refine_[k].assign(numeric_[k].searches.size(), {});
    }
  }

  // After a refinement pass: a search that collected its range's keys
  // takes its value from them sorted; one that counted a finer histogram
  // narrows again. Whether any search is still open.
  bool open_searches() {
    bool open = false;
    for (size_t k = 0; k < numeric_.size(); ++k) {
      NumericAccumulator& g = numeric_[k];
      for (size_t q = 0; q < g.searches.size(); ++q) {
        QuantileSearch& s = g.searches[q];
        std::vector<uint64_t>& found = refine_[k][q];
        if (!s.key && passes_ > 2) {
          if (s.collects()) {
            std::sort(found.begin(), found.end());
            s.key = found.at(s.rank - s.below);
          } else {
            narrow(s, found);
          }
        }
        found.clear();
        open |= !s.key;
      }
    }
    return open;
  }

  StatsReport report() {
    StatsReport out;
    out.first = first_;
    out.count = count_;
    out.passes = passes_;
    out.device = batch_.device_name();
    const auto& names = batch_.output_names();
    const auto& types = batch_.output_types();
    for (size_t c = 0; c < names.size(); ++c) {
      ColumnStats s;
      s.name = names[c];
      s.type = types[c];
      s.rows = count_;
      s.nones = batch_.output_is_none(c) ? count_ : 0;
      out.columns.push_back(std::move(s));
    }
    for (size_t k = 0; k < numeric_.size(); ++k) {
      const NumericAccumulator& g = numeric_[k];
      const Type type = types[numeric_columns_[k]];
      NumericStats n;
      n.finite = g.finite;
      n.nan = g.nan;
      n.positive_infinity = g.pinf;
      n.negative_infinity = g.ninf;
      if (g.finite) {
        n.min = Value::of_word(type, word_of(type, g.min_key));
        n.max = Value::of_word(type, word_of(type, g.max_key));
        n.mean = g.mean;
        n.stddev = g.finite > 1 ? std::sqrt(g.m2 / (double)g.finite) : 0.0;
        for (const QuantileSearch& s : g.searches) {
          n.quantiles.emplace_back(s.p, Value::of_word(type, word_of(type, *s.key)));
        }
        n.histogram = g.display;
      }
      out.columns[numeric_columns_[k]].numeric = std::move(n);
    }
    for (size_t k = 0; k < text_.size(); ++k) {
      const TextAccumulator& g = text_[k];
      TextStats t;
      t.distinct_exact = g.exact;
      t.distinct = g.exact ? g.distinct.size() : (uint64_t)std::llround(sketch_estimate(g.sketch));
      t.distinct_standard_error = g.exact ? 0.0 : 1.04 / std::sqrt((double)g.sketch.size());
      if (g.rows) {
        t.min_length = g.min_length;
        t.max_length = g.max_length;
        t.mean_length = (double)g.total_length / (double)g.rows;
      }
      std::vector<std::pair<std::string, uint64_t>> top(exact_counts_[k].begin(),
                                                        exact_counts_[k].end());
      std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
      });
      if (top.size() > 10) top.resize(10);
      t.top = std::move(top);
      out.columns[text_columns_[k]].text = std::move(t);
    }
    for (size_t k = 0; k < bool_columns_.size(); ++k)
      out.columns[bool_columns_[k]].trues = trues_[k];
    return out;
  }

  BatchEvaluator batch_;
  uint64_t first_, count_;
  std::vector<size_t> numeric_columns_, text_columns_, bool_columns_;
  std::vector<NumericAccumulator> numeric_;
  std::vector<TextAccumulator> text_;
  std::vector<uint64_t> trues_;
  std::vector<TextCounts> exact_counts_;
  std::vector<std::vector<std::vector<uint64_t>>> refine_;  // per numeric column and search
  unsigned passes_ = 0;
};

}  // namespace

StatsReport compute_stats(std::shared_ptr<const Program> program, const BatchOptions& options,
                          uint64_t first, uint64_t count) {
  return StatsRun(std::move(program), options, first, count).run();
}

}  // namespace polyrt
