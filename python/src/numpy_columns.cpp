#include "python/src/numpy_columns.hpp"

#include <algorithm>
#include <cstring>

#include "columns/native_columns.hpp"
#include "polyrt/numeric_types.hpp"

namespace polyrt::python {

PooledText::PooledText(uint64_t rows) : offsets_(allocate<int64_t>(rows + 1)) {
  offsets_[0] = 0;
}

PooledText::~PooledText() {
  if (offsets_) give_buffer(offsets_);
  if (bytes_) give_buffer(bytes_);
}

void PooledText::reserve(uint64_t bytes) {
  if (bytes <= capacity_) return;
  char* grown = allocate<char>(bytes);
  if (size_) std::memcpy(grown, bytes_, size_);
  if (bytes_) give_buffer(bytes_);
  bytes_ = grown;
  capacity_ = bytes;
}

void PooledText::append(const int64_t* ends, uint64_t rows, const char* bytes) {
  const uint64_t added = (uint64_t)(ends[rows] - ends[0]);
  if (size_ + added > capacity_) reserve(std::max(size_ + added, 2 * capacity_));
  const int64_t shift = (int64_t)size_ - ends[0];
  for (uint64_t r = 1; r <= rows; ++r) offsets_[rows_ + r] = ends[r] + shift;
  if (added) std::memcpy(bytes_ + size_, bytes + ends[0], added);
  rows_ += rows;
  size_ += added;
}

nb::object PooledText::release_to_numpy() {
  if (!bytes_) reserve(1);
  nb::object offsets = numpy_owning(offsets_, rows_ + 1);
  offsets_ = nullptr;
  nb::object bytes = numpy_owning(reinterpret_cast<uint8_t*>(bytes_), size_);
  bytes_ = nullptr;
  return nb::make_tuple(offsets, bytes);
}

nb::object column_object(const Destination& d, uint64_t count) {
  switch (d.type) {
    case Type::U64:
      return numpy_owning(static_cast<uint64_t*>(d.words), count);
    case Type::U32:
      return numpy_owning(static_cast<uint32_t*>(d.words), count);
    case Type::U16:
      return numpy_owning(static_cast<uint16_t*>(d.words), count);
    case Type::U8:
      return numpy_owning(static_cast<uint8_t*>(d.words), count);
    case Type::I64:
      return numpy_owning(static_cast<int64_t*>(d.words), count);
    case Type::I32:
      return numpy_owning(static_cast<int32_t*>(d.words), count);
    case Type::I16:
      return numpy_owning(static_cast<int16_t*>(d.words), count);
    case Type::I8:
      return numpy_owning(static_cast<int8_t*>(d.words), count);
    case Type::F64:
      return numpy_owning(static_cast<double*>(d.words), count);
    case Type::F32:
      return numpy_owning(static_cast<float*>(d.words), count);
    case Type::Bool:
      return numpy_owning(static_cast<bool*>(d.words), count);
    case Type::Str:
    case Type::Bytes:
    case Type::Json:
    case Type::Partition:
    case Type::PartitionList:
    case Type::VecF32:  // a vector column: byte offsets into its packed elements
    case Type::VecF64:
    case Type::VecI32:
    case Type::VecI64:
    case Type::VecU64:
      return d.text->release_to_numpy();
  }
  return nb::none();
}

void put_column(nb::dict& into, const std::string& name, const Destination& d, uint64_t count) {
  into[name.c_str()] = d.is_none ? nb::none() : column_object(d, count);
  if (d.present && !d.is_none) into[(name + "#present").c_str()] = numpy_owning(d.present, count);
}

Destination destination_of(Column&& column, bool nullable) {
  Destination d;
  d.type = column.type;
  d.is_none = column.is_none;
  if (d.is_none) return d;
  const uint64_t rows = is_payload(d.type) ? column.offsets.size() - 1 : column.words.size();
  if (nullable) {
    d.present = allocate<bool>(rows);
    for (uint64_t r = 0; r < rows; ++r) d.present[r] = column.present.empty() || column.present[r];
  }
  if (is_payload(d.type)) {
    d.text = new PooledText(rows);
    d.text->reserve(column.bytes.size());
    d.text->append(column.offsets.data(), rows, column.bytes.data());
  } else if (d.type == Type::Bool) {
    bool* to = allocate<bool>(rows);
    for (uint64_t r = 0; r < rows; ++r) to[r] = column.words[r] != 0;
    d.words = to;
  } else {
    d.words = take_buffer(rows * native_width(d.type));
    columns::copy_native(d.type, column.words.data(), rows, static_cast<char*>(d.words));
  }
  return d;
}

}  // namespace polyrt::python
