// PTX generation for the ladder graph's batch kernels: cold (no cache) and
// from the disk cache in a new compiler, as a new process would find it.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "bench/ladder_baseline.hpp"
#include "gpu_backend/ptx/ptx_compiler.hpp"
#include "scheduler/runtime/batch_setup.hpp"

namespace polyrt::bench {
namespace {

batch::PreparedBatch ladder_batch() {
  CompileOptions options;
  options.engine = Engine::Interpreter;  // the graph only
  auto program = compile_file(kLadderFile, options);
  return scheduler::prepare(program, scheduler::resolve_batch_options(*program, BatchOptions{}));
}

void BM_PtxCompile_Ladder_Cold(benchmark::State& st) {
  const batch::PreparedBatch b = ladder_batch();
  for (auto _ : st) {
    st.PauseTiming();
    auto compiler = std::make_unique<gpu::PtxCompiler>(std::nullopt);
    st.ResumeTiming();
    benchmark::DoNotOptimize(compiler->compile(b.graph(), b.plan, gpu::NvptxTarget{}));
  }
}
BENCHMARK(BM_PtxCompile_Ladder_Cold)->Unit(benchmark::kMillisecond);

void BM_PtxCompile_Ladder_DiskCacheNewProcess(benchmark::State& st) {
  const batch::PreparedBatch b = ladder_batch();
  const std::string dir = std::filesystem::temp_directory_path() / "polyrt-bench-ptx-cache";
  gpu::PtxCompiler(dir).compile(b.graph(), b.plan, gpu::NvptxTarget{});
  for (auto _ : st) {
    st.PauseTiming();
    auto compiler = std::make_unique<gpu::PtxCompiler>(dir);
    st.ResumeTiming();
    benchmark::DoNotOptimize(compiler->compile(b.graph(), b.plan, gpu::NvptxTarget{}));
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_PtxCompile_Ladder_DiskCacheNewProcess)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace polyrt::bench
