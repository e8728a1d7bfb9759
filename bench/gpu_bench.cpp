// The GPU batch tier, each figure next to what the device can do, measured in
// the same run: device write bandwidth (cuMemsetD8Async) and page-locked
// device-to-host bandwidth (cuMemcpyDtoHAsync). The ladder graph (4 outputs,
// 32 bytes per row) and the stress graph (tests/data/gpu_stress.polydat),
// device-resident (evaluate_on_device) and to the host (stream with no
// consumer work: the columns land in page-locked staging); the compile of a
// new program (PTX + cubin) cold and from the caches; users.polydat and
// lineitem.polydat to CSV on the GPU and on the CPU. Every GPU benchmark skips,
// with the reason, where no usable GPU is found; scripts/device_check.sh
// prints the ratios.
#include <benchmark/benchmark.h>

#include <atomic>
#include <filesystem>

#include "bench/ladder_baseline.hpp"
#include "gpu_backend/driver/cuda_driver.hpp"
#include "gpu_backend/driver/device_resources.hpp"
#include "polyrt/batch.hpp"

namespace polyrt::bench {
namespace {

constexpr size_t kBandwidthBytes = size_t{1} << 30;
constexpr uint64_t kRows = uint64_t{1} << 26;

const char* kStressFile = POLYRT_SOURCE_DIR "/tests/data/gpu_stress.polydat";

// A benchmark's polyrt error (a driver call that fails) skips it with the
// error's text: the benchmarks after it still run, and the device check's
// table still gets their lines.
template <typename Body>
void guarded(benchmark::State& st, const Body& body) {
  try {
    body();
  } catch (const Error& e) {
    st.SkipWithError(e.what());
  }
}

const gpu::CudaDriver* gpu_or_skip(benchmark::State& st) {
  const gpu::CudaDriver* driver = gpu::CudaDriver::get();
  if (!driver)
    st.SkipWithError(("no usable GPU: " + gpu::CudaDriver::unavailable_reason()).c_str());
  return driver;
}

void BM_Gpu_DeviceWriteBandwidth(benchmark::State& st) {
  guarded(st, [&] {
    const gpu::CudaDriver* driver = gpu_or_skip(st);
    if (!driver) return;
    const gpu::GpuContext context(*driver, 0);
    // Stream calls need the context current on this thread (a real driver
    // and the double refuse them otherwise).
    const gpu::CurrentContext current = context.make_current();
    const size_t bytes = std::min(kBandwidthBytes, context.device().memory_bytes / 4);
    const gpu::DeviceBuffer buffer(context, bytes);
    const gpu::GpuStream stream(context);
    const auto memset = [&] {
      context.check(driver->api().cuMemsetD8Async(buffer.address(), 0x5a, bytes, stream.handle()),
                    "cuMemsetD8Async");
      stream.synchronize();
    };
    memset();  // warm-up: the first touch maps the pages
    for (auto _ : st) memset();
    st.SetBytesProcessed((int64_t)(st.iterations() * bytes));
  });
}
BENCHMARK(BM_Gpu_DeviceWriteBandwidth)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Gpu_PinnedDeviceToHostBandwidth(benchmark::State& st) {
  guarded(st, [&] {
    const gpu::CudaDriver* driver = gpu_or_skip(st);
    if (!driver) return;
    const gpu::GpuContext context(*driver, 0);
    const gpu::CurrentContext current = context.make_current();
    const size_t bytes = std::min(kBandwidthBytes / 4, context.device().memory_bytes / 8);
    const gpu::DeviceBuffer buffer(context, bytes);
    const gpu::PinnedBuffer host(context, bytes);
    const gpu::GpuStream stream(context);
    const auto copy = [&] {
      context.check(
          driver->api().cuMemcpyDtoHAsync(host.words(), buffer.address(), bytes, stream.handle()),
          "cuMemcpyDtoHAsync");
      stream.synchronize();
    };
    copy();  // warm-up: the first copy sets up the DMA mappings
    for (auto _ : st) copy();
    st.SetBytesProcessed((int64_t)(st.iterations() * bytes));
  });
}
BENCHMARK(BM_Gpu_PinnedDeviceToHostBandwidth)->UseRealTime()->Unit(benchmark::kMillisecond);

BatchEvaluator gpu_batch(const char* file, std::vector<std::string> outputs) {
  BatchOptions options;
  options.outputs = std::move(outputs);
  options.device = BatchDevice::Gpu;
  auto program = compile_file(file);
  options.coordinates.assign(program->input_names().size(), 5);
  return BatchEvaluator(program, options);
}

const std::vector<std::string> kLadderOutputs = {"account_id", "shard", "payload_class",
                                                 "event_token"};
const std::vector<std::string> kStressOutputs = {"normal", "wait",  "rank", "hour",
                                                 "wave",   "grown", "root", "score"};

// Every column straight into device memory.
void BM_GpuDeviceResident(benchmark::State& st, const char* file,
                          const std::vector<std::string>& outputs) {
  guarded(st, [&] {
    const gpu::CudaDriver* driver = gpu_or_skip(st);
    if (!driver) return;
    const BatchEvaluator batch = gpu_batch(file, outputs);
    const gpu::GpuContext context(*driver, 0);
    const uint64_t rows =
        std::min<uint64_t>(kRows, context.device().memory_bytes / 4 / (8 * outputs.size()));
    std::vector<gpu::DeviceBuffer> columns;
    std::vector<uint64_t> addresses;
    for (size_t o = 0; o < outputs.size(); ++o) {
      columns.emplace_back(context, rows * 8);
      addresses.push_back(columns.back().address());
    }
    // Warm-up: chunk buffers, streams and the module are made by the first call.
    batch.evaluate_on_device(0, rows, addresses);
    uint64_t first = rows;
    for (auto _ : st) {
      batch.evaluate_on_device(first, rows, addresses);
      first += rows;
    }
    st.SetItemsProcessed((int64_t)(st.iterations() * rows));
    st.SetBytesProcessed((int64_t)(st.iterations() * rows * 8 * outputs.size()));
  });
}

// Every column to page-locked host staging, handed to a consumer that only
// touches it.
void BM_GpuToHost(benchmark::State& st, const char* file, const std::vector<std::string>& outputs) {
  guarded(st, [&] {
    if (!gpu_or_skip(st)) return;
    const BatchEvaluator batch = gpu_batch(file, outputs);
    const uint64_t rows = kRows / 4;
    std::atomic<uint64_t> sink{0};
    // Warm-up: chunk and page-locked buffers, streams and the module.
    batch.stream(0, rows, [&](const ColumnChunk& chunk) { sink += chunk.rows; });
    uint64_t first = rows;
    for (auto _ : st) {
      batch.stream(first, rows, [&](const ColumnChunk& chunk) {
        sink += chunk.columns[0].words[chunk.rows - 1];
      });
      first += rows;
    }
    st.SetItemsProcessed((int64_t)(st.iterations() * rows));
    st.SetBytesProcessed((int64_t)(st.iterations() * rows * 8 * outputs.size()));
  });
}

BENCHMARK_CAPTURE(BM_GpuDeviceResident, Ladder, kLadderFile, kLadderOutputs)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GpuToHost, Ladder, kLadderFile, kLadderOutputs)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GpuDeviceResident, Stress, kStressFile, kStressOutputs)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GpuToHost, Stress, kStressFile, kStressOutputs)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// A realistic (string) table as CSV rows (stream_rows, what `polyrt run
// --format csv` writes), on the GPU and, for the ratio, on the CPU tier of
// the same machine: bytes of CSV per second. On a GPU every string node of
// users.polydat and lineitem.polydat is a kernel's device text and the rows
// are encoded on the device (polyrt plan --device gpu shows no host step).
void BM_GpuTableToCsv(benchmark::State& st, const char* file, BatchDevice device) {
  guarded(st, [&] {
    if (device == BatchDevice::Gpu && !gpu_or_skip(st)) return;
    BatchOptions options;
    options.device = device;
    const BatchEvaluator batch(compile_file(file), options);
    const uint64_t rows = kRows / 16;
    uint64_t written = 0;
    const auto write = [&](uint64_t, uint64_t, std::string_view bytes) { written += bytes.size(); };
    batch.stream_rows(0, rows, RowFormat::Csv, write);  // warm-up: buffers, streams, the module
    uint64_t first = rows;
    written = 0;
    for (auto _ : st) {
      batch.stream_rows(first, rows, RowFormat::Csv, write);
      first += rows;
    }
    st.SetItemsProcessed((int64_t)(st.iterations() * rows));
    st.SetBytesProcessed((int64_t)written);
  });
}

