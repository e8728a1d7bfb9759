// The GPU tier's kernels, as their host twins over a simulated grid, against
// the CPU batch back end: the same columns bit for bit, and the same first
// failure (row, step and member) in every chunk.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "polyrt/batch.hpp"

namespace polyrt::difftest {

// nullopt when they agree over [first, first + count) in chunks of
// options.chunk_rows, on a grid the seed picks; else what differs.
std::optional<std::string> check_host_twin(uint64_t seed,
                                           const std::shared_ptr<const Program>& program,
                                           const BatchOptions& options, uint64_t first,
                                           uint64_t count);

}  // namespace polyrt::difftest
