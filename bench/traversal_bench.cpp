// Opening a traversal: the comprehension evaluated at one parent
// coordinate. The target (issue 30): a lattice of 10^4 tuples with a
// `where` and `order halton/1000` opens in under 10 ms; lex over the same
// survivors is the baseline that prices the order itself.
#include <benchmark/benchmark.h>

#include "polyrt/traversal.hpp"

namespace polyrt::bench {
namespace {

void open_sweep(benchmark::State& st, const char* order) {
  const auto program =
      compile(std::string("input cycle\nfor a in 0..100, b in 0..100 where {a} != {b} ") + order +
              " { v := a * 100 + b }\n");
  State parent = program->new_state();
  parent.set_inputs({7});
  const uint64_t coordinate = 7;
  size_t tuples = 0;
  for (auto _ : st) {
    const Traversal t = open_traversal(parent, std::span(&coordinate, 1), 0);
    tuples = t.tuples().size();
  }
  st.counters["tuples"] = (double)tuples;
}

void BM_TraversalOpen_10kWhereHalton1000(benchmark::State& st) {
  open_sweep(st, "order halton/1000");
}
BENCHMARK(BM_TraversalOpen_10kWhereHalton1000)->Unit(benchmark::kMillisecond);

void BM_TraversalOpen_10kWhereLex1000(benchmark::State& st) {
  open_sweep(st, "order lex/1000");
}
BENCHMARK(BM_TraversalOpen_10kWhereLex1000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace polyrt::bench
