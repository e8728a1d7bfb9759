// The string-heavy tables end to end, as `polyrt run FILE --cycles 0..N
// --out /dev/null` runs them: examples/users.polydat (12 columns, 6 of them
// text) and examples/lineitem.polydat (16 columns, 9 of them text) to CSV on
// one thread and every core, with the same table written by the per-state
// closures tier (row by row, a Value per field: the baseline) in the same run.
// Compare rows/s with BM_RunLadder_CsvToDevNull (numeric) and with each other.
#include <benchmark/benchmark.h>

#include "bench/ladder_baseline.hpp"
#include "scheduler/jobs/batch_job.hpp"
#include "scheduler/jobs/range_job.hpp"
#include "scheduler/output/output_sink.hpp"

namespace polyrt::bench {
namespace {

constexpr uint64_t kRows = 1 << 21;

const std::string kExamples = std::string(POLYRT_SOURCE_DIR) + "/examples/";

scheduler::RangeJob table_job(const std::string& file, size_t threads,
                              Engine engine = Engine::Native) {
  scheduler::RangeJob job;
  job.program = compile_file(kExamples + file, CompileOptions{.engine = engine});
  job.count = kRows;
  job.coordinates.assign(job.program->input_names().size(), 0);
  // lineitem.polydat's table is its l_* columns; users.polydat's every output.
  for (const std::string& name : job.program->output_names()) {
    if (file != "lineitem.polydat" || name.starts_with("l_")) job.outputs.push_back(name);
  }
  job.threads = threads;
  return job;
}

void run_batch(benchmark::State& st, const std::string& file) {
  const scheduler::RangeJob job = table_job(file, (size_t)st.range(0));
  for (auto _ : st) {
    scheduler::run_batch_job(job, "/dev/null");
  }
  st.SetItemsProcessed(st.iterations() * job.count);
}

void BM_RunUsers_CsvToDevNull(benchmark::State& st) {
  run_batch(st, "users.polydat");
}
void BM_RunLineitem_CsvToDevNull(benchmark::State& st) {
  run_batch(st, "lineitem.polydat");
}

// The per-state closures tier on one thread: the row-by-row baseline.
void BM_RunUsers_CsvToDevNull_PerStateBaseline(benchmark::State& st) {
  scheduler::RangeJob job = table_job("users.polydat", 1, Engine::Closures);
  job.count = kRows / 8;
  for (auto _ : st) {
    scheduler::run_range_job(job, "/dev/null");
  }
  st.SetItemsProcessed(st.iterations() * job.count);
}

void threads_1_and_every_core(benchmark::internal::Benchmark* b) {
  b->Arg(1)->Arg(0)->ArgName("threads")->UseRealTime()->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_RunUsers_CsvToDevNull)->Apply(threads_1_and_every_core);
BENCHMARK(BM_RunLineitem_CsvToDevNull)->Apply(threads_1_and_every_core);
BENCHMARK(BM_RunUsers_CsvToDevNull_PerStateBaseline)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace polyrt::bench
