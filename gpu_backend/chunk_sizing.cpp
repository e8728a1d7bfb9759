#include "gpu_backend/chunk_sizing.hpp"

#include <algorithm>

#include "polyrt/numeric_types.hpp"

namespace polyrt::gpu {

uint32_t kernel_made_output(const plan::BatchPlan& plan, size_t o) {
  const plan::BatchValue& v = plan.outputs[o];
  if (v.kind != plan::BatchValue::Column || is_payload(plan.column_types[v.index]) ||
      plan.column_steps[v.index] == plan::kNoStep ||
      plan.steps[plan.column_steps[v.index]].kind != plan::BatchStep::Kernel) {
    return kNoColumn;
  }
  return v.index;
}

std::vector<uint8_t> columns_written_to_caller(const plan::BatchPlan& plan,
                                               std::span<const uint8_t> taken) {
  std::vector<uint8_t> written(plan.column_types.size(), 0);
  for (size_t o = 0; o < taken.size(); ++o) {
    const uint32_t c = kernel_made_output(plan, o);
    if (taken[o] && c != kNoColumn) written[c] = 1;
  }
  return written;
}

uint64_t rows_that_fit(RowFootprint per_row, uint64_t held, uint64_t free_device_bytes,
                       uint64_t pinned_budget, uint64_t max_rows, uint64_t unit) {
  const uint64_t rows = std::min({max_rows, free_device_bytes / 4 / (per_row.device * held),
                                  pinned_budget / (per_row.host * held)});
  // Wide texts (4 KiB slots) may leave room for few rows: a smaller chunk,
  // never an allocation sure to fail.
  return std::max(rows, unit) / unit * unit;
}

}  // namespace polyrt::gpu
