// A list of lists in two flat arrays, so the runners' hot loops walk one
// contiguous array instead of chasing a vector per entry.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace polyrt::slots {

class FlatLists {
 public:
  FlatLists() = default;
  explicit FlatLists(const std::vector<std::vector<uint32_t>>& lists) {
    for (const auto& list : lists) {
      items_.insert(items_.end(), list.begin(), list.end());
      starts_.push_back((uint32_t)items_.size());
    }
  }
  std::span<const uint32_t> operator[](size_t i) const {
    return {items_.data() + starts_[i], items_.data() + starts_[i + 1]};
  }
  size_t size() const { return starts_.size() - 1; }

 private:
  std::vector<uint32_t> starts_{0};
  std::vector<uint32_t> items_;
};

}  // namespace polyrt::slots
