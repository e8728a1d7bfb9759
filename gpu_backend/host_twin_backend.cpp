#include "gpu_backend/host_twin_backend.hpp"

#include "codegen/batch_codegen.hpp"
#include "gpu_backend/kernel_arguments.hpp"
#include "polyrt/error.hpp"

namespace polyrt::gpu {

namespace {

class HostTwinBackend final : public batch::BatchBackend {
 public:
  HostTwinBackend(batch::PreparedBatch batch, GridShape grid)
      : batch_(std::move(batch)),
        twins_(compile_host_twins(batch_.graph(), batch_.plan)),
        grid_(grid) {
    for (uint32_t s = 0; s < batch_.plan.steps.size(); ++s) {
      columns_.push_back(codegen::kernel_columns(batch_.graph(), batch_.plan, s));
    }
  }

  const batch::PreparedBatch& batch() const override { return batch_; }

  batch::BackendDevice device() const override {
    return {batch::DeviceKind::Cpu, 0, "host twin of the GPU kernels"};
  }
  batch::SchedulingLimits scheduling() const override { return {}; }

  void prepare(batch::ChunkBuffers& buffers, uint64_t rows) const override {
    // The failure word holds the row in its upper 32 bits.
    if (rows >> 32) internal_error("a GPU kernel launch covers fewer than 2^32 rows");
    batch::size_chunk(batch_, buffers, rows);
  }

  batch::ChunkFailure run(batch::ChunkBuffers& b, uint64_t first,
                          std::span<const uint64_t* const> coordinate_columns,
                          std::span<uint64_t* const> targets) const override {
    return batch::run_chunk(batch_, b, first, coordinate_columns, targets, [&](uint32_t step) {
      uint64_t failure_word = kNoFailureWord;
      std::vector<uint64_t> columns;
      for (uint32_t c : columns_[step]) columns.push_back((uintptr_t)b.column_pointers[c]);
      KernelArguments arguments(first, b.rows, (uintptr_t)batch_.scalar_words.data(), columns,
                                (uintptr_t)&failure_word);
      run_on_simulated_grid(twins_.per_step[step], arguments.pointers(), grid_);
      return decode_failure_word(failure_word);
    });
  }

 private:
  batch::PreparedBatch batch_;
  HostTwinKernels twins_;
  GridShape grid_;
  std::vector<std::vector<uint32_t>> columns_;  // per step: its kernel's columns
};

}  // namespace

std::unique_ptr<batch::BatchBackend> make_host_twin_backend(batch::PreparedBatch batch,
                                                            GridShape grid) {
  return std::make_unique<HostTwinBackend>(std::move(batch), grid);
}

}  // namespace polyrt::gpu
