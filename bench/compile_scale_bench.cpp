// Compile time against program size: generated programs of independent
// bindings (`b_i := hash(x + i)`) and of one long chain (`b_i := hash(b_{i-1}
// ^ i)`). The front end and passes (the interpreter engine) must stay linear:
// compare the per-binding time (items_per_second) of the 10k and 100k
// sizes in one run. BM_FrontEnd_Traversal adds a tile and a traversal over a
// literal lattice to the independent bindings. The native compile of a chain (planning, code
// generation, the JIT, no object cache) is measured cold.
#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include "bench/generated_programs.hpp"
#include "codegen/jit/jit_engine.hpp"
#include "cpu_backend/native_program.hpp"
#include "polyrt/polyrt.hpp"

namespace polyrt::bench {
namespace {

template <std::string (*Make)(int64_t)>
void BM_FrontEnd(benchmark::State& st) {
  const std::string src = Make(st.range(0));
  CompileOptions options;
  options.engine = Engine::Interpreter;
  for (auto _ : st) benchmark::DoNotOptimize(compile(src, options));
  st.SetItemsProcessed(st.iterations() * st.range(0));
}
BENCHMARK(BM_FrontEnd<independent_program>)
    ->Name("BM_FrontEnd_Independent")
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FrontEnd<hash_chain_program>)
    ->Name("BM_FrontEnd_Chain")
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

BENCHMARK(BM_FrontEnd<traversal_program>)
    ->Name("BM_FrontEnd_Traversal")
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);

// Bindings of the chain compiled to native code with no cache: 1,000 and
// 8,000 (16,000 native nodes, the largest size the native engine takes).
void BM_NativeCompile_ChainCold(benchmark::State& st) {
  CompileOptions options;
  options.engine = Engine::Interpreter;  // the graph only; the JIT runs below
  const auto program = compile(hash_chain_program(st.range(0)), options);
  for (auto _ : st) {
    st.PauseTiming();
    auto jit = std::make_unique<jit::JitEngine>(jit::JitOptions{std::nullopt});
    st.ResumeTiming();
    benchmark::DoNotOptimize(cpu::compile_native_segments(*program, *jit));
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}
BENCHMARK(BM_NativeCompile_ChainCold)
    ->Arg(1000)
    ->Arg(8000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace polyrt::bench
