// The host's side of text rows encoded on the GPU (BatchPlan::rows_on_device,
// codegen/row_encoding_kernels.hpp): the layout of the fields the kernels
// read, made per chunk (its columns' device addresses and first coordinate).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "batch/row_encoding.hpp"
#include "plan/batch_plan.hpp"

namespace polyrt::gpu {

// One rt::DeviceRowField per output and one for the row's end, then the
// bytes before each value, for this layout to sit at device address `at`:
// `column_address(c)` is where plan column c is on the device, `first` the
// chunk's first coordinate.
std::string row_field_layout(const plan::BatchPlan& plan, const batch::RowEncoding& rows,
                             uint64_t first,
                             const std::function<uint64_t(uint32_t column)>& column_address,
                             uint64_t at);

// The number of fields of that layout.
inline uint64_t row_field_count(const plan::BatchPlan& plan) {
  return plan.outputs.size() + 1;
}

}  // namespace polyrt::gpu