const char* kUsersFile = POLYRT_SOURCE_DIR "/examples/users.polydat";
const char* kLineitemFile = POLYRT_SOURCE_DIR "/examples/lineitem.polydat";
BENCHMARK_CAPTURE(BM_GpuTableToCsv, UsersGpu, kUsersFile, BatchDevice::Gpu)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GpuTableToCsv, UsersCpu, kUsersFile, BatchDevice::Cpu)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GpuTableToCsv, LineitemGpu, kLineitemFile, BatchDevice::Gpu)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GpuTableToCsv, LineitemCpu, kLineitemFile, BatchDevice::Cpu)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// users.polydat with every column, its 6 str columns too, left in device
// memory (evaluate_to_device): bytes of columns (words, offsets and text)
// per second, for the device write bandwidth's ratio.
void BM_GpuUsersToDevice(benchmark::State& st) {
  guarded(st, [&] {
    const gpu::CudaDriver* driver = gpu_or_skip(st);
    if (!driver) return;
    BatchOptions options;
    options.device = BatchDevice::Gpu;
    const BatchEvaluator batch(compile_file(kUsersFile), options);
    // A quarter of the device's memory for the columns: 12 words, 6 offsets
    // and at most 173 bytes of text a row.
    const uint64_t rows = std::min<uint64_t>(
        kRows / 16, gpu::GpuContext(*driver, 0).device().memory_bytes / 4 / (18 * 8 + 173));
    const auto bytes_of = [](const std::vector<DeviceColumn>& columns) {
      uint64_t bytes = 0;
      for (const DeviceColumn& c : columns) bytes += c.rows * 8 + c.text_bytes;
      return bytes;
    };
    batch.evaluate_to_device(0, rows);  // warm-up: buffers, streams, the module
    uint64_t first = rows, written = 0;
    for (auto _ : st) {
      written += bytes_of(batch.evaluate_to_device(first, rows));
      first += rows;
    }
    st.SetItemsProcessed((int64_t)(st.iterations() * rows));
    st.SetBytesProcessed((int64_t)written);
  });
}
BENCHMARK(BM_GpuUsersToDevice)->UseRealTime()->Unit(benchmark::kMillisecond);

