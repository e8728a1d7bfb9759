// Counts of values known by their 64-bit hashes, in an open-addressed
// table: how `polyrt stats` counts a text column's values without keeping
// a string per value (a hash table of strings costs a heap allocation per
// distinct value, the most of a text column's time). Each value also keeps
// its first coordinate, which orders ties and lets the report generate the
// value's text again.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace polyrt::stats {

struct HashCount {
  uint64_t hash = 0;  // 0: an empty slot (a value hashing to 0 counts as 1)
  uint64_t count = 0;
  uint64_t first = ~uint64_t{0};  // the least coordinate that has the value
};

class HashCounts {
 public:
  size_t size() const { return size_; }

  // Room for `values` values without growing.
  void reserve(size_t values) {
    size_t slots = 64;
    while (slots < 2 * values) slots *= 2;
    if (slots > slots_.size()) rehash(slots);
  }

  // Adds `count` occurrences of `hash`, the first at coordinate `first`.
  void add(uint64_t hash, uint64_t count, uint64_t first) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    HashCount& slot = slots_[find_slot(stored(hash))];
    if (slot.hash == 0) {
      slot.hash = stored(hash);
      ++size_;
    }
    slot.count += count;
    slot.first = std::min(slot.first, first);
  }

  // Adds every count of `other` (a merge of two counts or summaries).
  void add_all(const HashCounts& other) {
    other.for_each([&](const HashCount& c) { add(c.hash, c.count, c.first); });
  }

  // The slot index of `hash` (stable until the next add or reduce), or none.
  std::optional<size_t> slot_of(uint64_t hash) const {
    if (slots_.empty()) return std::nullopt;
    const size_t i = find_slot(stored(hash));
    return slots_[i].hash ? std::optional<size_t>(i) : std::nullopt;
  }
  size_t slot_count() const { return slots_.size(); }
  const HashCount& slot(size_t i) const { return slots_[i]; }

  template <typename Visit>
  void for_each(const Visit& visit) const {
    for (const HashCount& s : slots_) {
      if (s.hash) visit(s);
    }
  }

  // A Misra-Gries reduction to at most `k` counters: every counter drops by
  // the (k + 1)-th largest and those left at 0 go. However many reductions
  // and merges (adds of other tables) a count goes through, a value of more
  // than N / (k + 1) of the N occurrences keeps a counter (Agarwal et al.,
  // "Mergeable summaries").
  void reduce_to(size_t k) {
    if (size_ <= k) return;
    std::vector<uint64_t> counts;
    counts.reserve(size_);
    for_each([&](const HashCount& s) { counts.push_back(s.count); });
    std::nth_element(counts.begin(), counts.begin() + (ptrdiff_t)k, counts.end(), std::greater<>());
    const uint64_t cut = counts[k];
    std::vector<HashCount> kept;
    for_each([&](const HashCount& s) {
      if (s.count > cut) kept.push_back({s.hash, s.count - cut, s.first});
    });
    clear();
    for (const HashCount& s : kept) add(s.hash, s.count, s.first);
  }

  void clear() {
    slots_ = {};
    size_ = 0;
  }

 private:
  static uint64_t stored(uint64_t hash) { return hash | (hash == 0); }

  size_t find_slot(uint64_t h) const {
    const size_t mask = slots_.size() - 1;
    size_t i = (size_t)(h ^ (h >> 29)) & mask;
    while (slots_[i].hash != h && slots_[i].hash != 0) i = (i + 1) & mask;
    return i;
  }

  void grow() { rehash(std::max<size_t>(64, slots_.size() * 2)); }

  void rehash(size_t slots) {
    std::vector<HashCount> old = std::move(slots_);
    slots_.assign(slots, HashCount{});
    for (const HashCount& s : old) {
      if (s.hash) slots_[find_slot(s.hash)] = s;
    }
  }

  std::vector<HashCount> slots_;
  size_t size_ = 0;
};

}  // namespace polyrt::stats
