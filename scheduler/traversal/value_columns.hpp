// Columns made from Values, for rows a per-state engine evaluates: viewed
// as the ColumnChunk a batch hands over, so every consumer of chunks takes
// them.
#pragma once

#include <cstdint>
#include <list>
#include <string>
#include <vector>

#include "polyrt/batch.hpp"

namespace polyrt::traversal {

// Rows appended value by value, column by column.
class ValueColumns {
 public:
  ValueColumns(std::vector<Type> types, std::vector<LogicalType> logical);

  // Appends `value` (of the column's type, or None) to column `k` of the
  // row being made; None is a null row (ColumnView::present 0, its word or
  // text a placeholder).
  void add(size_t k, const Value& value);
  // The row's every column was added.
  void end_row() { ++rows_; }
  uint64_t rows() const { return rows_; }
  // Views of the rows, valid until the next add or clear.
  ColumnChunk chunk(uint64_t first) const;
  void clear();

 private:
  struct Storage {
    std::vector<uint64_t> words;
    std::vector<int64_t> offsets{0};
    std::string bytes;
    std::vector<uint64_t> present;  // 1 per row with a value
  };
  std::vector<Type> types_;
  std::vector<LogicalType> logical_;
  std::vector<Storage> columns_;
  uint64_t rows_ = 0;
};

// `rows` copies of one value as a column view, over storage it owns.
struct ConstantColumn {
  std::vector<uint64_t> words;
  std::vector<int64_t> offsets;
  std::string bytes;
  ColumnView view;

  ConstantColumn(const Value& v, uint64_t rows);
};

// Columns put before a batch's own in a chunk (what the batch does not
// compute: a traversal's parent coordinate and elements), and their storage.
struct LeadColumns {
  std::list<ConstantColumn> constants;  // a list: views keep pointing into them
  std::list<std::vector<uint64_t>> words;
  std::vector<ColumnView> views;

  // `rows` copies of `v`.
  void add(const Value& v, uint64_t rows) { views.push_back(constants.emplace_back(v, rows).view); }
};

}  // namespace polyrt::traversal
