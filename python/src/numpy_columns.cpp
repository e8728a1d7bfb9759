#include "python/src/numpy_columns.hpp"

#include "columns/native_columns.hpp"
#include "polyrt/numeric_types.hpp"

namespace polyrt::python {

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
    case Type::VecU64: {
      nb::capsule offsets_owner(
          d.offsets, [](void* p) noexcept { delete static_cast<std::vector<int64_t>*>(p); });
      nb::capsule bytes_owner(d.bytes,
                              [](void* p) noexcept { delete static_cast<std::string*>(p); });
      auto offsets = nb::ndarray<nb::numpy, int64_t, nb::ndim<1>>(
          d.offsets->data(), {d.offsets->size()}, offsets_owner);
      auto bytes = nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>>(
          reinterpret_cast<uint8_t*>(d.bytes->data()), {d.bytes->size()}, bytes_owner);
      return nb::make_tuple(offsets, bytes);
    }
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
    d.offsets = new std::vector<int64_t>(std::move(column.offsets));
    d.bytes = new std::string(std::move(column.bytes));
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