// Embeddings, 768 f32 unit vectors a row, made on the device (hash_vec and
// vec_norm have device forms).
BatchEvaluator embeddings_on_gpu() {
  BatchOptions options;
  options.device = BatchDevice::Gpu;
  return BatchEvaluator(compile("input cycle\nembedding := vec_norm(hash_vec(cycle, 768))\n"),
                        options);
}
constexpr uint64_t kEmbeddingRows = kRows / 2048;  // 32,768 rows, 96 MiB of elements

// Embeddings handed to a consumer on the host: bytes of elements per
// second, for the pinned device-to-host ratio.
void BM_GpuEmbeddingsToHost(benchmark::State& st) {
  guarded(st, [&] {
    if (!gpu_or_skip(st)) return;
    const BatchEvaluator batch = embeddings_on_gpu();
    const uint64_t rows = kEmbeddingRows;
    std::atomic<uint64_t> sink{0};
    batch.stream(0, rows, [&](const ColumnChunk& chunk) { sink += chunk.rows; });  // warm-up
    uint64_t first = rows;
    for (auto _ : st) {
      batch.stream(first, rows, [&](const ColumnChunk& chunk) { sink += chunk.rows; });
      first += rows;
    }
    st.SetItemsProcessed((int64_t)(st.iterations() * rows));
    st.SetBytesProcessed((int64_t)(st.iterations() * rows * 768 * 4));
  });
}
BENCHMARK(BM_GpuEmbeddingsToHost)->UseRealTime()->Unit(benchmark::kMillisecond);

