#include "batch/chunk_steps.hpp"

#include <algorithm>

#include "graph/evaluate_node.hpp"
#include "polyrt/error.hpp"

namespace polyrt::batch {

using plan::BatchValue;

uint64_t run_host_step(const PreparedBatch& batch, const plan::BatchStep& step, ChunkBuffers& b,
                       uint64_t first, uint64_t limit) {
  const plan::BatchPlan& p = batch.plan;
  const uint32_t node = step.nodes[0];
  const ir::Node& n = batch.graph().nodes[node];
  std::vector<Value> in(n.inputs.size());
  std::vector<const Value*> ptrs(n.inputs.size());
  std::vector<Value> out(n.out_types.size());
  const uint64_t rows = std::min(limit, b.rows);
  for (uint64_t r = 0; r < rows; ++r) {
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const BatchValue& v = p.value_of(n.inputs[k]);
      ptrs[k] = &in[k];
      switch (v.kind) {
        case BatchValue::None:
          in[k] = Value::none();
          break;
        case BatchValue::Scalar:
          ptrs[k] = &batch.scalars[v.index];
          break;
        case BatchValue::Lane:
          in[k] = Value::u64(first + r);
          break;
        case BatchValue::Column:
          if (p.column_types[v.index] == Type::Str) {
            ptrs[k] = &b.values[v.index][r];
          } else {
            in[k] = value_of_word(p.column_types[v.index], b.column_pointers[v.index][r]);
          }
          break;
        case BatchValue::Register:
          internal_error("a host step reads a kernel register");
      }
    }
    if (ir::run_node(n, ptrs.data(), out.data(), ir::discarded_side_channel())) return r;
    for (size_t k = 0; k < out.size(); ++k) {
      const BatchValue& v = p.values[p.port_base[node] + k];
      if (v.kind != BatchValue::Column) continue;
      if (out[k].is_none()) {
        internal_error("node '" + n.label + "' gave None where the batch plan expected a value");
      }
      if (p.column_types[v.index] == Type::Str) {
        b.values[v.index][r] = std::move(out[k]);
      } else {
        b.column_pointers[v.index][r] = word_of(out[k]);
      }
    }
  }
  return plan::kNoFailingRow;
}

ChunkFailure run_chunk(const PreparedBatch& batch, ChunkBuffers& b, uint64_t first,
                       std::span<const uint64_t* const> coordinate_columns,
                       std::span<uint64_t* const> targets,
                       const std::function<KernelFailure(uint32_t step)>& run_kernel) {
  fill_generated_outputs(batch, b, first);
  if (batch.scalars_failed) return ChunkFailure{0, 0, 0};
  bind_caller_columns(batch, b, coordinate_columns, targets);
  ChunkFailure failure;
  const plan::BatchPlan& p = batch.plan;
  for (uint32_t s = 0; s < p.steps.size(); ++s) {
    KernelFailure f;
    if (p.steps[s].kind == plan::BatchStep::Kernel) {
      f = run_kernel(s);
    } else {
      f.row = run_host_step(batch, p.steps[s], b, first, failure.row);
    }
    fold_failure(failure, s, f);
  }
  return failure;
}

}  // namespace polyrt::batch
