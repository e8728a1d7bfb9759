// What every batch back end runs: the batch plan of one shape and the values
// of its scalars, evaluated once on the host (target-independent, LLVM-free).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "plan/batch_plan.hpp"
#include "polyrt/polyrt.hpp"
#include "program/program_internals.hpp"

namespace polyrt::batch {

struct PreparedBatch {
  std::shared_ptr<const Program> program;
  plan::BatchPlan plan;
  std::vector<Value> scalars;          // per scalar index
  std::vector<uint64_t> scalar_words;  // what kernels read (0 for None)
  bool scalars_failed = false;         // a scalar node failed: every row fails

  const ir::Graph& graph() const { return ProgramInternals::graph(*program); }
};

// Plans the batch and evaluates its scalars. coordinates: one value per
// coordinate (Lane and Column ones are ignored); externs: one value per
// extern, None when unset for the batch. `const` bindings keep the values a
// new state computes from the extern defaults.
PreparedBatch prepare_batch(std::shared_ptr<const Program> program, const plan::BatchShape& shape,
                            std::span<const uint64_t> coordinates, std::span<const Value> externs);

}  // namespace polyrt::batch
