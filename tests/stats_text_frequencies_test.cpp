// How polyrt stats counts text values (scheduler/stats/text_frequencies):
// exact counts up to the bound whatever the order and threads of the
// parts, and past it a candidate set that holds every frequent value and,
// for mostly distinct values, nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <thread>

#include "polyrt/stats.hpp"
#include "scheduler/stats/text_frequencies.hpp"

namespace polyrt::stats {
namespace {

// Values as hashes look (the sketch reads the top bits), never 0: splitmix64.
uint64_t mixed(uint64_t x) {
  x = (x + 1) * 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

// Parts of `values` (a hash each, at coordinates 0, 1, ...) of `part_rows`.
std::vector<HashCounts> parts_of(const std::vector<uint64_t>& values, size_t part_rows) {
  std::vector<HashCounts> parts;
  for (size_t begin = 0; begin < values.size(); begin += part_rows) {
    HashCounts& part = parts.emplace_back();
    for (size_t r = begin; r < std::min(values.size(), begin + part_rows); ++r) {
      part.add(values[r], 1, r);
    }
  }
  return parts;
}

// Feeds `parts` in a shuffled order from two threads.
void feed(TextFrequencies& f, std::vector<HashCounts> parts, unsigned seed) {
  std::shuffle(parts.begin(), parts.end(), std::mt19937(seed));
  std::thread other([&] {
    for (size_t p = 1; p < parts.size(); p += 2) f.add_part(parts[p]);
  });
  for (size_t p = 0; p < parts.size(); p += 2) f.add_part(parts[p]);
  other.join();
}

std::map<uint64_t, std::pair<uint64_t, uint64_t>> as_map(const HashCounts& counts) {
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> out;
  counts.for_each([&](const HashCount& c) { out[c.hash] = {c.count, c.first}; });
  return out;
}

TEST(StatsHashCounts, AddsCountsAndKeepsTheFirstCoordinate) {
  HashCounts c;
  c.add(7, 2, 50);
  c.add(7, 1, 10);
  c.add(0, 1, 3);  // 0 marks an empty slot: stored as 1
  EXPECT_EQ(c.size(), 2u);
  EXPECT_EQ(as_map(c).at(7), std::make_pair(uint64_t{3}, uint64_t{10}));
  ASSERT_TRUE(c.slot_of(7));
  EXPECT_EQ(c.slot(*c.slot_of(7)).count, 3u);
  EXPECT_FALSE(c.slot_of(8));
}

TEST(StatsHashCounts, AMisraGriesReductionKeepsEveryValueAboveItsBound) {
  // 100,000 occurrences: 5 values of 2% each, the rest distinct. Reduced to
  // 64 counters at every 1,000 values, a value of more than 100000 / 65
  // occurrences must keep a counter.
  HashCounts c;
  uint64_t n = 0;
  for (uint64_t r = 0; r < 100000; ++r, ++n) {
    c.add(r % 50 < 5 ? 1000 + r % 50 : 1'000'000 + r, 1, r);
    if (c.size() > 1000) c.reduce_to(64);
  }
  c.reduce_to(64);
  EXPECT_LE(c.size(), 64u);
  for (uint64_t v = 1000; v < 1005; ++v) EXPECT_TRUE(c.slot_of(v)) << v;
}

TEST(StatsTextFrequencies, CountsExactlyUpToTheBoundInAnyOrder) {
  std::vector<uint64_t> values;
  for (uint64_t r = 0; r < 200000; ++r) values.push_back(mixed(r * r % 5003));
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> expected;
  for (uint64_t r = 0; r < values.size(); ++r) {
    auto [it, fresh] = expected.try_emplace(values[r], 0, r);
    ++it->second.first;
  }
  for (unsigned seed : {1u, 2u}) {
    TextFrequencies f;
    feed(f, parts_of(values, 8192), seed);
    ASSERT_TRUE(f.exact());
    EXPECT_EQ(as_map(f.take_counts()), expected);
  }
}

TEST(StatsTextFrequencies, PastTheBoundOnlyFrequentValuesAreCandidates) {
  // kExactDistinct + 300,000 distinct values in 70 % of the rows, and 3
  // values of 10 % each.
  const uint64_t rows = (kExactDistinct + 300000) * 10 / 7;
  std::vector<uint64_t> values;
  for (uint64_t r = 0; r < rows; ++r) values.push_back(mixed(r % 10 < 3 ? r % 10 : 100 + r));
  TextFrequencies f;
  feed(f, parts_of(values, 8192), 3);
  ASSERT_FALSE(f.exact());
  EXPECT_NEAR(f.estimated_distinct(), (double)(kExactDistinct + 300000 + 3),
              5 * TextFrequencies::estimate_standard_error() * (double)kExactDistinct);
  const HashCounts candidates = f.take_candidates(rows / kTopShareDivisor);
  for (uint64_t v = 0; v < 3; ++v) EXPECT_TRUE(candidates.slot_of(mixed(v))) << v;
  EXPECT_LE(candidates.size(), 16u);

  CandidateRecount recount(candidates);
  for (const HashCounts& part : parts_of(values, 8192)) recount.add_part(part);
  const auto exact = as_map(recount.counts());
  for (uint64_t v = 0; v < 3; ++v) {
    EXPECT_EQ(exact.at(mixed(v)), std::make_pair((rows + 9 - v) / 10, v)) << v;
  }
}

TEST(StatsTextFrequencies, MostlyDistinctValuesLeaveNoCandidate) {
  const uint64_t rows = kExactDistinct * 3 / 2;
  std::vector<uint64_t> values;
  for (uint64_t r = 0; r < rows; ++r) values.push_back(mixed(r));
  TextFrequencies f;
  feed(f, parts_of(values, 8192), 4);
  ASSERT_FALSE(f.exact());
  EXPECT_EQ(f.take_candidates(rows / kTopShareDivisor).size(), 0u);
}

}  // namespace
}  // namespace polyrt::stats
