// Text rows (CSV, TSV, JSON Lines) that a back end encodes where it made a
// chunk (a GPU whose plan has BatchPlan::rows_on_device), so that only
// their bytes reach the host. The evaluator lays them out from the
// scheduler's row writers (scheduler/encoding/row_format.hpp): what comes
// before each value is text the host encodes once; the values are the
// back end's to encode, with the field writers every tier shares
// (rtlib/row_fields.h).
#pragma once

#include <string>
#include <vector>

#include "rtlib/row_fields.h"

namespace polyrt::batch {

struct RowEncoding {
  rt::RowFormat format = rt::RowFormat::Csv;
  // Per output, the bytes before its value: its separator and, in JSON
  // Lines, its key; for a scalar output (BatchValue::Scalar), its whole
  // field, the value included.
  std::vector<std::string> before;
  std::string end;  // the row's end: "\n", "}\n"
};

}  // namespace polyrt::batch
