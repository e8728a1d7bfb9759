// Columns polyrt filled, handed to numpy without a copy: the arrays own the
// buffers (pooled ones given back by the capsule, text held by it).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <string>
#include <vector>

#include "polyrt/batch.hpp"
#include "python/src/buffer_pool.hpp"

namespace polyrt::python {

namespace nb = nanobind;

// A buffer that numpy will own (given back to the pool by the capsule).
template <typename T>
T* allocate(uint64_t count) {
  return static_cast<T*>(take_buffer(count * sizeof(T)));
}

template <typename T>
nb::object numpy_owning(T* data, uint64_t count) {
  nb::capsule owner(data, [](void* p) noexcept { give_buffer(p); });
  return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, {(size_t)count}, owner));
}

// A text or vector column in Arrow's large layout, in pooled buffers (huge
// pages, recycled) that numpy will own: rows + 1 offsets, and the bytes,
// grown by doubling. Fresh buffers' page faults, a page at a time, took a
// third of to_arrow's time. Gives back whatever numpy was not handed.
class PooledText {
 public:
  explicit PooledText(uint64_t rows);
  PooledText(const PooledText&) = delete;
  PooledText& operator=(const PooledText&) = delete;
  ~PooledText();

  // Appends `rows` rows after those appended before: their ends at
  // `ends[1..rows]`, counted from ends[0], and their bytes.
  void append(const int64_t* ends, uint64_t rows, const char* bytes);
  // Room for `bytes` bytes in all.
  void reserve(uint64_t bytes);
  // Hands both buffers to numpy arrays (the object owns nothing after).
  nb::object release_to_numpy();

 private:
  int64_t* offsets_;
  uint64_t rows_ = 0;  // appended so far
  char* bytes_ = nullptr;
  uint64_t size_ = 0, capacity_ = 0;
};

// One output of an evaluate: where its rows go.
struct Destination {
  Type type = Type::U64;
  bool is_none = false;
  void* words = nullptr;       // numbers: their native width; bool: 1
  PooledText* text = nullptr;  // str, bytes, json, vectors
  bool* present = nullptr;     // a nullable output's: true where it has a value
};

// The column's rows as numpy: numbers and bools as arrays of their native
// width, text and vectors as (offsets, bytes) arrays in Arrow's large
// layout.
nb::object column_object(const Destination& d, uint64_t count);

// evaluate()'s entries for one column: its object under `name` (None for a
// column None on every row) and, for a nullable one, its presence mask
// under name + "#present" (ir::kPresenceSuffix). numpy owns the buffers.
void put_column(nb::dict& into, const std::string& name, const Destination& d, uint64_t count);

// An owned column's rows in buffers numpy can own (its text copied into a
// PooledText the caller then owns); `nullable` gives it a presence mask.
Destination destination_of(Column&& column, bool nullable);

}  // namespace polyrt::python
