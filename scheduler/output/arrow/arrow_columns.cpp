#include "scheduler/output/arrow/arrow_columns.hpp"

#include <cstring>
#include <string>

#include "columns/native_columns.hpp"
#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/utf8.hpp"
#include "rtlib/web_encoding.hpp"

namespace polyrt::scheduler::arrow_output {

namespace {

// Arrow's result or an OutputError with its message.
template <typename T>
T value_or_throw(arrow::Result<T> result, const char* what) {
  if (!result.ok()) throw OutputError(std::string(what) + ": " + result.status().ToString());
  return std::move(result).ValueUnsafe();
}

std::shared_ptr<arrow::DataType> scalar_type(Type type) {
  switch (type) {
    case Type::U64:
      return arrow::uint64();
    case Type::U32:
      return arrow::uint32();
    case Type::U16:
      return arrow::uint16();
    case Type::U8:
      return arrow::uint8();
    case Type::I64:
      return arrow::int64();
    case Type::I32:
      return arrow::int32();
    case Type::I16:
      return arrow::int16();
    case Type::I8:
      return arrow::int8();
    case Type::F64:
      return arrow::float64();
    case Type::F32:
      return arrow::float32();
    case Type::Bool:
      return arrow::boolean();
    case Type::Bytes:
      return arrow::large_binary();
    default:
      return arrow::large_utf8();  // str, json and the partitions: their text
  }
}

// A logical type's Arrow type: timestamps in UTC, dates as date32 (days),
// decimals as decimal128 (Parquet stores them as INT64, see arrow_writers.cpp).
std::shared_ptr<arrow::DataType> logical_arrow_type(LogicalType logical) {
  switch (logical.kind) {
    case LogicalKind::Timestamp:
      return arrow::timestamp(arrow::TimeUnit::MILLI, "UTC");
    case LogicalKind::TimestampMicros:
      return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
    case LogicalKind::Date:
      return arrow::date32();
    default:
      return arrow::decimal128(logical.precision, logical.scale);
  }
}

std::shared_ptr<arrow::DataType> column_type(Type type, std::optional<uint64_t> dimension,
                                             LogicalType logical) {
  if (!logical.is_none()) return logical_arrow_type(logical);
  if (!is_vector(type)) return scalar_type(type);
  const std::shared_ptr<arrow::DataType> element = scalar_type(vector_element(type));
  if (dimension) return arrow::fixed_size_list(element, (int32_t)*dimension);
  return arrow::large_list(element);
}

std::shared_ptr<arrow::Buffer> allocate(int64_t bytes) {
  return value_or_throw(arrow::AllocateBuffer(bytes), "Arrow could not allocate a buffer");
}

// A scalar column's values buffer: the words themselves, or narrowed.
std::shared_ptr<arrow::Buffer> values_buffer(Type type, const ColumnView& v, uint64_t rows) {
  const size_t width = native_width(type);
  if (width == 8) return arrow::Buffer::Wrap(v.words, rows);
  std::shared_ptr<arrow::Buffer> out = allocate((int64_t)(rows * width));
  columns::copy_native(type, v.words, rows, out->mutable_data());
  return out;
}

std::shared_ptr<arrow::Buffer> bool_bits(const ColumnView& v, uint64_t rows) {
  std::shared_ptr<arrow::Buffer> out = allocate((int64_t)((rows + 7) / 8));
  uint8_t* bits = out->mutable_data();
  std::memset(bits, 0, (rows + 7) / 8);
  for (uint64_t r = 0; r < rows; ++r) bits[r / 8] |= (uint8_t)((v.words[r] & 1) << (r % 8));
  return out;
}

// A nullable column's validity bitmap (ColumnView::present), set on its
// array; a column with no null row keeps none.
void set_validity(arrow::ArrayData& data, const ColumnView& v, uint64_t rows) {
  uint64_t nulls = 0;
  for (uint64_t r = 0; r < rows; ++r) nulls += v.present[r] == 0;
  if (nulls == 0) return;
  std::shared_ptr<arrow::Buffer> bitmap = allocate((int64_t)((rows + 7) / 8));
  uint8_t* bits = bitmap->mutable_data();
  std::memset(bits, 0, (rows + 7) / 8);
  for (uint64_t r = 0; r < rows; ++r) bits[r / 8] |= (uint8_t)((v.present[r] != 0) << (r % 8));
  data.buffers[0] = std::move(bitmap);
  data.null_count = (int64_t)nulls;
}

// A decimal column's 16-byte two's complement values: each word sign-extended.
std::shared_ptr<arrow::Buffer> decimal128_values(const ColumnView& v, uint64_t rows) {
  std::shared_ptr<arrow::Buffer> out = allocate((int64_t)(rows * 16));
  auto* at = reinterpret_cast<uint64_t*>(out->mutable_data());
  for (uint64_t r = 0; r < rows; ++r) {
    at[2 * r] = v.words[r];
    at[2 * r + 1] = (int64_t)v.words[r] < 0 ? ~0ULL : 0;
  }
  return out;
}

// Text as large_utf8: offsets and bytes wrapped when valid UTF-8; else a
// copy with each invalid sequence replaced (rt::utf8_lossy).
std::shared_ptr<arrow::ArrayData> text_data(const std::shared_ptr<arrow::DataType>& type,
                                            const ColumnView& v, uint64_t rows) {
  const std::string_view all(v.bytes + v.offsets[0], (size_t)(v.offsets[rows] - v.offsets[0]));
  if (type->id() == arrow::Type::LARGE_BINARY || rt::valid_utf8(all)) {
    return arrow::ArrayData::Make(
        type, (int64_t)rows,
        {nullptr, arrow::Buffer::Wrap(v.offsets, rows + 1),
         std::make_shared<arrow::Buffer>(reinterpret_cast<const uint8_t*>(v.bytes),
                                         (int64_t)v.offsets[rows])});
  }
  auto offsets = std::make_shared<std::vector<int64_t>>(1, 0);
  auto bytes = std::make_shared<std::string>();
  offsets->reserve(rows + 1);
  for (uint64_t r = 0; r < rows; ++r) {
    const std::string_view row = v.text(r);
    bytes->append(rt::valid_utf8(row) ? std::string(row) : rt::utf8_lossy(row));
    offsets->push_back((int64_t)bytes->size());
  }
  return arrow::ArrayData::Make(type, (int64_t)rows,
                                {nullptr, arrow::Buffer::FromVector(std::move(*offsets)),
                                 arrow::Buffer::FromString(std::move(*bytes))});
}

// A vector column: its rows' elements are packed in `bytes` at `offsets`.
std::shared_ptr<arrow::ArrayData> vector_data(const std::shared_ptr<arrow::DataType>& type,
                                              Type polyrt_type, const ColumnView& v, uint64_t rows,
                                              const std::string& name, uint64_t first) {
  const int64_t width = (int64_t)vector_element_width(polyrt_type);
  const std::shared_ptr<arrow::DataType> element = type->field(0)->type();
  const int64_t elements = (v.offsets[rows] - v.offsets[0]) / width;
  const auto values = arrow::ArrayData::Make(
      element, elements,
      {nullptr, std::make_shared<arrow::Buffer>(
                    reinterpret_cast<const uint8_t*>(v.bytes + v.offsets[0]), elements * width)});
  if (type->id() == arrow::Type::FIXED_SIZE_LIST) {
    const int64_t dimension = static_cast<const arrow::FixedSizeListType&>(*type).list_size();
    for (uint64_t r = 0; r < rows; ++r) {
      if (v.offsets[r + 1] - v.offsets[r] != dimension * width) {
        throw OutputError("output '" + name + "' has " +
                          std::to_string((v.offsets[r + 1] - v.offsets[r]) / width) +
                          " elements at coordinate " + std::to_string(first + r) +
                          ", not its dimension " + std::to_string(dimension));
      }
    }
    return arrow::ArrayData::Make(type, (int64_t)rows, {nullptr}, {values});
  }
  std::shared_ptr<arrow::Buffer> offsets = allocate((int64_t)((rows + 1) * 8));
  auto* at = reinterpret_cast<int64_t*>(offsets->mutable_data());
  for (uint64_t r = 0; r <= rows; ++r) at[r] = (v.offsets[r] - v.offsets[0]) / width;
  return arrow::ArrayData::Make(type, (int64_t)rows, {nullptr, offsets}, {values});
}

}  // namespace

std::shared_ptr<arrow::Schema> arrow_schema(const ColumnarSpec& spec) {
  arrow::FieldVector fields;
  for (size_t k = 0; k < spec.names.size(); ++k) {
    fields.push_back(arrow::field(
        spec.names[k], column_type(spec.types[k], spec.dimensions[k], spec.logical_types[k]),
        spec.nullable[k]));
  }
  return arrow::schema(std::move(fields));
}

std::shared_ptr<arrow::RecordBatch> record_batch(const std::shared_ptr<arrow::Schema>& schema,
                                                 const ColumnarSpec& spec,
                                                 const ColumnChunk& chunk) {
  const uint64_t rows = chunk.rows;
  std::vector<std::shared_ptr<arrow::ArrayData>> columns;
  for (size_t k = 0; k < spec.types.size(); ++k) {
    const ColumnView& v = chunk.columns[k];
    const Type type = spec.types[k];
    const std::shared_ptr<arrow::DataType>& arrow_type = schema->field((int)k)->type();
    if (v.is_none) {
      columns.push_back(
          value_or_throw(arrow::MakeArrayOfNull(arrow_type, (int64_t)rows), "Arrow nulls")->data());
    } else if (spec.logical_types[k].kind == LogicalKind::Decimal) {
      columns.push_back(
          arrow::ArrayData::Make(arrow_type, (int64_t)rows, {nullptr, decimal128_values(v, rows)}));
    } else if (is_vector(type)) {
      columns.push_back(vector_data(arrow_type, type, v, rows, spec.names[k], chunk.first));
    } else if (is_text(type)) {
      columns.push_back(text_data(arrow_type, v, rows));
    } else if (type == Type::Bool) {
      columns.push_back(
          arrow::ArrayData::Make(arrow_type, (int64_t)rows, {nullptr, bool_bits(v, rows)}));
    } else {
      columns.push_back(arrow::ArrayData::Make(arrow_type, (int64_t)rows,
                                               {nullptr, values_buffer(type, v, rows)}));
    }
  }
  for (size_t k = 0; k < spec.types.size(); ++k) {
    if (chunk.columns[k].present && !chunk.columns[k].is_none) {
      set_validity(*columns[k], chunk.columns[k], rows);
    }
    if (!spec.nullable[k] && columns[k]->GetNullCount() > 0) {
      internal_error("output '" + spec.names[k] + "' holds nulls in a non-nullable field");
    }
  }
  return arrow::RecordBatch::Make(schema, (int64_t)rows, std::move(columns));
}

}  // namespace polyrt::scheduler::arrow_output