// Embeddings left in device memory (evaluate_to_device: a rows x dim array
// for DLPack): bytes of elements per second, for the memset ratio.
void BM_GpuEmbeddingsToDevice(benchmark::State& st) {
  guarded(st, [&] {
    if (!gpu_or_skip(st)) return;
    const BatchEvaluator batch = embeddings_on_gpu();
    batch.evaluate_to_device(0, kEmbeddingRows);  // warm-up: buffers, streams, the module
    uint64_t first = kEmbeddingRows;
    for (auto _ : st) {
      benchmark::DoNotOptimize(batch.evaluate_to_device(first, kEmbeddingRows));
      first += kEmbeddingRows;
    }
    st.SetItemsProcessed((int64_t)(st.iterations() * kEmbeddingRows));
    st.SetBytesProcessed((int64_t)(st.iterations() * kEmbeddingRows * 768 * 4));
  });
}
BENCHMARK(BM_GpuEmbeddingsToDevice)->UseRealTime()->Unit(benchmark::kMillisecond);

// A program no cache has seen: PTX generation, the driver's linker, module
// load (a fresh cache directory each iteration).
void BM_GpuCompile_NewProgramCold(benchmark::State& st) {
  guarded(st, [&] {
    if (!gpu_or_skip(st)) return;
    const std::string dir = std::filesystem::temp_directory_path() / "polyrt-bench-gpu-cold";
    auto program = compile_file(kStressFile);
    BatchOptions options;
    options.device = BatchDevice::Gpu;
    options.coordinates = {0, 0};
    int round = 0;
    for (auto _ : st) {
      st.PauseTiming();
      const std::string fresh = dir + "/" + std::to_string(round++);
      ::setenv("POLYRT_CACHE_DIR", fresh.c_str(), 1);
      // New kernel code (mod's literal divisor is compiled in): no cache,
      // in memory or on disk, has seen it.
      const std::string source =
          "input cycle\ninput region\nh := hash(cycle + region)\n"
          "w := unit_interval(hash(h))\nn := dist_normal(w, 100.0, 15.0)\n"
          "checked := in_range(mod(h, " +
          std::to_string(1000 + round) + "), 0, 996)\n";
      auto fresh_program = compile(source);
      st.ResumeTiming();
      benchmark::DoNotOptimize(BatchEvaluator(fresh_program, options).device_name());
    }
    ::unsetenv("POLYRT_CACHE_DIR");
    std::filesystem::remove_all(dir);
  });
}
BENCHMARK(BM_GpuCompile_NewProgramCold)->UseRealTime()->Unit(benchmark::kMillisecond);

// The same program again: PTX from the memory cache, the cubin from disk.
void BM_GpuCompile_Cached(benchmark::State& st) {
  guarded(st, [&] {
    if (!gpu_or_skip(st)) return;
    auto program = compile_file(kStressFile);
    BatchOptions options;
    options.device = BatchDevice::Gpu;
    options.coordinates = {0, 0};
    BatchEvaluator(program, options);
    for (auto _ : st) benchmark::DoNotOptimize(BatchEvaluator(program, options).device_name());
  });
}
BENCHMARK(BM_GpuCompile_Cached)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace polyrt::bench
