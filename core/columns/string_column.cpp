#include "columns/string_column.hpp"

#include <algorithm>

namespace polyrt::columns {

char* StringColumn::grow(char* p, size_t n) {
  const size_t used = (size_t)(p - data_.get());
  const size_t capacity = (size_t)(end_ - data_.get());
  const size_t wanted = std::max({used + n, 2 * capacity, size_t{4096}});
  std::unique_ptr<char[]> bigger(new char[wanted + kPadding]);
  if (used) std::memcpy(bigger.get(), data_.get(), used);
  data_ = std::move(bigger);
  end_ = data_.get() + wanted;
  return data_.get() + used;
}

void StringColumn::append_repeated(std::string_view s, uint64_t count) {
  offsets_.reserve(offsets_.size() + count);
  if (s.empty()) {
    offsets_.resize(offsets_.size() + count, (int64_t)size_);
    return;
  }
  char* p = ensure(cursor(), s.size() * count);
  for (uint64_t r = 0; r < count; ++r) {
    std::memcpy(p, s.data(), s.size());
    p += s.size();
    finish_row(p);
  }
}

void StringColumn::append_rows(const StringColumn& other) {
  const uint64_t rows = other.rows();
  if (rows == 0) return;
  char* p = ensure(cursor(), other.size_);
  if (other.size_) std::memcpy(p, other.data_.get(), other.size_);
  const int64_t base = (int64_t)size_;
  offsets_.reserve(offsets_.size() + rows);
  for (uint64_t r = 1; r <= rows; ++r) offsets_.push_back(base + other.offsets_[r]);
  size_ += other.size_;
}

}  // namespace polyrt::columns
