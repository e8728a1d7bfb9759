#include "nodes/table_rows.hpp"

#include "nodes/column_call.hpp"
#include "nodes/device_text_form.hpp"
#include "polyrt/error.hpp"

namespace polyrt::nodes {

void gather_table_rows(const ColumnCall& c) {
  // The table and the indexes through locals: the output's byte stores
  // would make the compiler reload them from their objects.
  const columns::StringColumn& table = string_table_of(c.prepared.extra);
  const int64_t* const offsets = table.offsets();
  const char* const bytes = table.bytes();
  const uint64_t entries = table.rows();
  const ColumnInput indexes = c.inputs[0];
  columns::StringColumn& out = *c.outputs[0].text;
  for (uint64_t r = 0; r < c.rows; ++r) {
    const uint64_t index = indexes.word(r);
    if (index >= entries) internal_error("a table pick's index is past its table");
    out.append_padded({bytes + offsets[index], (size_t)(offsets[index + 1] - offsets[index])});
  }
}

std::vector<std::string> table_blobs(const std::vector<Value>&, const Prepared* prepared) {
  const columns::StringColumn& table = string_table_of(prepared->extra);
  const int64_t* offsets = table.offsets();
  return {blob_of(std::vector<int64_t>(offsets, offsets + table.rows() + 1)),
          std::string(table.bytes(), table.byte_size())};
}

}  // namespace polyrt::nodes
