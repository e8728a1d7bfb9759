// A node's columnar form: one call evaluates a whole chunk of the batch tier,
// reading number columns as the kernels left them (64-bit words) and string
// columns in their Arrow layout, and appending to its output columns. Only
// nodes that cannot fail have one; the batch tier calls it when no input is
// None for the batch, and the row form (NodeDef::eval) otherwise. The
// differential test holds the two forms to the same bytes for every seed.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "columns/string_column.hpp"
#include "polyrt/value.hpp"

namespace polyrt::nodes {

struct Prepared;

// One input over the chunk: a column (stride 1) or one value for every row
// (stride 0: a scalar of the batch).
struct ColumnInput {
  Type type = Type::U64;
  const uint64_t* words = nullptr;   // u64, f64 bits, bool 0/1
  const int64_t* offsets = nullptr;  // str: Arrow LargeString offsets ...
  const char* bytes = nullptr;       // ... into these bytes
  size_t stride = 1;
  bool padded = false;  // str: kPadding readable bytes follow the last one (copy_padded)

  uint64_t word(uint64_t row) const { return words[row * stride]; }
  std::string_view text(uint64_t row) const {
    const int64_t* o = offsets + row * stride;
    return {bytes + o[0], (size_t)(o[1] - o[0])};
  }
};

// One output over the chunk: a word column the node fills for every row, or a
// string column it appends every row to.
struct ColumnOutput {
  uint64_t* words = nullptr;
  columns::StringColumn* text = nullptr;
};

struct ColumnCall {
  uint64_t rows = 0;
  std::span<const ColumnInput> inputs;
  const std::vector<Value>& params;
  const Prepared& prepared;
  std::span<const ColumnOutput> outputs;
};

// A table of strings as one padded column (row i is values[i]), prepared once
// at compile time: table picks' columnar forms gather rows from it with
// StringColumn::append_padded.
template <typename Strings>
std::shared_ptr<const columns::StringColumn> string_table(const Strings& values) {
  auto table = std::make_shared<columns::StringColumn>();
  for (const auto& v : values) table->append(v);
  return table;
}

inline const columns::StringColumn& string_table_of(const std::shared_ptr<const void>& extra) {
  return *static_cast<const columns::StringColumn*>(extra.get());
}

}  // namespace polyrt::nodes
