#include "cpu_backend/cpu_batch_backend.hpp"

#include "cpu_backend/batch_kernels.hpp"

namespace polyrt::cpu {

namespace {

class CpuBatchBackend final : public batch::BatchBackend {
 public:
  explicit CpuBatchBackend(batch::PreparedBatch batch)
      : batch_(std::move(batch)), kernels_(compile_batch_kernels(batch_.graph(), batch_.plan)) {}

  const batch::PreparedBatch& batch() const override { return batch_; }

  batch::BackendDevice device() const override { return {batch::DeviceKind::Cpu, 0, "cpu"}; }

  // One chunk per worker thread. Among several devices the CPU is the
  // frontier: it takes the rows in order, about 1 ms of one thread's work at
  // a time, run in pieces of the size that suits its caches, and may finish
  // 8 chunks per thread ahead of delivery.
  batch::SchedulingLimits scheduling() const override {
    return batch::SchedulingLimits{.chunks_ahead_per_slot = 8,
                                   .frontier = true,
                                   .pieces_per_chunk = 32,
                                   .chunk_seconds = 0.001};
  }

  void prepare(batch::ChunkBuffers& buffers, uint64_t rows) const override {
    batch::size_chunk(batch_, buffers, rows);
  }

  batch::ChunkFailure run(batch::ChunkBuffers& b, uint64_t first,
                          std::span<const uint64_t* const> coordinate_columns,
                          std::span<uint64_t* const> targets) const override {
    return batch::run_chunk(batch_, b, first, coordinate_columns, targets, [&](uint32_t step) {
      batch::KernelFailure f;
      f.row = kernels_.per_step[step](first, b.rows, b.column_pointers.data(),
                                      batch_.scalar_words.data(), &f.member);
      return f;
    });
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
