#include "gpu_backend/device_rows.hpp"

#include <cstring>

#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/device_rows.h"

namespace polyrt::gpu {

namespace {

using plan::BatchValue;
using rt::DeviceRowValue;

DeviceRowValue value_kind(Type type) {
  if (is_signed_integer(type)) return DeviceRowValue::I64;
  if (is_integer(type)) return DeviceRowValue::U64;
  switch (type) {
    case Type::F64:
      return DeviceRowValue::F64;
    case Type::F32:
      return DeviceRowValue::F32;
    case Type::Bool:
      return DeviceRowValue::Bool;
    case Type::Str:
      return DeviceRowValue::Text;
    case Type::Json:
      return DeviceRowValue::JsonText;
    case Type::Bytes:
      return DeviceRowValue::Bytes;
    default:
      internal_error("a GPU row field of type " + std::string(type_name(type)));
  }
}

}  // namespace

std::string row_field_layout(const plan::BatchPlan& plan, const batch::RowEncoding& rows,
                             uint64_t first,
                             const std::function<uint64_t(uint32_t column)>& column_address,
                             uint64_t at) {
  if (rows.before.size() != plan.outputs.size()) {
    internal_error("a row encoding of " + std::to_string(rows.before.size()) + " fields for " +
                   std::to_string(plan.outputs.size()) + " outputs");
  }
  const uint64_t count = row_field_count(plan);
  std::vector<rt::DeviceRowField> fields(count);
  std::string text;
  const uint64_t text_at = at + count * sizeof(rt::DeviceRowField);
  const auto prefix = [&](rt::DeviceRowField& f, const std::string& bytes) {
    f.prefix = text_at + text.size();
    f.prefix_bytes = (uint32_t)bytes.size();
    text += bytes;
  };
  for (size_t o = 0; o < plan.outputs.size(); ++o) {
    const BatchValue& v = plan.outputs[o];
    rt::DeviceRowField& f = fields[o];
    prefix(f, rows.before[o]);
    if (v.kind == BatchValue::Lane) {
      f.kind = DeviceRowValue::Lane;
      f.values = first;
    } else if (v.kind == BatchValue::Column) {
      const Type type = plan.column_types[v.index];
      f.kind = value_kind(type);
      f.values = column_address(v.index);
      f.stride = is_payload(type) ? (uint32_t)plan::device_text_slot(plan.text_bounds[v.index]) : 8;
    }
  }
  prefix(fields.back(), rows.end);
  std::string layout(count * sizeof(rt::DeviceRowField), '\0');
  std::memcpy(layout.data(), fields.data(), layout.size());
  return layout + text;
}

}  // namespace polyrt::gpu
