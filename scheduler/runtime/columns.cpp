// The public batch API's plain values: device names and owned columns.
#include "polyrt/batch.hpp"

namespace polyrt {

std::optional<BatchDevice> batch_device_named(std::string_view name) {
  if (name == "cpu") return BatchDevice::Cpu;
  if (name == "gpu") return BatchDevice::Gpu;
  if (name == "auto") return BatchDevice::Auto;
  if (name == "all") return BatchDevice::All;
  return std::nullopt;
}

Value Column::value(size_t row) const {
  if (is_none || (!present.empty() && present[row] == 0)) return Value::none();
  if (!is_payload(type)) return Value::of_word(type, words[row]);
  return Value::of_payload(type, std::string(text(row)));
}

Column Column::empty(std::string name, Type type, LogicalType logical) {
  Column c;
  c.name = std::move(name);
  c.type = type;
  c.logical = logical;
  if (is_payload(type)) c.offsets.push_back(0);
  return c;
}

uint64_t text_bytes_to_reserve(const ColumnView& view, uint64_t view_rows, uint64_t rows) {
  const double per_row = (double)(view.offsets[view_rows] - view.offsets[0]) / (double)view_rows;
  return (uint64_t)(per_row * (double)rows * 1.0625) + 4096;
}

void Column::reserve(uint64_t rows, const ColumnView& view, uint64_t view_rows) {
  if (view.is_none || view_rows == 0) return;
  try {
    if (view.present) present.reserve(rows);
    if (!is_payload(view.type)) {
      words.reserve(rows);
      return;
    }
    offsets.reserve(rows + 1);
    bytes.reserve(text_bytes_to_reserve(view, view_rows, rows));
  } catch (const std::exception&) {  // bad_alloc, length_error: growth will tell
  }
}

void Column::append(const ColumnView& view, uint64_t rows) {
  is_none = view.is_none;
  if (view.is_none) return;
  if (view.present) present.insert(present.end(), view.present, view.present + rows);
  if (!is_payload(view.type)) {
    words.insert(words.end(), view.words, view.words + rows);
    return;
  }
  // A view's offsets need not start at 0 (a part of a chunk): shifted to
  // follow the bytes before it.
  const int64_t shift = (int64_t)bytes.size() - view.offsets[0];
  for (uint64_t r = 1; r <= rows; ++r) offsets.push_back(shift + view.offsets[r]);
  bytes.append(view.bytes + view.offsets[0], (size_t)(view.offsets[rows] - view.offsets[0]));
}

}  // namespace polyrt
