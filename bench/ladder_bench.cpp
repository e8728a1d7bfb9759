// Engine ladder (DESIGN.md section 8): one iteration sets the three inputs for
// a new cycle and reads account_id, shard, payload_class and event_token.
// Compare each engine's time with BM_Ladder_Baseline from the same run.
#include <benchmark/benchmark.h>

#include "bench/ladder_baseline.hpp"
#include "polyrt/polyrt.hpp"

namespace polyrt::bench {
namespace {

void BM_Ladder_Baseline(benchmark::State& st) {
  LadderFn fn = ladder_baseline;
  benchmark::DoNotOptimize(fn);
  uint64_t cycle = 0, sink = 0;
  for (auto _ : st) {
    const LadderOutputs o = fn(cycle++, 77, 5);
    sink += o.account_id + o.shard + o.payload_class + o.event_token;
  }
  benchmark::DoNotOptimize(sink);
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_Ladder_Baseline);

void run_ladder(benchmark::State& st, Engine engine, Provenance provenance) {
  CompileOptions options;
  options.engine = engine;
  options.provenance = provenance;
  auto program = compile_file(kLadderFile, options);
  State state = program->new_state();
  const size_t outs[] = {state.output_index("account_id"), state.output_index("shard"),
                         state.output_index("payload_class"), state.output_index("event_token")};
  uint64_t cycle = 0, sink = 0;
  uint64_t coords[3] = {0, 77, 5};
  for (auto _ : st) {
    coords[0] = cycle++;
    state.set_inputs(coords);
    for (size_t o : outs) sink += state.pull_word(o);
  }
  benchmark::DoNotOptimize(sink);
  st.SetItemsProcessed(st.iterations());
  st.SetLabel(state.engine());
}
BENCHMARK_CAPTURE(run_ladder, P1_Interpreter, Engine::Interpreter, Provenance::Auto);
BENCHMARK_CAPTURE(run_ladder, P2_Closures_Raw, Engine::Closures, Provenance::Raw);
BENCHMARK_CAPTURE(run_ladder, P2_Closures_Pull, Engine::Closures, Provenance::Pull);
BENCHMARK_CAPTURE(run_ladder, P2_Closures_PushPull, Engine::Closures, Provenance::PushPull);
BENCHMARK_CAPTURE(run_ladder, P3_Native_Raw, Engine::Native, Provenance::Raw);
BENCHMARK_CAPTURE(run_ladder, P3_Native_Pull, Engine::Native, Provenance::Pull);
BENCHMARK_CAPTURE(run_ladder, P3_Native_PushPull, Engine::Native, Provenance::PushPull);

}  // namespace
}  // namespace polyrt::bench

namespace polyrt::bench {
namespace {

// States must be cheap to create (one per request or thread) and to clone.
void BM_NewState_Native(benchmark::State& st) {
  auto program = compile_file(kLadderFile);
  for (auto _ : st) benchmark::DoNotOptimize(program->new_state());
}
BENCHMARK(BM_NewState_Native);

void BM_CloneState_Native(benchmark::State& st) {
  auto program = compile_file(kLadderFile);
  State prototype = program->new_state();
  prototype.set_inputs({1, 2, 3});
  for (auto _ : st) {
    State copy = prototype;
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(BM_CloneState_Native);

}  // namespace
}  // namespace polyrt::bench
