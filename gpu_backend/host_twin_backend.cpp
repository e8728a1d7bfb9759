#include "gpu_backend/host_twin_backend.hpp"

#include "codegen/batch_codegen.hpp"
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

  std::string device_name() const override { return "host twin of the GPU kernels"; }

  void prepare(batch::ChunkBuffers& buffers, uint64_t rows) const override {
    // The failure word holds the row in its upper 32 bits.
    if (rows >> 32) internal_error("a GPU kernel launch covers fewer than 2^32 rows");
    batch::size_chunk(batch_, buffers, rows);
  }

  batch::ChunkFailure run(batch::ChunkBuffers& b, uint64_t first,
                          std::span<const uint64_t* const> coordinate_columns,
                          std::span<uint64_t* const> targets) const override {
    return batch::run_chunk(batch_, b, first, coordinate_columns, targets, [&](uint32_t step) {
      // The GPU entry's arguments, each behind a pointer as a launch takes them.
      uint64_t count = b.rows, err = ~uint64_t{0};
      const uint64_t* scalars = batch_.scalar_words.data();
      std::vector<uint64_t*> kernel_columns;
      for (uint32_t c : columns_[step]) kernel_columns.push_back(b.column_pointers[c]);
      uint64_t* err_ptr = &err;
      std::vector<void*> params = {&first, &count, &scalars};
      for (uint64_t*& column : kernel_columns) params.push_back(&column);
      params.push_back(&err_ptr);
      run_on_simulated_grid(twins_.per_step[step], params.data(), grid_);
      batch::KernelFailure f;
      if (err != ~uint64_t{0}) f = {err >> 32, (uint32_t)err};
      return f;
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
