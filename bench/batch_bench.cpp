// The batch tier on the engine-ladder graph: kernel throughput against the
// hand-written column loop (one thread and every thread), and `polyrt run`'s
// job end to end (CSV to /dev/null, npy to a temporary directory). Compare
// rows/s with BM_LadderColumns_Baseline and, per thread, with run_ladder's P3.
// threads:0 runs on every core.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "bench/ladder_baseline.hpp"
#include "bench/ladder_columns_baseline.hpp"
#include "polyrt/batch.hpp"
#include "scheduler/jobs/batch_job.hpp"

namespace polyrt::bench {
namespace {

constexpr uint64_t kRows = 1 << 22;

// threads:1 and threads:0 (every core), timed by the wall clock.
void one_thread_and_every_core(benchmark::internal::Benchmark* b) {
  b->Arg(1)->Arg(0)->ArgName("threads")->UseRealTime()->Unit(benchmark::kMillisecond);
}
const std::vector<std::string> kOutputs = {"account_id", "shard", "payload_class", "event_token"};

void BM_LadderColumns_Baseline(benchmark::State& st) {
  std::vector<uint64_t> a(kRows), b(kRows), c(kRows), d(kRows);
  uint64_t first = 0;
  for (auto _ : st) {
    ladder_columns(first, kRows, 77, 5, a.data(), b.data(), c.data(), d.data());
    benchmark::DoNotOptimize(d.data());
    first += kRows;
  }
  st.SetItemsProcessed(st.iterations() * kRows);
}
BENCHMARK(BM_LadderColumns_Baseline)->Unit(benchmark::kMillisecond);

BatchEvaluator ladder_batch(size_t threads) {
  BatchOptions options;
  options.outputs = kOutputs;
  options.coordinates = {0, 77, 5};
  options.threads = threads;
  return BatchEvaluator(compile_file(kLadderFile), options);
}

// Rows into caller arrays: the kernels write them directly.
void BM_BatchLadder_EvaluateInto(benchmark::State& st) {
  const BatchEvaluator batch = ladder_batch((size_t)st.range(0));
  std::vector<uint64_t> a(kRows), b(kRows), c(kRows), d(kRows);
  uint64_t* columns[] = {a.data(), b.data(), c.data(), d.data()};
  uint64_t first = 0;
  for (auto _ : st) {
    batch.evaluate_into(first, kRows, columns);
    first += kRows;
  }
  st.SetItemsProcessed(st.iterations() * kRows);
}
BENCHMARK(BM_BatchLadder_EvaluateInto)->Apply(one_thread_and_every_core);

// The kernels and the pipeline alone: chunks are streamed and dropped.
void BM_BatchLadder_Stream(benchmark::State& st) {
  const BatchEvaluator batch = ladder_batch((size_t)st.range(0));
  uint64_t first = 0, sink = 0;
  for (auto _ : st) {
    batch.stream(first, kRows,
                 [&](const ColumnChunk& chunk) { sink += chunk.columns[3].words[0]; });
    first += kRows;
  }
  benchmark::DoNotOptimize(sink);
  st.SetItemsProcessed(st.iterations() * kRows);
}
BENCHMARK(BM_BatchLadder_Stream)->Apply(one_thread_and_every_core);

scheduler::RangeJob ladder_job(uint64_t rows, size_t threads) {
  scheduler::RangeJob job;
  job.program = compile_file(kLadderFile);
  job.first = 0;
  job.count = rows;
  job.coordinates = {0, 77, 5};
  job.outputs = kOutputs;
  job.threads = threads;
  return job;
}

// `polyrt run examples/ladder.polydat --cycles 0..N --format csv --out /dev/null`.
void BM_RunLadder_CsvToDevNull(benchmark::State& st) {
  const scheduler::RangeJob job = ladder_job(1 << 23, (size_t)st.range(0));
  for (auto _ : st) {
    scheduler::run_batch_job(job, "/dev/null");
  }
  st.SetItemsProcessed(st.iterations() * job.count);
}
BENCHMARK(BM_RunLadder_CsvToDevNull)->Apply(one_thread_and_every_core);

// `polyrt run ... --format npy --out DIR` into a temporary directory.
void BM_RunLadder_NpyToTempDir(benchmark::State& st) {
  scheduler::RangeJob job = ladder_job(1 << 23, (size_t)st.range(0));
  job.format = scheduler::find_output_format("npy");
  const std::string dir = std::filesystem::temp_directory_path().string() + "/polyrt-bench-npy-" +
                          std::to_string(::getpid());
  for (auto _ : st) {
    scheduler::run_batch_job(job, dir);
    st.PauseTiming();  // deleting the files is not the job's cost
    std::filesystem::remove_all(dir);
    st.ResumeTiming();
  }
  std::filesystem::remove_all(dir);
  st.SetItemsProcessed(st.iterations() * job.count);
}
BENCHMARK(BM_RunLadder_NpyToTempDir)->Apply(one_thread_and_every_core);

}  // namespace
}  // namespace polyrt::bench
