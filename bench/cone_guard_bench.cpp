// A 100-node graph with three inputs of which two stay fixed: pulling an
// output whose cone does not contain the changing input must cost only the
// cone guard; pulling one whose cone does runs its stale steps.
#include <benchmark/benchmark.h>

#include <string>

#include "polyrt/polyrt.hpp"

namespace polyrt::bench {
namespace {

// 50 nodes hashing the two fixed inputs, 50 hashing the changing one.
std::string hundred_node_source() {
  std::string s = "input cycle\ninput tenant\ninput region\n";
  s += "f0 := hash(tenant ^ region)\n";
  for (int i = 1; i < 50; ++i)
    s += "f" + std::to_string(i) + " := hash(f" + std::to_string(i - 1) + " + " +
         std::to_string(i) + ")\n";
  s += "d0 := hash(cycle ^ f49)\n";
  for (int i = 1; i < 50; ++i)
    s += "d" + std::to_string(i) + " := hash(d" + std::to_string(i - 1) + " + " +
         std::to_string(i) + ")\n";
  return s;
}

void run_guard(benchmark::State& st, Engine engine, Provenance provenance, const char* output) {
  CompileOptions options;
  options.engine = engine;
  options.provenance = provenance;
  auto program = compile(hundred_node_source(), options);
  State state = program->new_state();
  const size_t out = state.output_index(output);
  uint64_t coords[3] = {0, 11, 22};
  uint64_t cycle = 0, sink = 0;
  state.set_inputs(coords);
  sink += state.pull_word(out);
  for (auto _ : st) {
    coords[0] = ++cycle;
    state.set_inputs(coords);
    sink += state.pull_word(out);
  }
  benchmark::DoNotOptimize(sink);
  st.SetLabel(state.engine());
}
// The write alone, to subtract from the guarded pulls below.
void BM_ConeGuard_WriteOnly(benchmark::State& st) {
  CompileOptions options;
  options.provenance = Provenance::PushPull;
  auto program = compile(hundred_node_source(), options);
  State state = program->new_state();
  uint64_t coords[3] = {0, 11, 22};
  uint64_t cycle = 0;
  for (auto _ : st) {
    coords[0] = ++cycle;
    state.set_inputs(coords);
  }
}
BENCHMARK(BM_ConeGuard_WriteOnly);

// f49's cone holds only the fixed inputs: every pull is answered by the guard.
BENCHMARK_CAPTURE(run_guard, CleanCone_Native_PushPull, Engine::Native, Provenance::PushPull,
                  "f49");
BENCHMARK_CAPTURE(run_guard, CleanCone_Native_Pull, Engine::Native, Provenance::Pull, "f49");
BENCHMARK_CAPTURE(run_guard, CleanCone_Native_Raw, Engine::Native, Provenance::Raw, "f49");
BENCHMARK_CAPTURE(run_guard, CleanCone_Interpreter, Engine::Interpreter, Provenance::Auto, "f49");
// d49's cone contains the changing input: 50 hashes run per pull.
BENCHMARK_CAPTURE(run_guard, DirtyCone_Native_PushPull, Engine::Native, Provenance::PushPull,
                  "d49");
BENCHMARK_CAPTURE(run_guard, DirtyCone_Native_Raw, Engine::Native, Provenance::Raw, "d49");

}  // namespace
}  // namespace polyrt::bench
