// How many rows a GPU's chunk holds, and which columns a chunk needs no
// memory of its own for: a word column a kernel makes that the caller takes
// into its own device memory (evaluate_to_device) is written there directly.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "plan/batch_plan.hpp"

namespace polyrt::gpu {

inline constexpr uint32_t kNoColumn = ~0u;

// The word column output `o` is when a kernel makes it, else kNoColumn.
uint32_t kernel_made_output(const plan::BatchPlan& plan, size_t o);

// Per plan column: whether a run whose outputs the caller takes where
// `taken` says (per output; empty: none) has a kernel write it straight to
// the caller's memory.
std::vector<uint8_t> columns_written_to_caller(const plan::BatchPlan& plan,
                                               std::span<const uint8_t> taken);

// A chunk's bytes per row on each side.
struct RowFootprint {
  uint64_t device = 8;  // with the failure words
  uint64_t host = 8;
};

// The rows each of `held` chunk states may have: at most `max_rows`, a
// quarter of the device's free memory and `pinned_budget` of page-locked
// memory between them, a multiple of `unit` (never less than one).
uint64_t rows_that_fit(RowFootprint per_row, uint64_t held, uint64_t free_device_bytes,
                       uint64_t pinned_budget, uint64_t max_rows, uint64_t unit);

}  // namespace polyrt::gpu
