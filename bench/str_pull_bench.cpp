// Reading a current str output per request: pull (a copy of the string) vs
// pull_ref (the state's own value, nothing copied), on the native engine.
// Each iteration changes the coordinate every 8th pull, as a driver reading
// a row's fields several times would.
#include <benchmark/benchmark.h>

#include "polyrt/polyrt.hpp"

namespace polyrt::bench {
namespace {

const char* kSource = "input cycle\nemail := \"user.{hash(cycle) % 1000000}@mail.example.com\"\n";

void BM_StrPull_Copy(benchmark::State& st) {
  State state = compile(kSource)->new_state();
  uint64_t cycle = 0, bytes = 0;
  for (auto _ : st) {
    if ((++cycle & 7) == 0) state.set_inputs({cycle});
    const Value v = state.pull_at(0);
    bytes += v.as_str().size();
  }
  benchmark::DoNotOptimize(bytes);
}
BENCHMARK(BM_StrPull_Copy);

void BM_StrPull_Ref(benchmark::State& st) {
  State state = compile(kSource)->new_state();
  uint64_t cycle = 0, bytes = 0;
  for (auto _ : st) {
    if ((++cycle & 7) == 0) state.set_inputs({cycle});
    bytes += state.pull_ref(0).as_str().size();
  }
  benchmark::DoNotOptimize(bytes);
}
BENCHMARK(BM_StrPull_Ref);

}  // namespace
}  // namespace polyrt::bench
