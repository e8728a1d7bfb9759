// The batch tier on the engine-ladder graph: kernel throughput, against the
// hand-vectorized column loop in the same run (BM_BatchLadder_VsBaseline),
// and `polyrt run`'s job end to end (CSV to /dev/null, npy to a temporary
// directory). Per thread, compare rows/s with run_ladder's P3. threads:0
// runs on every core.
#include <benchmark/benchmark.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <thread>

#include "bench/ladder_baseline.hpp"
#include "bench/ladder_columns_baseline.hpp"
#include "codegen/jit/jit_cpu.hpp"
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

// The hand-vectorized loop for the JIT's CPU: AVX2 when POLYRT_JIT_CPU
// names x86-64-v3, else the host's vector units.
using LadderColumnsFn = void (*)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t*, uint64_t*,
                                 uint64_t*, uint64_t*);
std::pair<LadderColumnsFn, const char*> baseline_for_jit_cpu() {
  const char* cpu = std::getenv(jit::kJitCpuVariable);
  if (cpu && std::string_view(cpu) == "x86-64-v3") {
    return {ladder_columns_avx2, "vs clang -O3 -march=x86-64-v3"};
  }
  return {ladder_columns, "vs clang -O3 -march=native"};
}

// The batch tier's evaluate_into against the hand-vectorized loop on the
// same arrays, alternating in every iteration, at 4 Mi rows (memory-bound
// arrays) and 16 Ki rows (512 KiB: cache-resident), on one thread and on
// every core (the loop split in one slice per core). Counters: each one's
// rows/s and polyrt's ratio to the loop (the goal: >= 0.95).
void BM_BatchLadder_VsBaseline(benchmark::State& st) {
  const auto rows = (uint64_t)st.range(0);
  const auto threads = (size_t)st.range(1);
  const BatchEvaluator batch = ladder_batch(threads);
  const auto [baseline, label] = baseline_for_jit_cpu();
  const size_t slices = threads ? threads : (size_t)tbb::info::default_concurrency();
  tbb::task_arena arena((int)slices);
  std::vector<uint64_t> a(rows), b(rows), c(rows), d(rows);
  uint64_t* columns[] = {a.data(), b.data(), c.data(), d.data()};
  double polyrt_seconds = 0, baseline_seconds = 0;
  uint64_t first = 0;
  using Clock = std::chrono::steady_clock;
  for (auto _ : st) {
    const auto start = Clock::now();
    batch.evaluate_into(first, rows, columns);
    const auto middle = Clock::now();
    arena.execute([&] {
      tbb::parallel_for(size_t{0}, slices, [&](size_t s) {
        const uint64_t begin = rows * s / slices, end = rows * (s + 1) / slices;
        baseline(first + begin, end - begin, 77, 5, a.data() + begin, b.data() + begin,
                 c.data() + begin, d.data() + begin);
      });
    });
    const auto end = Clock::now();
    benchmark::DoNotOptimize(d.data());
    polyrt_seconds += std::chrono::duration<double>(middle - start).count();
    baseline_seconds += std::chrono::duration<double>(end - middle).count();
    first += rows;
  }
  const double total = (double)st.iterations() * (double)rows;
  st.counters["polyrt_rows_per_s"] = total / polyrt_seconds;
  st.counters["baseline_rows_per_s"] = total / baseline_seconds;
  st.counters["ratio"] = baseline_seconds / polyrt_seconds;
  st.SetLabel(label);
}
BENCHMARK(BM_BatchLadder_VsBaseline)
    ->ArgsProduct({{1 << 22, 1 << 14}, {1, 0}})
    ->ArgNames({"rows", "threads"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

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
