// What the table picks (__pick_str's entries, __pick_row's data file rows)
// share: their prepared table (Prepared::extra, a columns::StringColumn),
// gathered by a chunk's indexes and handed to GPU kernels.
#pragma once

#include <string>
#include <vector>

#include "nodes/registry.hpp"

namespace polyrt::nodes {

// Output 0's rows: the table's row at input 0's index, row by row.
void gather_table_rows(const ColumnCall& c);

// The table as pd_text_pick reads it (a DeviceTextForm's blobs): its
// offsets and its bytes, in Arrow's layout.
std::vector<std::string> table_blobs(const std::vector<Value>& params, const Prepared* prepared);

}  // namespace polyrt::nodes
