// JIT compile time of the ladder graph's native segments: cold (no cache),
// warm (this process's memory cache) and from the disk cache in a new engine,
// as a new process would find it.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "bench/ladder_baseline.hpp"
#include "codegen/jit/jit_engine.hpp"
#include "cpu_backend/native_program.hpp"
#include "polyrt/polyrt.hpp"

namespace polyrt::bench {
namespace {

std::shared_ptr<const Program> ladder_program() {
  CompileOptions options;
  options.engine = Engine::Interpreter;  // the graph only; each benchmark compiles it itself
  return compile_file(kLadderFile, options);
}

void BM_JitCompile_Cold(benchmark::State& st) {
  auto program = ladder_program();
  for (auto _ : st) {
    st.PauseTiming();
    auto jit = std::make_unique<jit::JitEngine>(jit::JitOptions{std::nullopt});
    st.ResumeTiming();
    benchmark::DoNotOptimize(cpu::compile_native_segments(*program, *jit));
  }
}
BENCHMARK(BM_JitCompile_Cold)->Unit(benchmark::kMillisecond);

void BM_JitCompile_WarmMemory(benchmark::State& st) {
  auto program = ladder_program();
  jit::JitEngine jit(jit::JitOptions{std::nullopt});
  cpu::compile_native_segments(*program, jit);
  for (auto _ : st) benchmark::DoNotOptimize(cpu::compile_native_segments(*program, jit));
}
BENCHMARK(BM_JitCompile_WarmMemory)->Unit(benchmark::kMillisecond);

void BM_JitCompile_DiskCacheNewProcess(benchmark::State& st) {
  auto program = ladder_program();
  const std::string dir = std::filesystem::temp_directory_path() / "polyrt-bench-cache";
  {
    jit::JitEngine seed(jit::JitOptions{dir});
    cpu::compile_native_segments(*program, seed);
  }
  for (auto _ : st) {
    st.PauseTiming();
    auto jit = std::make_unique<jit::JitEngine>(jit::JitOptions{dir});
    st.ResumeTiming();
    benchmark::DoNotOptimize(cpu::compile_native_segments(*program, *jit));
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_JitCompile_DiskCacheNewProcess)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace polyrt::bench

BENCHMARK_MAIN();
