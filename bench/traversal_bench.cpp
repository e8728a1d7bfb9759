// Traversals. Opening one: the comprehension evaluated at one parent
// coordinate; the target (issue 30): a lattice of 10^4 tuples with a
// `where` and `order halton/1000` opens in under 10 ms; lex over the same
// survivors is the baseline that prices the order itself. Sweeping one: a
// lattice of 10^6 tuples of a numeric body in the batch tier (its lattice
// body) against the same body over 10^6 plain coordinates; the target is
// at least half the plain rows/s.
#include <benchmark/benchmark.h>

#include "polyrt/batch.hpp"
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

constexpr uint64_t kSweepRows = 1000000;
constexpr const char* kSweepBody = "  v := a * 1000 + b\n  w := hash(v) ^ hash(a)\n";

void evaluate_sweep(benchmark::State& st, std::shared_ptr<const Program> program) {
  BatchOptions options;
  options.outputs = {"v", "w"};
  const BatchEvaluator batch(std::move(program), options);
  std::vector<uint64_t> v(kSweepRows), w(kSweepRows);
  uint64_t* destinations[] = {v.data(), w.data()};
  for (auto _ : st) batch.evaluate_into(0, kSweepRows, destinations);
  st.SetItemsProcessed((int64_t)(st.iterations() * kSweepRows));
}

void BM_Sweep_LatticeBody_1M(benchmark::State& st) {
  const auto program =
      compile(std::string("input cycle\nfor a in 0..1000, b in 0..1000 {\n") + kSweepBody + "}\n");
  evaluate_sweep(st, traversal_info(*program, 0).lattice_body);
}
BENCHMARK(BM_Sweep_LatticeBody_1M)->Unit(benchmark::kMillisecond);

// The baseline: the body over plain coordinates (a iterated, b fixed).
void BM_Sweep_PlainBody_1M(benchmark::State& st) {
  evaluate_sweep(st, compile(std::string("input (a, b)\n") + kSweepBody));
}
BENCHMARK(BM_Sweep_PlainBody_1M)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace polyrt::bench
