#include "scheduler/traversal/value_columns.hpp"

#include "polyrt/error.hpp"

namespace polyrt::traversal {

ValueColumns::ValueColumns(std::vector<Type> types, std::vector<LogicalType> logical)
    : types_(std::move(types)), logical_(std::move(logical)), columns_(types_.size()) {}

void ValueColumns::add(size_t k, const Value& value) {
  Storage& c = columns_[k];
  const bool payload = is_payload(types_[k]);
  c.present.push_back(value.is_none() ? 0 : 1);
  if (!value.is_none() && value.type() != types_[k]) {
    throw InternalError("a traversal's column of type " + std::string(type_name(types_[k])) +
                            " was given a value of type " + std::string(type_name(value.type())),
                        __FILE__, __LINE__);
  }
  if (!payload) {
    c.words.push_back(value.is_none() ? 0 : word_of(value));
    return;
  }
  if (!value.is_none()) c.bytes += value.text();
  c.offsets.push_back((int64_t)c.bytes.size());
}

ColumnChunk ValueColumns::chunk(uint64_t first) const {
  ColumnChunk out{first, rows_, {}};
  for (size_t k = 0; k < columns_.size(); ++k) {
    const Storage& c = columns_[k];
    ColumnView v;
    v.type = types_[k];
    v.logical = logical_[k];
    if (is_payload(v.type)) {
      v.offsets = c.offsets.data();
      v.bytes = c.bytes.data();
    } else {
      v.words = c.words.data();
    }
    v.present = c.present.data();
    out.columns.push_back(v);
  }
  return out;
}

void ValueColumns::clear() {
  for (Storage& c : columns_) {
    c.words.clear();
    c.offsets.assign(1, 0);
    c.bytes.clear();
    c.present.clear();
  }
  rows_ = 0;
}

ConstantColumn::ConstantColumn(const Value& v, uint64_t rows) {
  view.type = v.type();
  if (!is_payload(v.type())) {
    words.assign(rows, word_of(v));
    view.words = words.data();
    return;
  }
  const std::string& text = v.text();
  offsets.resize(rows + 1);
  for (uint64_t r = 0; r <= rows; ++r) offsets[r] = (int64_t)(r * text.size());
  bytes.reserve(rows * text.size());
  for (uint64_t r = 0; r < rows; ++r) bytes += text;
  view.offsets = offsets.data();
  view.bytes = bytes.data();
}

}  // namespace polyrt::traversal
