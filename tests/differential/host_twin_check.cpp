#include "tests/differential/host_twin_check.hpp"

#include <algorithm>
#include <random>

#include "cpu_backend/cpu_batch_backend.hpp"
#include "gpu_backend/host_twin_backend.hpp"
#include "scheduler/runtime/batch_setup.hpp"

namespace polyrt::difftest {

namespace {

using plan::BatchValue;

std::string cell(const batch::PreparedBatch& batch, const batch::ChunkBuffers& b, uint64_t first,
                 size_t output, uint64_t row) {
  const BatchValue& v = batch.plan.outputs[output];
  switch (v.kind) {
    case BatchValue::None:
      return "None";
    case BatchValue::Scalar:
      return batch.scalars[v.index].to_string();
    case BatchValue::Lane:
      return std::to_string(first + row);
    case BatchValue::Column:
      if (is_payload(batch.plan.column_types[v.index])) {
        return "text " + std::string(b.texts[v.index][row]);
      }
      return "word " + std::to_string(b.column_pointers[v.index][row]);
    case BatchValue::Register:
      break;
  }
  return "register";
}

std::string describe(const batch::ChunkFailure& f) {
  if (!f.failed()) return "no failure";
  return "row " + std::to_string(f.row) + " step " + std::to_string(f.step) + " member " +
         std::to_string(f.member);
}

}  // namespace

std::optional<std::string> check_host_twin(uint64_t seed,
                                           const std::shared_ptr<const Program>& program,
                                           const BatchOptions& options, uint64_t first,
                                           uint64_t count) {
  std::mt19937_64 rng(seed * 15485863 + 11);
  // Fewer threads than rows (grid-stride), one thread, more threads than rows.
  const uint32_t block_sizes[] = {1, 3, 32, 256};
  const gpu::GridShape grid{1 + (uint32_t)(rng() % 4), block_sizes[rng() % 4]};
  std::unique_ptr<batch::BatchBackend> cpu, twin;
  try {
    const scheduler::BatchSetup setup = scheduler::resolve_batch_options(*program, options);
    cpu = cpu::make_batch_backend(scheduler::prepare(program, setup));
    twin = gpu::make_host_twin_backend(scheduler::prepare(program, setup), grid);
  } catch (const RefusedError&) {
    return std::nullopt;  // the batch tier refuses it (checked by the caller)
  }
  const batch::PreparedBatch& batch = cpu->batch();
  batch::ChunkBuffers cpu_buffers, twin_buffers;
  const uint64_t chunk = options.chunk_rows ? options.chunk_rows : kDefaultChunkRows;
  for (uint64_t offset = 0; offset < count; offset += chunk) {
    const uint64_t rows = std::min(chunk, count - offset);
    cpu->prepare(cpu_buffers, rows);
    twin->prepare(twin_buffers, rows);
    const batch::ChunkFailure want = cpu->run(cpu_buffers, first + offset, {}, {});
    const batch::ChunkFailure got = twin->run(twin_buffers, first + offset, {}, {});
    std::string mismatch;
    if (want != got) mismatch = "first failure: cpu " + describe(want) + " | twin " + describe(got);
    for (uint64_t r = 0; mismatch.empty() && r < std::min(rows, want.row); ++r) {
      for (size_t o = 0; o < batch.plan.outputs.size(); ++o) {
        const std::string a = cell(batch, cpu_buffers, first + offset, o, r);
        const std::string b = cell(batch, twin_buffers, first + offset, o, r);
        if (a != b) {
          // Past the named outputs: a nullable output's presence word.
          const std::string name =
              o < options.outputs.size() ? options.outputs[o] : "presence " + std::to_string(o);
          mismatch = "row " + std::to_string(first + offset + r) + " output " + name + ": cpu " +
                     a + " | twin " + b;
          break;
        }
      }
    }
    if (!mismatch.empty()) {
      return "the GPU kernels' host twins (grid " + std::to_string(grid.blocks) + " x " +
             std::to_string(grid.threads_per_block) + ", chunk at " +
             std::to_string(first + offset) + " of " + std::to_string(rows) +
             " rows) disagree with the CPU batch tier: " + mismatch;
    }
    if (want.failed()) break;
  }
  return std::nullopt;
}

}  // namespace polyrt::difftest
