#include "cpu_backend/cpu_batch_backend.hpp"

#include <algorithm>

#include "batch/host_step.hpp"
#include "cpu_backend/batch_kernels.hpp"

namespace polyrt::cpu {

namespace {

class CpuBatchBackend final : public batch::BatchBackend {
 public:
  explicit CpuBatchBackend(batch::PreparedBatch batch)
      : batch_(std::move(batch)), kernels_(compile_batch_kernels(batch_.graph(), batch_.plan)) {}

  const batch::PreparedBatch& batch() const override { return batch_; }

  void prepare(batch::ChunkBuffers& buffers, uint64_t rows) const override {
    batch::size_chunk(batch_, buffers, rows);
  }

  uint64_t run(batch::ChunkBuffers& b, uint64_t first,
               std::span<const uint64_t* const> coordinate_columns,
               std::span<uint64_t* const> targets) const override {
    batch::fill_generated_outputs(batch_, b, first);
    if (batch_.scalars_failed) return 0;
    batch::bind_caller_columns(batch_, b, coordinate_columns, targets);
    const plan::BatchPlan& p = batch_.plan;
    uint64_t first_failure = plan::kNoFailingRow;
    for (size_t s = 0; s < p.steps.size(); ++s) {
      if (p.steps[s].kind == plan::BatchStep::Kernel) {
        uint32_t member = 0;
        const uint64_t failed = kernels_.per_step[s](first, b.rows, b.column_pointers.data(),
                                                     batch_.scalar_words.data(), &member);
        first_failure = std::min(first_failure, failed);
      } else {
        batch::run_host_step(batch_, p.steps[s], b, first, first_failure);
      }
    }
    return first_failure;  // prepare() points the columns back at the buffers
  }

 private:
  batch::PreparedBatch batch_;
  BatchKernels kernels_;
};

}  // namespace

std::unique_ptr<batch::BatchBackend> make_batch_backend(batch::PreparedBatch batch) {
  return std::make_unique<CpuBatchBackend>(std::move(batch));
}

}  // namespace polyrt::cpu
