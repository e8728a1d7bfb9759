// A column of strings in Arrow's LargeString layout: row r is the bytes
// [offsets[r], offsets[r + 1]) of one contiguous buffer. Batch chunks keep
// their str columns this way so that row writers copy fields with memcpy and
// bindings to Arrow (pyarrow, polars) can take them without a copy. Offsets
// are 64-bit (LargeString, polars' own layout): one row or chunk may pass
// 2 GiB. A cleared column keeps its buffers, so a recycled chunk allocates
// nothing once its columns have grown to their chunk's size.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace polyrt::columns {

// Bytes after the end of a column's buffer that may be read and overwritten,
// so that short copies move a fixed 16 bytes with no length check.
inline constexpr size_t kPadding = 16;

// Copies n bytes to p, where src may be read and p written kPadding bytes
// past what n needs (a padded buffer): fields up to 16 bytes in one move,
// up to 32 in two that overlap, so that short text never calls memcpy.
inline char* copy_padded(char* p, const char* src, size_t n) {
  if (n <= kPadding) {
    std::memcpy(p, src, kPadding);
  } else if (n <= 2 * kPadding) {
    std::memcpy(p, src, kPadding);
    std::memcpy(p + n - kPadding, src + n - kPadding, kPadding);
  } else {
    std::memcpy(p, src, n);
  }
  return p + n;
}

class StringColumn {
 public:
  StringColumn() : offsets_{0} {}
  StringColumn(StringColumn&&) noexcept = default;
  StringColumn& operator=(StringColumn&&) noexcept = default;

  // Empties the column for `rows` new rows, keeping its buffers.
  void clear(uint64_t rows = 0) {
    offsets_.resize(1);
    offsets_.reserve(rows + 1);
    size_ = 0;
  }

  uint64_t rows() const { return offsets_.size() - 1; }
  size_t byte_size() const { return size_; }
  const int64_t* offsets() const { return offsets_.data(); }
  const char* bytes() const { return data_.get(); }
  std::string_view operator[](uint64_t row) const {
    return {data_.get() + offsets_[row], (size_t)(offsets_[row + 1] - offsets_[row])};
  }

  // Rows are written in pieces: cursor() is where the next byte goes,
  // ensure(p, n) makes room for n more bytes after p (moving the buffer when
  // it grows, so it returns the new p), finish_row(p) ends the row at p. Once
  // allocated, the buffer has kPadding bytes past the room ensure made.
  char* cursor() { return data_.get() + size_; }
  // The first write allocates even when it is empty: a column that has rows
  // always has a (padded) buffer.
  char* ensure(char* p, size_t n) { return end_ && p + n <= end_ ? p : grow(p, n); }
  void finish_row(char* end) {
    size_ = (size_t)(end - data_.get());
    offsets_.push_back((int64_t)size_);
  }

  void append(std::string_view s) {
    char* p = ensure(cursor(), s.size());
    if (!s.empty()) std::memcpy(p, s.data(), s.size());
    finish_row(p + s.size());
  }
  // Appends s from a padded buffer (see copy_padded).
  void append_padded(std::string_view s) {
    finish_row(copy_padded(ensure(cursor(), s.size()), s.data(), s.size()));
  }
  // Appends `count` rows whose lengths are length(0), .. length(count - 1)
  // and returns where the first one's bytes go, the others' following it:
  // the caller writes them (row r at offsets()[r] past bytes()).
  template <typename Length>
  char* append_unwritten(uint64_t count, const Length& length) {
    offsets_.reserve(offsets_.size() + count);
    size_t end = size_;
    for (uint64_t r = 0; r < count; ++r) {
      end += length(r);
      offsets_.push_back((int64_t)end);
    }
    char* p = ensure(cursor(), end - size_);
    size_ = end;
    return p;
  }
  // Appends `count` rows of `s`.
  void append_repeated(std::string_view s, uint64_t count);
  // Appends every row of `other`.
  void append_rows(const StringColumn& other);

 private:
  char* grow(char* p, size_t n);

  std::unique_ptr<char[]> data_;  // uninitialized: every byte is written before it is read
  char* end_ = nullptr;           // data_ + capacity
  size_t size_ = 0;               // bytes of finished rows
  std::vector<int64_t> offsets_;  // rows + 1, offsets_[0] == 0
};

}  // namespace polyrt::columns
