#include "scheduler/stats/text_frequencies.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <bit>
#include <cmath>

#include "polyrt/stats.hpp"
#include "rtlib/xxh3.hpp"

namespace polyrt::stats {

namespace {

constexpr unsigned kSketchBits = 14;  // HyperLogLog: 2^14 registers
constexpr unsigned kShardBits = 6;    // the exact table's shards: 2^6
// A Misra-Gries summary's counters: a value's count is at most its counter
// plus (N - the counters' sum) / (kSummaryCounters + 1), N the rows summed.
// Four times the 1/kTopShareDivisor share that the report lists, so that
// in a column of mostly distinct values that bound rules every value out.
constexpr size_t kSummaryCounters = 4 * kTopShareDivisor;
// A thread's summary is reduced once it holds this many, so that a
// reduction's cost spreads over many adds.
constexpr size_t kSummaryReduceAt = 8 * kSummaryCounters;

}  // namespace

HashCounts count_part(const ColumnView& v, uint64_t rows, uint64_t first, TextLengths* lengths) {
  HashCounts out;
  out.reserve((size_t)rows);
  TextLengths part;
  for (uint64_t r = 0; r < rows; ++r) {
    if (v.is_null(r)) continue;  // a null row is counted as one, not as its text
    const std::string_view t = v.text(r);
    part.min = std::min<uint64_t>(part.min, t.size());
    part.max = std::max<uint64_t>(part.max, t.size());
    part.total += t.size();
    out.add(rt::xxh3_64(t), 1, first + r);
  }
  if (lengths) lengths->merge(part);
  return out;
}

struct TextFrequencies::Shared {
  struct Shard {
    std::mutex mutex;
    HashCounts counts;
  };
  Shard shards[size_t{1} << kShardBits];
  std::atomic<uint64_t> exact_size{0};
  std::atomic<uint64_t> rows{0};  // occurrences added
  std::atomic<bool> overflowed{false};
  std::unique_ptr<std::atomic<uint8_t>[]> sketch {
    new std::atomic<uint8_t>[ size_t{1} << kSketchBits ]()
  };
  tbb::enumerable_thread_specific<HashCounts> summaries;

  void sketch_add(uint64_t h) {
    const uint64_t index = h >> (64 - kSketchBits);
    const auto rank =
        (uint8_t)(std::countl_zero((h << kSketchBits) | (uint64_t{1} << (kSketchBits - 1))) + 1);
    std::atomic<uint8_t>& r = sketch[index];
    uint8_t seen = r.load(std::memory_order_relaxed);
    while (seen < rank && !r.compare_exchange_weak(seen, rank, std::memory_order_relaxed)) {
    }
  }

  // The part's values into the exact shards, each shard locked once.
  void add_exact(const HashCounts& part) {
    constexpr size_t kShards = size_t{1} << kShardBits;
    const auto shard_of = [](const HashCount& c) { return (size_t)(c.hash >> (64 - kShardBits)); };
    // A counting sort by shard: begins[s] .. begins[s + 1] is shard s's.
    size_t begins[kShards + 1] = {};
    part.for_each([&](const HashCount& c) { ++begins[shard_of(c) + 1]; });
    for (size_t s = 0; s < kShards; ++s) begins[s + 1] += begins[s];
    std::vector<HashCount> sorted(part.size());
    size_t next[kShards];
    std::copy(begins, begins + kShards, next);
    part.for_each([&](const HashCount& c) { sorted[next[shard_of(c)]++] = c; });
    for (size_t s = 0; s < kShards; ++s) {
      if (begins[s] == begins[s + 1]) continue;
      Shard& shard = shards[s];
      const std::lock_guard lock(shard.mutex);
      const size_t before = shard.counts.size();
      for (size_t i = begins[s]; i < begins[s + 1]; ++i) {
        shard.counts.add(sorted[i].hash, sorted[i].count, sorted[i].first);
      }
      if (exact_size.fetch_add(shard.counts.size() - before) + (shard.counts.size() - before) >
          kExactDistinct) {
        overflowed = true;
      }
    }
  }

