// Runs a batch plan over chunks of rows on the CPU: the JIT kernels over
// their columns, host steps row by row through the registry bodies, the
// scalars evaluated once. One runner serves every thread; each chunk in
// flight owns its ChunkBuffers.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "cpu_backend/batch_kernels.hpp"
#include "plan/batch_plan.hpp"
#include "polyrt/polyrt.hpp"

namespace polyrt::cpu {

// The columns of one chunk (word columns for scalar types, values for str).
struct ChunkBuffers {
  uint64_t rows = 0;
  std::vector<std::vector<uint64_t>> words;       // per plan column (empty for str)
  std::vector<std::vector<Value>> values;         // per plan column (str only)
  std::vector<uint64_t*> column_pointers;         // what the kernels get
  std::vector<std::vector<uint64_t>> filled;      // per output: lane or scalar outputs
  std::vector<std::vector<Value>> filled_values;  // per output: scalar str outputs
};

class BatchRunner {
 public:
  // coordinates: one value per coordinate (Lane and Column ones are ignored);
  // externs: one value per extern, None when unset for the batch.
  BatchRunner(std::shared_ptr<const Program> program, const plan::BatchShape& shape,
              std::span<const uint64_t> coordinates, std::span<const Value> externs);

  const plan::BatchPlan& plan() const { return plan_; }
  // The scalar value of a Scalar output (plan().outputs[k].kind == Scalar).
  const Value& scalar(uint32_t index) const { return scalars_[index]; }

  void prepare(ChunkBuffers& buffers, uint64_t rows) const;
  // Evaluates rows [0, rows) with coordinate first + row; `coordinate_columns`
  // holds one pointer per Column coordinate, at this chunk's first row.
  // `targets` (empty, or one per output, null to skip) are caller arrays at
  // this chunk's first row: scalar column outputs are written there directly
  // (buffers.column_pointers then points at them). Returns the first failing
  // row, or ~0 when every row succeeded.
  uint64_t run(ChunkBuffers& buffers, uint64_t first, uint64_t rows,
               std::span<const uint64_t* const> coordinate_columns,
               std::span<uint64_t* const> targets = {}) const;

 private:
  std::vector<Value> frozen_const_values();
  void run_host(const plan::BatchStep& step, ChunkBuffers& buffers, uint64_t first,
                uint64_t& first_failure) const;

  std::shared_ptr<const Program> program_;
  const ir::Graph* g_;
  plan::BatchPlan plan_;
  BatchKernels kernels_;
  std::vector<Value> scalars_;
  std::vector<uint64_t> scalar_words_;
  bool scalars_failed_ = false;  // a scalar node failed: every row fails
};

}  // namespace polyrt::cpu