  // A part of mostly distinct values reduces to few counters first (its
  // (k + 1)-th largest count is then 1), so the thread's summary sees few.
  void add_to_summary(HashCounts& part) {
    part.reduce_to(kSummaryCounters);
    HashCounts& summary = summaries.local();
    summary.add_all(part);
    if (summary.size() >= kSummaryReduceAt) summary.reduce_to(kSummaryCounters);
  }
};

TextFrequencies::TextFrequencies() : shared_(std::make_unique<Shared>()) {}
TextFrequencies::~TextFrequencies() = default;

void TextFrequencies::add_part(HashCounts part) {
  uint64_t rows = 0;
  part.for_each([&](const HashCount& c) {
    rows += c.count;
    shared_->sketch_add(c.hash);
  });
  shared_->rows += rows;
  // A part goes whole to the exact table or whole to a summary: a part
  // that began before the table overflowed finishes there.
  if (shared_->overflowed) {
    shared_->add_to_summary(part);
  } else {
    shared_->add_exact(part);
  }
}

bool TextFrequencies::exact() const {
  return !shared_->overflowed;
}

HashCounts TextFrequencies::take_counts() {
  HashCounts out;
  out.reserve((size_t)shared_->exact_size);
  for (Shared::Shard& shard : shared_->shards) {
    out.add_all(shard.counts);
    shard.counts.clear();
  }
  return out;
}

HashCounts TextFrequencies::take_candidates(uint64_t above) {
  // One summary of everything: the exact shards' counts (the parts before
  // the overflow) and the threads' summaries.
  HashCounts summary;
  const auto merge = [&](HashCounts& part) {
    summary.add_all(part);
    part.clear();
    summary.reduce_to(kSummaryCounters);
  };
  for (Shared::Shard& shard : shared_->shards) merge(shard.counts);
  for (HashCounts& part : shared_->summaries) merge(part);
  uint64_t kept = 0;
  summary.for_each([&](const HashCount& c) { kept += c.count; });
  const uint64_t undercount =
      (shared_->rows - kept + kSummaryCounters) / (kSummaryCounters + 1);  // rounded up
  HashCounts out;
  summary.for_each([&](const HashCount& c) {
    if (c.count + undercount > above) out.add(c.hash, c.count, c.first);
  });
  return out;
}

double TextFrequencies::estimated_distinct() const {
  constexpr double m = (double)(size_t{1} << kSketchBits);
  double sum = 0;
  size_t zeros = 0;
  for (size_t i = 0; i < (size_t{1} << kSketchBits); ++i) {
    const uint8_t r = shared_->sketch[i].load(std::memory_order_relaxed);
    sum += std::ldexp(1.0, -r);
    zeros += r == 0;
  }
  const double estimate = 0.7213 / (1 + 1.079 / m) * m * m / sum;
  if (estimate <= 2.5 * m && zeros) return m * std::log(m / (double)zeros);  // linear counting
  return estimate;
}

double TextFrequencies::estimate_standard_error() {
  return 1.04 / std::sqrt((double)(size_t{1} << kSketchBits));
}

CandidateRecount::CandidateRecount(const HashCounts& candidates) {
  candidates_.reserve(candidates.size());
  candidates.for_each([&](const HashCount& c) { candidates_.add(c.hash, 0, 0); });
  counts_.assign(candidates_.slot_count(), 0);
  firsts_.assign(candidates_.slot_count(), ~uint64_t{0});
}

void CandidateRecount::add_part(const HashCounts& part) {
  std::vector<std::pair<size_t, const HashCount*>> hits;
  part.for_each([&](const HashCount& c) {
    if (const auto slot = candidates_.slot_of(c.hash)) hits.emplace_back(*slot, &c);
  });
  const std::lock_guard lock(mutex_);
  for (const auto& [slot, c] : hits) {
    counts_[slot] += c->count;
    firsts_[slot] = std::min(firsts_[slot], c->first);
  }
}

HashCounts CandidateRecount::counts() const {
  HashCounts out;
  out.reserve(candidates_.size());
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i]) out.add(candidates_.slot(i).hash, counts_[i], firsts_[i]);
  }
  return out;
}

}  // namespace polyrt::stats
