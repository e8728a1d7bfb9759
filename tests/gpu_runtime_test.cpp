// The GPU tier end to end: the driver loader, the GPU batch back end through
// the public batch API, injected driver faults and `polyrt run --device`. In
// CI the driver is the test double (POLYRT_LIBCUDA, tests/cuda_double); on a
// machine with a GPU the same tests run against the real driver (the fault
// tests need the double and skip there). Without any driver they skip.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "gpu_backend/driver/cuda_driver.hpp"
#include "gpu_backend/driver/device_resources.hpp"
#include "polyrt/batch.hpp"
#include "tests/test_support.hpp"

namespace polyrt {
namespace {

#define REQUIRE_GPU()          \
  if (!gpu::CudaDriver::get()) \
  GTEST_SKIP() << "no usable GPU: " << gpu::CudaDriver::unavailable_reason()

std::string source_file(const char* path) {
  return std::string(POLYRT_SOURCE_DIR) + "/" + path;
}

BatchOptions on(BatchDevice device, BatchOptions options = {}) {
  options.device = device;
  return options;
}

// What the double counted since its last configuration ("contexts",
// "memsets", "launches"); -1 on a real driver.
int64_t double_count(const char* what) {
  using Count = int64_t (*)(const char*);
  const gpu::CudaDriver* driver = gpu::CudaDriver::get();
  const auto count =
      driver ? reinterpret_cast<Count>(::dlsym(driver->library(), "polyrtCudaDoubleCount"))
             : nullptr;
  return count ? count(what) : -1;
}

// The double's fault switch (polyrtCudaDoubleConfigure); null on a real
// driver, and on the double presenting itself as one (POLYRT_CUDA_DOUBLE=
// as_real, the device check's rehearsal): what needs the double skips there.
using Configure = int (*)(const char*);
Configure double_configure() {
  if (double_count("launches") < 0) return nullptr;
  return reinterpret_cast<Configure>(
      ::dlsym(gpu::CudaDriver::get()->library(), "polyrtCudaDoubleConfigure"));
}

#define REQUIRE_DOUBLE() \
  if (!double_configure()) GTEST_SKIP() << "needs the driver's test double (faults, its identity)"

void expect_same_columns(const std::vector<Column>& a, const std::vector<Column>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t o = 0; o < a.size(); ++o) {
    EXPECT_EQ(a[o].is_none, b[o].is_none) << a[o].name;
    EXPECT_EQ(a[o].words, b[o].words) << a[o].name;
    EXPECT_EQ(a[o].offsets, b[o].offsets) << a[o].name;
    EXPECT_EQ(a[o].bytes, b[o].bytes) << a[o].name;
  }
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CudaDriver, NamesTheCodesAStubCannotName) {
  test::expect_contains(gpu::describe_cuda_error(34), {"CUDA_ERROR_STUB_LIBRARY (34)", "stub"});
  test::expect_contains(gpu::describe_cuda_error(2), {"CUDA_ERROR_OUT_OF_MEMORY (2)"});
  test::expect_contains(gpu::describe_cuda_error(12345), {"(12345)", "not a code polyrt knows"});
}

TEST(GpuBatch, SuperChunksMatchTheCpuTierUpToTheLastCoordinate) {
  REQUIRE_GPU();
  const auto ladder = compile_file(source_file("examples/ladder.polydat"));
  BatchOptions options;
  options.coordinates = {0, 11, 22};
  const BatchEvaluator gpu(ladder, on(BatchDevice::Gpu, options));
  const BatchEvaluator cpu(ladder, on(BatchDevice::Cpu, options));
  EXPECT_NE(gpu.device_name().find("gpu 0"), std::string::npos) << gpu.device_name();
  for (const uint64_t first : {uint64_t{0}, ~uint64_t{0} - 300000 + 1}) {
    expect_same_columns(gpu.evaluate(first, 300000), cpu.evaluate(first, 300000));
  }
}

TEST(GpuBatch, ChunkBoundariesThreadsAndCallerArraysMatchTheCpuTier) {
  REQUIRE_GPU();
  const auto ladder = compile_file(source_file("examples/ladder.polydat"));
  BatchOptions options;
  options.outputs = {"shard", "event_token", "account_id"};
  options.coordinates = {0, 5, 0};
  options.column_coordinates = {2};
  options.chunk_rows = 1001;
  options.threads = 2;
  const uint64_t count = 20011;
  std::vector<uint64_t> seeds(count);
  for (uint64_t r = 0; r < count; ++r) seeds[r] = r * 7919;
  const uint64_t* columns[] = {seeds.data()};
  const BatchEvaluator gpu(ladder, on(BatchDevice::Gpu, options));
  const BatchEvaluator cpu(ladder, on(BatchDevice::Cpu, options));
  expect_same_columns(gpu.evaluate(1ull << 32, count, columns),
                      cpu.evaluate(1ull << 32, count, columns));
  std::vector<std::vector<uint64_t>> a(3, std::vector<uint64_t>(count)), b = a;
  uint64_t* into_a[] = {a[0].data(), a[1].data(), a[2].data()};
  uint64_t* into_b[] = {b[0].data(), b[1].data(), b[2].data()};
  gpu.evaluate_into(7, count, into_a, columns);
  cpu.evaluate_into(7, count, into_b, columns);
  EXPECT_EQ(a, b);
}

TEST(GpuBatch, HostStepsBetweenKernelsMatchTheCpuTier) {
  REQUIRE_GPU();
  const auto users = compile_file(source_file("examples/users.polydat"));
  const BatchEvaluator gpu(users, on(BatchDevice::Gpu));
  const BatchEvaluator cpu(users, on(BatchDevice::Cpu));
  expect_same_columns(gpu.evaluate(0, 50000), cpu.evaluate(0, 50000));
}

// The exact-tail samplers (their rejection loops, Zipf's alias table and
// shared uniform stream), the per-locale lists (a hashed alias pick and a gather) and the
// test-data identifiers (host steps between kernels) give the CPU tier's
// bytes on the GPU, with a --seed too.
TEST(GpuBatch, SamplersLocaleListsAndIdentifiersMatchTheCpuTier) {
  REQUIRE_GPU();
  const char* source =
      "input cycle\nprivate x := hash(cycle)\n"
      "g := sample_gamma(x, 0.4, 2.0)\nb := sample_beta(x + 1, 0.5, 3.0)\n"
      "p := sample_poisson(x + 2, 37.5)\nk := sample_binomial(x + 3, 1000, 0.3)\n"
      "z := sample_zipf(x + 4, 100000, 1.1)\nzr := sample_zipf(x + 5, 1000000, 1.1)\n"
      "n := sample_normal(unit_interval(x), 0.0, 1.0)\ne := sample_exponential(unit_interval(x + "
      "6), 2.0)\nw := sample_weibull(unit_interval(x + 7), 1.5, 2.0)\n"
      "first := given_names(cycle, \"de_DE\")\nlast := last_names(cycle, \"zh_CN\")\n"
      "city := city_names(cycle, \"pt_BR\")\nphone := phone_numbers(cycle, \"en_GB\")\n"
      "card := card_numbers(cycle, \"visa\")\naddress := street_addresses(cycle, \"it_IT\")\n"
      "romaji := given_names(cycle, \"ja_JP\", \"ascii\")\nfirm := company_names(cycle, "
      "\"de_DE\")\n(pl, pc, pn) := people(x, \"all\")\n";
  for (const std::optional<uint64_t> seed :
       {std::optional<uint64_t>{}, std::optional<uint64_t>{7}}) {
    const auto program = compile(source, CompileOptions{.seed = seed});
    expect_same_columns(BatchEvaluator(program, on(BatchDevice::Gpu)).evaluate(0, 20000),
                        BatchEvaluator(program, on(BatchDevice::Cpu)).evaluate(0, 20000));
  }
}

// String nodes with a GPU form are written by the kernels into fixed slots
// per row and unpacked on the host: the same bytes as the CPU tier across
// chunk boundaries, up to the last coordinate, for empty and non-ASCII
// entries, every radix and width, and every kind of concatenated piece. A
// text longer than a kernel's slot stays a host step and says so.
TEST(GpuBatch, DeviceTextMatchesTheCpuTier) {
  REQUIRE_GPU();
  const auto program = compile(
      "input x\nh := hash(x)\n"
      "pick := one_of(h, \"\", \"a\", \"été\", \"a longer entry\")\n"
      "name := first_names(h) + \" \" + country_names(h + 1)\n"
      "radixes := format_u64(h, 2) + format_u64(h, 8) + format_u64(h) + format_u64(h, 16)\n"
      "padded := zero_pad_u64(h % 1000, 0) + \"|\" + zero_pad_u64(h, 7) + \"|\" + "
      "zero_pad_u64(x, 25)\n"
      "pieces := \"<\" + pick + \">\" + (h % 2 == 0) + (0 - (h % 5) as i64) + x\n"
      "long := zero_pad_u64(x, 4000) + zero_pad_u64(x, 4000)\n"
      "big := (unit_interval(h) - 0.5) * 1e300\n"
      "tiny := (unit_interval(h) - 0.5) * 1e-310\n"
      "normal := dist_normal(unit_interval(h), 0.0, 1000.0)\n"
      "infinite := (unit_interval(h) - 0.5) / 0.0\n"
      "floats := \"[\" + big + \"|\" + tiny + \"|\" + normal + \"|\" + infinite + \"|\" + "
      "(infinite * 0.0) + \"|\" + (normal * -0.0) + \"|\" + (h % 1000) as f64 + \"]\"\n"
      "debug := printf(\"{}|{:30}|{}|{}|{}|{:08}\", big, tiny, normal, infinite, infinite * 0.0, "
      "(h % 1000) as f64)\n"
      "fixed := printf(\"{:.2}|{:.0}|{:.20}|{:012.3}|{:.9}\", normal, big, tiny, narrow, "
      "infinite) + format_f64(big, 3) + format_f64(normal * 1e-9, 20)\n"
      "wide := format_f64(normal, 21)\n"
      "narrow := (normal * 1e-30) as f32\nshown := normal as str\nplain := h as str\n"
      "negative := (0 - (h % 5) as i64) as str\nflag := (h % 2 == 0) as str\n"
      "narrows := \"<\" + narrow + \">\" + printf(\"{}|{:12}\", narrow, (h % 100) as f32)\n");
  const BatchEvaluator gpu_batch(program, on(BatchDevice::Gpu));
  const std::string plan = gpu_batch.describe();
  EXPECT_EQ(plan.find("host, on a CPU worker [zero_pad_u64"), std::string::npos) << plan;
  EXPECT_NE(plan.find("[str_concat -> long]: its text may take 8000 bytes, more than the 4096"),
            std::string::npos)
      << plan;
  EXPECT_NE(plan.find("str_concat -> floats"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("host, on a CPU worker [str_concat -> floats"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("host, on a CPU worker [printf -> debug"), std::string::npos) << plan;
  // Fixed decimals: 128-bit products and exact limbs (big values, 20
  // decimals), f32s, widths; past 20 decimals a host step says why.
  EXPECT_EQ(plan.find("host, on a CPU worker [printf -> fixed"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("host, on a CPU worker [format_f64 -> fixed"), std::string::npos) << plan;
  EXPECT_NE(plan.find("[format_f64 -> wide]: 21 fixed decimals are more than the 20 a GPU "
                      "kernel writes"),
            std::string::npos)
      << plan;
  EXPECT_EQ(plan.find("host, on a CPU worker [str_concat -> narrows"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("host, on a CPU worker [__to_str"), std::string::npos) << plan;
  for (const uint64_t first : {uint64_t{0}, ~uint64_t{0} - 4999}) {
    for (const uint64_t chunk_rows : {uint64_t{0}, uint64_t{777}}) {
      BatchOptions options;
      options.chunk_rows = chunk_rows;
      const BatchEvaluator gpu(program, on(BatchDevice::Gpu, options));
      const BatchEvaluator cpu(program, on(BatchDevice::Cpu, options));
      expect_same_columns(gpu.evaluate(first, 5000), cpu.evaluate(first, 5000));
    }
  }
}

// A tile's text (expand/tiles.hpp) is written by the kernel: its printf with
// the escapes its holes' encoders folded into (JSON strings, their insides,
// CSV fields) and formats, the same bytes as the CPU tier's; a format
// printf has not (left alignment) keeps its encoder, a host step.
TEST(GpuBatch, TilesAreWrittenOnTheDevice) {
  REQUIRE_GPU();
  const auto program = compile(R"p(input x
h := hash(x)
name := one_of(h, "ann", "b\"q\\", "c,d", "", "été") + url_decode("%0A%08%01")
score := unit_interval(h) * 100.0
hot := u64_gt(h % 3, 1)
tile doc : json := {"id": ${h % 1000}, "name": ${name}, "in": "n-${name}", "s": ${score}, "hot": ${hot: bool}, "k": [@for k in 0..2 { ${k + x} }]}
tile row : csv := "${x},${name},${score | .2},${x | X},${h | 025}"
tile left := "[${x | <8}]"
tile line := "${x} ${name!} @if hot {hot} @else {cold}"
)p");
  const BatchEvaluator gpu_batch(program, on(BatchDevice::Gpu));
  const std::string plan = gpu_batch.describe();
  EXPECT_EQ(plan.find("host, on a CPU worker [printf -> doc"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("host, on a CPU worker [printf -> line"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("host, on a CPU worker [printf -> row"), std::string::npos) << plan;
  EXPECT_NE(plan.find("host, on a CPU worker [__tile_encode -> left"), std::string::npos) << plan;
  const BatchEvaluator gpu(program, on(BatchDevice::Gpu));
  const BatchEvaluator cpu(program, on(BatchDevice::Cpu));
  expect_same_columns(gpu.evaluate(0, 5000), cpu.evaluate(0, 5000));
}

// Vectors are host steps beside GPU kernels (a hash feeds one, its reduction
// feeds another kernel), with the CPU tier's columns.
TEST(GpuBatch, VectorsAreMadeAndReducedOnTheDevice) {
  REQUIRE_GPU();
  const auto program = compile(
      "input x\nh := hash(x)\na := hash_vec(h, 16)\nb := xxhash3_vec(x, 16)\n"
      "d := vec_dot(a, vec_norm(vec_add(a, b)))\nl := vec_l2(a, b)\nc := vec_cosine(b, a)\n"
      "m := lid_mle(vec_norm(b), to_f64(h % 20))\n"
      "score := d * 2.0 + to_f64(h % 7)\nlabel := printf(\"{}:{}\", a, score)\n"
      "big := vec_scale(hash_vec(x, 1536), 0.5)\n");
  const BatchEvaluator gpu(program, on(BatchDevice::Gpu));
  const std::string plan = gpu.describe();
  // The generators of a constant dim, the element-wise nodes, lid_mle and
  // the reductions of two vectors of one fixed dimension are kernel members
  // (vectors up to 64 KiB a row); a vector's text stays a host step, and so
  // do a vector of more than the 64 KiB a kernel reserves per row and a
  // reduction whose operands differ in length (it fails there, which a
  // kernel cannot).
  test::expect_contains(
      plan, {"GPU kernel [hash -> h, hash_vec -> a, xxhash3_vec -> b, vec_add -> d__anon_0, "
             "vec_norm -> d__anon_1, vec_dot -> d, vec_l2 -> l, vec_cosine -> c",
             "lid_mle -> m", "hash_vec -> big__anon_1, vec_scale -> big",
             "encoded on the host: output 'a' is a vec_f32"});
  const BatchEvaluator cpu(program, on(BatchDevice::Cpu));
  expect_same_columns(gpu.evaluate(0, 3000), cpu.evaluate(0, 3000));
  const auto refused = compile(
      "input x\nd := vec_l2(hash_vec(x, 16), xxhash3_vec(x, 8))\nwide := hash_vec(x, 16385)\n");
  test::expect_contains(
      BatchEvaluator(refused, on(BatchDevice::Gpu)).describe(),
      {"host, on a CPU worker [vec_l2 -> d]: its inputs' dimensions differ (16 and 8)",
       "host, on a CPU worker [hash_vec -> wide]: its vector takes 65540 bytes, more than the "
       "65536"});
}

// String comparisons (== and != on str) and str_length are words a kernel
// computes from device-made and constant texts, so what depends on them
// stays on the GPU (they were host steps, and every row went to the host and
// back). str_length counts a maximal invalid UTF-8 piece as one character.
TEST(GpuBatch, StringComparisonsAreComputedInTheKernel) {
  REQUIRE_GPU();
  const auto program = compile(
      "input x\nh := hash(x)\nstatus := one_of(h % 4, \"new\", \"paid\", \"shipped\", "
      "\"shipped!\")\nshipped := status == \"shipped\"\nother := status != first_names(h)\n"
      "fee := if status == \"paid\" { 5 } else { h % 3 }\n"
      "same := str_eq(status, one_of(h % 3, \"new\", \"\", \"shipped\"))\n"
      "n := str_length(first_names(h) + one_of(h % 3, \"\", \"\xc3\xa4pfel\", "
      "\"a\x80\x80"
      "b\xe2\x9c\"))\n");
  const BatchEvaluator gpu(program, on(BatchDevice::Gpu));
  const std::string plan = gpu.describe();
  test::expect_contains(
      plan, {"str_eq -> shipped", "str_ne -> other", "str_eq -> same", "str_length -> n",
             "text rows (csv, tsv, jsonl): encoded on the GPU"});
  EXPECT_EQ(plan.find("host, on a CPU worker"), std::string::npos) << plan;
  const BatchEvaluator cpu(program, on(BatchDevice::Cpu));
  expect_same_columns(gpu.evaluate(0, 5000), cpu.evaluate(0, 5000));
}

// A data file's rows are a table the kernel picks from and writes.
TEST(GpuBatch, DataFileRowsArePickedOnTheDevice) {
  REQUIRE_GPU();
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/c.csv")
      << "name,city\nann,\"paris, fr\"\nbo,london\ncy,\"say \"\"hi\"\"\"\n";
  const auto program = compile("input x\nn := csv_field(hash(x), \"" + dir +
                               "/c.csv\", \"name\")\nr := csv_row(x, \"" + dir + "/c.csv\")\n");
  const BatchEvaluator gpu(program, on(BatchDevice::Gpu));
  const std::string plan = gpu.describe();
  EXPECT_EQ(plan.find("host, on a CPU worker"), std::string::npos) << plan;
  const BatchEvaluator cpu(program, on(BatchDevice::Cpu));
  expect_same_columns(gpu.evaluate(0, 3000), cpu.evaluate(0, 3000));
}

// A GPU's chunks are hundreds of thousands of rows: their host steps and
// their encoding run in parts on every core, and give the CPU tier's
// columns, bytes and first failure (a host step failing in a later part).
TEST(GpuBatch, LargeChunksRunHostStepsAndEncodingInPartsAlike) {
  REQUIRE_GPU();
  const auto program = compile(
      "input x\nh := hash(x)\nname := one_of(h % 3, \"ab\", \"cd\", \"ef\")\n"
      "label := printf(\"{}-{}\", name, h % 1000)\n"
      "digits := select_str(u64_eq(x, 250001), \"zz\", format_u64(h % 1000))\n"
      "n := digits as u64\n");
  // More worker threads than the GPU's 3 chunks in flight: the parts run
  // (on 2 cores they would not, and the threads are oversubscribed here).
  // The double's default 512 MiB would hold chunks of fewer rows than two
  // parts now that the picks' and labels' texts are device-made (their
  // slots and packed bytes count against the device's memory).
  const Configure configure = double_configure();
  if (configure) configure("memory_mib=4096");
  BatchOptions options;
  options.threads = 8;
  const BatchEvaluator gpu(program, on(BatchDevice::Gpu, options));
  const BatchEvaluator cpu(program, on(BatchDevice::Cpu));
  expect_same_columns(gpu.evaluate(0, 240000), cpu.evaluate(0, 240000));
  const auto encoded = [&](const BatchEvaluator& batch, uint64_t count, std::string& error) {
    std::string out;
    size_t largest = 0;
    try {
      batch.stream_encoded(
          0, count,
          [](const ColumnChunk& chunk, std::string& bytes) {
            for (uint64_t r = 0; r < chunk.rows; ++r) {
              bytes += std::to_string(chunk.first + r) + "," +
                       std::string(chunk.columns[2].text(r)) + "," +
                       std::to_string(chunk.columns[4].words[r]) + "\n";
            }
          },
          [&](const ColumnChunk& chunk, std::string& bytes) {
            largest = std::max<size_t>(largest, chunk.rows);
            out += bytes;
          });
    } catch (const EvalError& e) {
      error = e.what();
    }
    return std::make_pair(out, largest);
  };
  std::string gpu_error, cpu_error;
  const auto [on_gpu, gpu_chunk] = encoded(gpu, 240000, gpu_error);
  EXPECT_GE(gpu_chunk, 2 * (uint64_t{64} << 10)) << "chunks too small to be split";
  EXPECT_EQ(on_gpu, encoded(cpu, 240000, cpu_error).first);
  // Past row 250001 a host step fails: the same error (the rows delivered
  // before it follow each tier's chunks).
  encoded(gpu, 300000, gpu_error);
  encoded(cpu, 300000, cpu_error);
  EXPECT_NE(cpu_error.find("cannot parse \"zz\" as u64"), std::string::npos) << cpu_error;
  EXPECT_EQ(gpu_error, cpu_error);
  if (configure) configure("");
}

// stream_rows's bytes of `count` rows from `first` (the error's text in
// `error`, when it throws).
std::string text_rows(const BatchEvaluator& batch, std::string_view format, uint64_t first,
                      uint64_t count, std::string* error = nullptr) {
  std::string out;
  uint64_t next = first;
  try {
    batch.stream_rows(first, count, row_format_named(format).value(),
                      [&](uint64_t chunk_first, uint64_t rows, std::string_view bytes) {
                        EXPECT_EQ(chunk_first, next);
                        next += rows;
                        out += bytes;
                      });
  } catch (const EvalError& e) {
    if (!error) throw;
    *error = e.what();
  }
  return out;
}

// Text rows encoded on the GPU (BatchPlan::rows_on_device) are the CPU's
// bytes in every format, across chunk boundaries and up to the last
// coordinate: integers, negative ones, f64s with their special values, bools,
// quoting and escapes of device-made text, empty texts, the lane's coordinate
// and scalar fields. Only the rows' bytes cross to the host.
TEST(GpuBatch, TextRowsAreEncodedOnTheDeviceAsTheCpuWritesThem) {
  REQUIRE_GPU();
  const auto program = compile(
      "input x\nh := hash(x)\nsame := x\n"
      "text := one_of(h, \"\", \"plain\", \"a,b\", \"say \\\"hi\\\"\", \"two\\nlines\", "
      "\"tab\\there\", \"back\\\\slash\", \"été ✓\", \"cr\r\", \"\x01\x1f\x7f\", \"bad \xff\xfe "
      "utf-8\")\n"
      "label := printf(\"{}|{}\", text, h % 100)\n"
      "signed := 0 - (h % 5000) as i64\n"
      "ratio := (unit_interval(h) - 0.5) * 1e300\n"
      "special := 1e308 * ((h % 3) as f64 * 10.0 - 10.0)\nnan := special - special\n"
      "zero := -0.0 * (h % 2) as f64\n"
      "narrow := (unit_interval(h) * 1e6) as f32\nflag := h % 2 == 0\nconstant := \"fixed, "
      "\\\"quoted\\\"\"\nseven := 7\n");
  const BatchEvaluator gpu(program, on(BatchDevice::Gpu));
  EXPECT_NE(gpu.describe().find("text rows (csv, tsv, jsonl): encoded on the GPU"),
            std::string::npos)
      << gpu.describe();
  const BatchEvaluator cpu(program, on(BatchDevice::Cpu));
  const Configure configure = double_configure();
  for (const char* format : {"csv", "tsv", "jsonl"}) {
    for (const uint64_t first : {uint64_t{0}, ~uint64_t{0} - 2999}) {
      if (configure) configure("");
      const std::string on_gpu = text_rows(gpu, format, first, 3000);
      const int64_t copied = double_count("bytes_to_host");
      const std::string on_cpu = text_rows(cpu, format, first, 3000);
      EXPECT_GT(on_cpu.size(), 3000u * 60);
      EXPECT_EQ(on_gpu, on_cpu) << format;
      if (format == std::string_view("jsonl")) {
        EXPECT_NE(on_cpu.find(R"("bad \udcff\udcfe utf-8|)"), std::string::npos);
        EXPECT_NE(on_cpu.find(R"("special":"-inf","nan":"NaN","zero":-0,)"), std::string::npos);
        EXPECT_NE(on_cpu.find(R"("constant":"fixed, \"quoted\"")"), std::string::npos);
      }
      // The rows' bytes, a byte count per chunk and nothing else.
      if (copied >= 0) {
        EXPECT_LE(copied, (int64_t)on_cpu.size() + 64) << format;
      }
    }
  }
  BatchOptions small;
  small.chunk_rows = 777;
  const BatchEvaluator chunked(program, on(BatchDevice::Gpu, small));
  EXPECT_EQ(text_rows(chunked, "jsonl", 5, 4000), text_rows(cpu, "jsonl", 5, 4000));
}

// JSON objects (json_with and json_object of them) and arrays, digests,
// hex, base64 and base32 are written by the kernel: every member type and
// escape, bytes as base64, NaN and infinities as null, bytes and json
// outputs in every row format; the same bytes as the CPU tier's. A json
// member that is itself json stays a host step.
TEST(GpuBatch, JsonObjectsAndDigestsAreWrittenOnTheDevice) {
  REQUIRE_GPU();
  const auto program = compile(
      "input x\nh := hash(x)\n"
      "text := one_of(h, \"\", \"a,b\", \"say \\\"hi\\\"\", \"two\\nlines\", \"été ✓\", "
      "\"\x01\x1f\", \"bad \xff utf-8\")\n"
      "big := 1e308 * ((h % 3) as f64 * 10.0 - 10.0)\n"
      "inner := json_object(json_with(\"s\", text), json_with(\"n\", 0 - (h % 500) as i64))\n"
      "doc := json_object(inner, json_with(\"f\", big - big), json_with(\"g\", big), "
      "json_with(\"tiny\", unit_interval(h) * 1e-6), json_with(\"w\", (h % 1000) as f32 / "
      "7.0), json_with(\"b\", h % 2 == 0), json_with(\"s\", text + \"!\"))\n"
      "one := json_with(\"k\\\"é\", h % 10)\n"
      "digest := sha256(doc as str as bytes)\nsum := md5(text as bytes)\n"
      "hex := to_hex(digest)\n"
      "items := json_array(text, 0 - (h % 9) as i64, big, h % 2 == 0, sum)\n"
      "encoded := to_base64(sum) + \"|\" + to_base32(text as bytes)\n"
      "keyed := json_with(\"d\", digest)\n");
  const BatchEvaluator gpu(program, on(BatchDevice::Gpu));
  const std::string plan = gpu.describe();
  EXPECT_EQ(plan.find("host, on a CPU worker"), std::string::npos) << plan;
  EXPECT_NE(plan.find("text rows (csv, tsv, jsonl): encoded on the GPU"), std::string::npos);
  const BatchEvaluator cpu(program, on(BatchDevice::Cpu));
  for (const char* format : {"csv", "tsv", "jsonl"}) {
    const std::string on_cpu = text_rows(cpu, format, ~uint64_t{0} - 2999, 3000);
    EXPECT_EQ(text_rows(gpu, format, ~uint64_t{0} - 2999, 3000), on_cpu) << format;
    if (format == std::string_view("jsonl")) {
      EXPECT_NE(on_cpu.find(R"(,"f":null,"g":null,)"), std::string::npos);
      EXPECT_NE(on_cpu.find(R"("s":"bad \udcff utf-8!","tiny":)"), std::string::npos);
    }
  }
  const auto nested = compile(
      "input x\nj := to_json(x)\nwrapped := json_with(\"j\", j)\n"
      "copy := json_object(wrapped, json_with(\"k\", x))\n");
  const std::string refused = BatchEvaluator(nested, on(BatchDevice::Gpu)).describe();
  EXPECT_NE(refused.find("a JSON member of a json is not written on the GPU"), std::string::npos)
      << refused;
}

// A failing row's error is the CPU tier's, after the same rows, when the
// rows are encoded on the GPU; an output made by a host step keeps the rows
// on the host.
TEST(GpuBatch, TextRowsOnTheDeviceFailAndFallBackAsTheCpuDoes) {
  REQUIRE_GPU();
  const auto stress = compile_file(source_file("tests/data/gpu_stress.polydat"));
  BatchOptions options;
  options.chunk_rows = 997;
  options.coordinates = {0, 3};
  const BatchEvaluator gpu(stress, on(BatchDevice::Gpu, options));
  EXPECT_NE(gpu.describe().find("encoded on the GPU"), std::string::npos);
  std::string on_gpu, on_cpu;
  EXPECT_EQ(
      text_rows(gpu, "csv", 100, 5000, &on_gpu),
      text_rows(BatchEvaluator(stress, on(BatchDevice::Cpu, options)), "csv", 100, 5000, &on_cpu));
  EXPECT_FALSE(on_cpu.empty());
  EXPECT_EQ(on_gpu, on_cpu);
  const auto hosted = compile("input x\nh := hash(x)\nn := h % 9\ns := str_upper(h as str)\n");
  const BatchEvaluator hosted_gpu(hosted, on(BatchDevice::Gpu));
  EXPECT_NE(hosted_gpu.describe().find("encoded on the host: output 's' is made by a host step"),
            std::string::npos)
      << hosted_gpu.describe();
  EXPECT_EQ(text_rows(hosted_gpu, "tsv", 0, 3000),
            text_rows(BatchEvaluator(hosted, on(BatchDevice::Cpu)), "tsv", 0, 3000));
}

// The smallest failing coordinate's EvalError, after every earlier row.
TEST(GpuBatch, FailuresAreTheCpuTiersError) {
  REQUIRE_GPU();
  const auto stress = compile_file(source_file("tests/data/gpu_stress.polydat"));
  auto run = [&](BatchDevice device, std::string& error) {
    BatchOptions options;
    options.chunk_rows = 997;
    options.coordinates = {0, 3};
    uint64_t rows = 0;
    try {
      BatchEvaluator(stress, on(device, options)).stream(100, 5000, [&](const ColumnChunk& chunk) {
        rows += chunk.rows;
      });
    } catch (const EvalError& e) {
      error = e.what();
    }
    return rows;
  };
  std::string on_gpu, on_cpu;
  EXPECT_EQ(run(BatchDevice::Gpu, on_gpu), run(BatchDevice::Cpu, on_cpu));
  EXPECT_FALSE(on_cpu.empty());
  EXPECT_EQ(on_gpu, on_cpu);
}

TEST(GpuBatch, AutoPicksTheGpuAndTheCpuNeedsNoDriver) {
  REQUIRE_GPU();
  const auto ladder = compile_file(source_file("examples/ladder.polydat"));
  EXPECT_NE(BatchEvaluator(ladder, on(BatchDevice::Auto)).device_name().find("gpu 0"),
            std::string::npos);
  EXPECT_EQ(BatchEvaluator(ladder, on(BatchDevice::Cpu)).device_name(), "cpu");
  BatchOptions missing = on(BatchDevice::Gpu);
  missing.device.gpu = 7;
  test::expect_contains(test::thrown_message<DeviceError>([&] { BatchEvaluator(ladder, missing); }),
                        {"no GPU 7"});
}

// Auto measures every device on a run's first rows, then leaves out the
// ones not worth their cost: here a GPU whose every launch takes 2 s. The
// rows are the CPU tier's; device-resident output still goes to the GPU.
TEST(GpuBatch, AutoLeavesOutASlowGpuAfterMeasuringIt) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "the GPU's speed is set on the driver's test double only";
  configure("kernel_us=2000000");
  const auto ladder = compile_file(source_file("examples/ladder.polydat"));
  BatchOptions options;
  options.coordinates = {0, 3, 4};
  const BatchEvaluator automatic(ladder, on(BatchDevice::Auto, options));
  EXPECT_EQ(automatic.device_choice(), "");
  const std::vector<Column> rows = automatic.evaluate(0, 3000000);
  configure("");
  expect_same_columns(rows,
                      BatchEvaluator(ladder, on(BatchDevice::Cpu, options)).evaluate(0, 3000000));
  test::expect_contains(automatic.device_choice(),
                        {"chose cpu (measured: cpu ", "left out gpu 0", "under 10 %"});
  EXPECT_EQ(automatic.evaluate_to_device(0, 1000).size(), rows.size());
}

// Columns land in the caller's device memory: kernel outputs, a host step's
// output, the lane and a scalar; the same words as the CPU tier's.
TEST(GpuBatch, DeviceResidentOutputMatchesTheCpuTier) {
  REQUIRE_GPU();
  const auto program = compile(
      "input x\nextern e: u64 = 3\nlane := x\nfixed := e * 2\nhashed := hash(x)\n"
      "picked := this_or(hashed, 7)\nscore := unit_interval(hashed)\n");
  BatchOptions options = on(BatchDevice::Gpu);
  options.chunk_rows = 777;
  const BatchEvaluator gpu(program, options);
  const std::vector<Column> want = BatchEvaluator(program, on(BatchDevice::Cpu)).evaluate(9, 5000);
  const gpu::GpuContext context(*gpu::CudaDriver::get(), 0);
  const gpu::CurrentContext current = context.make_current();
  std::vector<gpu::DeviceBuffer> device;
  std::vector<uint64_t> addresses;
  for (size_t o = 0; o < want.size(); ++o) {
    device.emplace_back(context, 5000 * 8);
    addresses.push_back(device.back().address());
  }
  gpu.evaluate_on_device(9, 5000, addresses);
  const gpu::GpuStream stream(context);
  const gpu::PinnedBuffer host(context, 5000 * 8);
  for (size_t o = 0; o < want.size(); ++o) {
    context.check(context.driver().api().cuMemcpyDtoHAsync(host.words(), addresses[o], 5000 * 8,
                                                           stream.handle()),
                  "cuMemcpyDtoHAsync");
    stream.synchronize();
    EXPECT_EQ(std::vector<uint64_t>(host.words(), host.words() + 5000), want[o].words)
        << want[o].name;
  }
  test::expect_contains(
      test::thrown_message<WriteError>([&] {
        BatchEvaluator(program, on(BatchDevice::Cpu)).evaluate_on_device(0, 10, addresses);
      }),
      {"device-resident output needs a batch on a GPU", "runs on cpu"});
  // Kernel outputs are written into the caller's columns directly: with only
  // kernel-made outputs, no device-to-device copy at all.
  if (double_configure()) {
    const auto kernels_only = compile("input x\nh := hash(x)\nscore := unit_interval(h)\n");
    const BatchEvaluator direct(kernels_only, options);
    double_configure()("");
    direct.evaluate_on_device(9, 5000, std::span(addresses).first(2));
    EXPECT_EQ(double_count("device_copies"), 0);
    EXPECT_GT(double_count("launches"), 0);
  }
  test::expect_contains(test::thrown_message<WriteError>([&] {
                          const std::vector<uint64_t> odd = {addresses[0] + 4, addresses[1]};
                          BatchEvaluator(compile("input x\nh := hash(x)\ns := x\n"), options)
                              .evaluate_on_device(0, 10, odd);
                        }),
                        {"device column of output 'h'", "not a multiple of 8"});
}

// evaluate_to_device allocates the columns itself: the same words as the CPU
// tier's, address 0 for a None output, the memory alive as long as a copy of
// the column is.
TEST(GpuBatch, OwnedDeviceColumnsMatchTheCpuTier) {
  REQUIRE_GPU();
  const auto program = compile(
      "input x\nextern unset: u64\nhashed := hash(x)\n"
      "score := unit_interval(hashed)\nnothing := unset + 1\n");
  const BatchEvaluator gpu(program, on(BatchDevice::Gpu));
  const std::vector<Column> want = BatchEvaluator(program, on(BatchDevice::Cpu)).evaluate(3, 4000);
  std::vector<DeviceColumn> got = gpu.evaluate_to_device(3, 4000);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[2].address, 0u);
  EXPECT_EQ(got[2].memory, nullptr);
  const std::vector<DeviceColumn> kept = {got[0], got[1]};
  got.clear();  // the copies keep the memory
  const gpu::GpuContext context(*gpu::CudaDriver::get(), 0);
  const gpu::CurrentContext current = context.make_current();
  const gpu::GpuStream stream(context);
  const gpu::PinnedBuffer host(context, 4000 * 8);
  for (size_t o = 0; o < kept.size(); ++o) {
    EXPECT_EQ(kept[o].name, want[o].name);
    EXPECT_EQ(kept[o].rows, 4000u);
    EXPECT_EQ(kept[o].device, 0);
    EXPECT_EQ(kept[o].kind, DeviceKind::Gpu);
    context.check(context.driver().api().cuMemcpyDtoHAsync(host.words(), kept[o].address, 4000 * 8,
                                                           stream.handle()),
                  "cuMemcpyDtoHAsync");
    stream.synchronize();
    EXPECT_EQ(std::vector<uint64_t>(host.words(), host.words() + 4000), want[o].words);
  }
  test::expect_contains(test::thrown_message<WriteError>([&] {
                          BatchEvaluator(program, on(BatchDevice::Cpu)).evaluate_to_device(0, 10);
                        }),
                        {"allocates on the batch's GPU", "runs on cpu"});
  // Sizes are checked before anything is allocated: a wrapped one would be
  // written far past its end.
  test::expect_contains(
      test::thrown_message<WriteError>([&] { gpu.evaluate_to_device(0, (uint64_t{1} << 61) + 1); }),
      {"evaluate_to_device(0, 2305843009213693953)", "more than 2**64 bytes"});
  test::expect_contains(
      test::thrown_message<WriteError>([&] { gpu.evaluate_to_device(UINT64_MAX - 1, 10); }),
      {"pass the last coordinate 2**64 - 1"});
}

// Text outputs in device memory, in Arrow's large layout, chunk after
// chunk: device-made texts compacted on the device (only their byte counts
// cross to the host), a host step's text, a constant and a None; the same
// offsets and bytes as the CPU tier across chunk boundaries, up to the last
// coordinate, and for rows longer than 64 KiB.
// The text kernels run a thread per segment of rows: 32 rows where a chunk
// has that many for every thread the device holds, fewer in a smaller one,
// so that a small chunk's row encoding fills the SMs: 20,000 rows in
// segments of 32 were 625 threads in 3 blocks; in segments of 3 they fill
// the grid's cap on the double (4 SMs x 4 blocks of 256 threads at its 64
// registers). The bytes are the CPU tier's.
TEST(GpuBatch, TextKernelsGiveEverySmSegmentsInASmallChunk) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "launched blocks are counted by the driver's test double";
  const auto program = compile("input x\nh := hash(x)\nname := first_names(h)\nn := h % 1000\n");
  BatchOptions options = on(BatchDevice::Gpu);
  options.chunk_rows = 20000;
  const BatchEvaluator gpu(program, options);
  configure("");
  const std::string on_gpu = text_rows(gpu, "csv", 5, 20000);
  EXPECT_EQ(double_count("blocks:polyrt_rows_write"), 16);
  EXPECT_EQ(double_count("blocks:polyrt_rows_segment_bytes"), 16);
  EXPECT_EQ(on_gpu, text_rows(BatchEvaluator(program, on(BatchDevice::Cpu)), "csv", 5, 20000));
}

// A device-resident column comes back through two page-locked pieces of
// 8 MiB in turn, never by pinning the whole column (gigabytes, and the
// page-locking's seconds, for a large one).
TEST(GpuBatch, ToHostStagesThroughBoundedPinnedMemory) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "pinned bytes are counted by the driver's test double";
  const auto program = compile("input x\nh := hash(x)\n");
  const BatchEvaluator gpu(program, on(BatchDevice::Gpu));
  const uint64_t rows = 5'000'000;  // 40 MB: five pieces
  const std::vector<DeviceColumn> on_device = gpu.evaluate_to_device(11, rows);
  configure("");
  const Column back = gpu.to_host(on_device[0]);
  EXPECT_LE(double_count("pinned_bytes"), int64_t{16} << 20);
  EXPECT_EQ(back.words, BatchEvaluator(program, on(BatchDevice::Cpu)).evaluate(11, rows)[0].words);
}

// Vector outputs in device memory, in Arrow's large layout as texts are: a
// fixed dimension's bytes are a dense rows x dim f32 array (made on the
// device, or a host step's copied up: `wide` is past the 64 KiB a kernel
// reserves per row), the CPU tier's bytes across chunks.
TEST(GpuBatch, VectorColumnsInDeviceMemoryMatchTheCpuTier) {
  REQUIRE_GPU();
  const auto program = compile(
      "input x\nembedding := vec_norm(hash_vec(x, 48))\nwide := hash_vec(x, 16400)\n"
      "tags := str_to_vec_i32(printf(\"[{}, {}]\", x % 7, x % 5))\n");
  BatchOptions options = on(BatchDevice::Gpu);
  options.chunk_rows = 777;
  const BatchEvaluator gpu(program, options);
  EXPECT_NE(gpu.describe().find("host, on a CPU worker [hash_vec -> wide]"), std::string::npos)
      << gpu.describe();
  const std::vector<Column> want = BatchEvaluator(program, on(BatchDevice::Cpu)).evaluate(5, 1600);
  const std::vector<DeviceColumn> got = gpu.evaluate_to_device(5, 1600);
  ASSERT_EQ(got.size(), 3u);
  for (size_t o = 0; o < got.size(); ++o) {
    const Column back = gpu.to_host(got[o]);
    EXPECT_EQ(back.offsets, want[o].offsets) << want[o].name;
    EXPECT_EQ(back.bytes, want[o].bytes) << want[o].name;
    EXPECT_EQ(got[o].text_bytes, want[o].bytes.size()) << want[o].name;
  }
  EXPECT_EQ(got[0].text_bytes, 1600u * 48 * 4);  // dense: rows x dim f32
}

TEST(GpuBatch, TextColumnsInDeviceMemoryMatchTheCpuTier) {
  REQUIRE_GPU();
  const auto program = compile(
      "input x\nextern unset: str\nh := hash(x)\n"
      "pick := one_of(h, \"\", \"a\", \"été\", \"a longer entry\")\n"
      "email := str_lower(first_names(h)) + \"@\" + format_u64(h % 1000) + \".example\"\n"
      "hosted := zero_pad_u64(x, 4000) + zero_pad_u64(h, 4000)\n"
      "constant := \"the same\"\nnothing := unset + \"!\"\nscore := unit_interval(h)\n");
  BatchOptions options = on(BatchDevice::Gpu);
  options.chunk_rows = 777;
  const BatchEvaluator gpu(program, options);
  EXPECT_NE(gpu.describe().find("[str_concat -> hosted]"), std::string::npos) << gpu.describe();
  const BatchEvaluator cpu(program, on(BatchDevice::Cpu));
  for (const auto& [first, count] :
       {std::pair<uint64_t, uint64_t>{3, 4000}, {UINT64_MAX - 1001, 1000}, {7, 1}, {9, 0}}) {
    SCOPED_TRACE(first);
    const std::vector<Column> want = cpu.evaluate(first, count);
    const std::vector<DeviceColumn> got = gpu.evaluate_to_device(first, count);
    ASSERT_EQ(got.size(), want.size());
    for (size_t o = 0; o < got.size(); ++o) {
      EXPECT_EQ(got[o].rows, count);
      const Column back = gpu.to_host(got[o]);
      if (want[o].name == "nothing") {
        EXPECT_TRUE(back.is_none);
        EXPECT_EQ(got[o].address, 0u);
        continue;
      }
      EXPECT_FALSE(back.is_none) << want[o].name;
      EXPECT_EQ(back.words, want[o].words) << want[o].name;
      EXPECT_EQ(back.offsets, want[o].offsets) << want[o].name;
      EXPECT_EQ(back.bytes, want[o].bytes) << want[o].name;
      if (is_text(got[o].type)) {
        EXPECT_EQ(got[o].text_bytes, want[o].bytes.size());
      }
    }
  }
  // Under Auto, device-resident output goes to its first GPU, texts too.
  const BatchEvaluator automatic(program, on(BatchDevice::Auto));
  const std::vector<DeviceColumn> picked = automatic.evaluate_to_device(3, 4000);
  EXPECT_EQ(automatic.to_host(picked[1]).bytes, cpu.evaluate(3, 4000)[1].bytes);
  EXPECT_EQ(picked[1].kind, DeviceKind::Gpu);
  // Rows longer than 64 KiB (a host step's) and more bytes than the first
  // chunk's extrapolation: the column grows on the device.
  const auto growing = compile(
      "input x\nh := hash(x)\np := zero_pad_u64(h, 4000)\nq := p + p + p + p\n"
      "wide := substring(q + q + q + q + q, 0, x / 600 * 17000)\n"
      "short := one_of(h, \"a\", \"b\")\nempty := substring(q, 0, x % 1)\n");
  BatchOptions wide_options = options;
  wide_options.outputs = {"wide", "short", "empty"};
  const BatchEvaluator grow(growing, wide_options);
  wide_options.device = BatchDevice::Cpu;
  const std::vector<DeviceColumn> grown = grow.evaluate_to_device(0, 3000);
  const std::vector<Column> wide_want = BatchEvaluator(growing, wide_options).evaluate(0, 3000);
  for (size_t o = 0; o < grown.size(); ++o) {
    const Column back = grow.to_host(grown[o]);
    EXPECT_EQ(back.offsets, wide_want[o].offsets) << wide_want[o].name;
    EXPECT_EQ(back.bytes, wide_want[o].bytes) << wide_want[o].name;
  }
  EXPECT_EQ(grown[2].text_bytes, 0u);  // a host step's text, empty in every chunk
  if (double_configure()) {
    // Device-made texts never cross to the host: per chunk, its byte count
    // (8 bytes), not its text.
    const auto device_made = compile("input x\nh := hash(x)\nname := first_names(h)\n");
    const BatchEvaluator direct(device_made, options);
    double_configure()("");
    const std::vector<DeviceColumn> names = direct.evaluate_to_device(0, 50000);
    EXPECT_LE(double_count("bytes_to_host"), 50000 / 777 * 8 + 8 * 2);
    const std::string want_names =
        BatchEvaluator(device_made, on(BatchDevice::Cpu)).evaluate(0, 50000)[0].bytes;
    EXPECT_EQ(direct.to_host(names[0]).bytes, want_names);
    // The device out of memory at any of the call's allocations (offsets,
    // chunk buffers, the bytes and their growth): a named DeviceError, and
    // the batch works again afterwards.
    int refused = 0;
    for (int k = 1; k <= 8; ++k) {
      double_configure()(("oom_at=" + std::to_string(k)).c_str());
      try {
        const BatchEvaluator fresh(device_made, options);
        EXPECT_EQ(fresh.to_host(fresh.evaluate_to_device(0, 50000)[0]).bytes, want_names) << k;
      } catch (const DeviceError& e) {
        test::expect_contains(e.what(), {"cuMemAlloc failed", "CUDA_ERROR_OUT_OF_MEMORY"});
        ++refused;
      }
    }
    EXPECT_GE(refused, 5);
    double_configure()("");
    EXPECT_EQ(direct.to_host(direct.evaluate_to_device(0, 50000)[0]).bytes, want_names);
  }
  DeviceColumn forged = grown[0];
  forged.rows = uint64_t{1} << 62;
  test::expect_contains(test::thrown_message<WriteError>([&] { grow.to_host(forged); }),
                        {"to_host('wide')", "more than 2**64 bytes"});
  forged.device = 3;
  test::expect_contains(test::thrown_message<WriteError>([&] { grow.to_host(forged); }),
                        {"column 'wide' is on gpu 3"});
  // Text columns' rows + 1 offsets (a batch of text outputs only): sized
  // without wrapping, refused before anything is allocated.
  test::expect_contains(
      test::thrown_message<WriteError>([&] { grow.evaluate_to_device(0, UINT64_MAX); }),
      {"evaluate_to_device(0, 18446744073709551615)", "more than 2**64 bytes"});
  test::expect_contains(test::thrown_message<WriteError>([&] {
                          const std::vector<uint64_t> addresses(7, 0);
                          gpu.evaluate_on_device(0, 10, addresses);
                        }),
                        {"output 'pick' is a str", "evaluate_to_device for text"});
}

// A process retains each primary context once and keeps it, and loads each
// program's module once: batches made and dropped in turn never pay the
// context's creation again (on a big GPU 0.1-0.3 s each) nor the module's.
TEST(GpuContexts, TwentyBatchesInTurnCreateTheContextAndLoadTheModuleOnce) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "contexts are counted by the driver's test double only";
  configure("context_ms=20");
  const char* source = "input x\nh := hash(x)\nscore := unit_interval(h ^ 0x7a3)\n";
  const std::vector<Column> want =
      BatchEvaluator(compile(source), on(BatchDevice::Cpu)).evaluate(0, 5000);
  for (int k = 0; k < 20; ++k) {
    // A program compiled afresh each time: the same kernels, the same module.
    expect_same_columns(BatchEvaluator(compile(source), on(BatchDevice::Gpu)).evaluate(0, 5000),
                        want);
  }
  EXPECT_LE(double_count("contexts"), 1);
  // Its own module, and the module of the text kernels every program shares
  // (its rows can be encoded on the device), unless an earlier test in this
  // process loaded that one.
  EXPECT_GE(double_count("modules"), 1);
  EXPECT_LE(double_count("modules"), 2);
  configure("");
}

// polyrt's calls run on threads it does not own: whatever context the
// caller had current (none, or a host application's) is current again after
// every call, its memory freed on any thread included.
TEST(GpuContexts, TheCallersCurrentContextIsLeftAsItWas) {
  REQUIRE_GPU();
  const gpu::CudaDriver& driver = *gpu::CudaDriver::get();
  const auto current = [&] {
    gpu::cuda::CUcontext c = nullptr;
    driver.check(driver.api().cuCtxGetCurrent(&c), "cuCtxGetCurrent");
    return c;
  };
  ASSERT_EQ(driver.api().cuCtxSetCurrent(nullptr), gpu::cuda::CUDA_SUCCESS);
  const auto program = compile("input x\nh := hash(x)\nscore := unit_interval(h)\n");
  {
    const BatchEvaluator gpu(program, on(BatchDevice::Gpu));
    EXPECT_EQ(current(), nullptr) << "making the batch";
    gpu.evaluate(0, 5000);
    EXPECT_EQ(current(), nullptr) << "evaluate";
    std::vector<DeviceColumn> columns = gpu.evaluate_to_device(0, 5000);
    EXPECT_EQ(current(), nullptr) << "evaluate_to_device";
    std::thread([&] { columns.clear(); }).join();  // freed on another thread
    EXPECT_EQ(current(), nullptr);
  }
  EXPECT_EQ(current(), nullptr) << "dropping the batch";
}

// A kernel with no fallible member never writes its failure word: no
// reset and no copy back per launch. A fallible one gets both.
TEST(GpuBatch, OnlyFallibleKernelsResetTheirFailureWord) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "stream operations are counted by the driver's test double";
  BatchOptions options = on(BatchDevice::Gpu);
  options.chunk_rows = 1000;
  const auto infallible = compile("input x\nh := hash(x)\nscore := unit_interval(h)\n");
  const BatchEvaluator quiet(infallible, options);
  configure("");
  quiet.evaluate(0, 10000);
  EXPECT_GT(double_count("launches"), 0);
  EXPECT_EQ(double_count("memsets"), 0);
  const auto fallible = compile("input x\nv := in_range(hash(x) % 100, 0, 99)\n");
  const BatchEvaluator checked(fallible, options);
  configure("");
  checked.evaluate(0, 10000);
  EXPECT_EQ(double_count("memsets"), double_count("launches"));
  EXPECT_EQ(BatchEvaluator(fallible, options).evaluate(0, 10000)[0].words,
            BatchEvaluator(fallible, on(BatchDevice::Cpu)).evaluate(0, 10000)[0].words);
}

// A run of host steps gets its kernel-made inputs in one batch of copies
// and one synchronize: lineitem's 2 kernels then 16 host steps cost 2
// synchronizes a chunk, not 17.
TEST(GpuBatch, ARunOfHostStepsWaitsForTheStreamOnce) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "stream operations are counted by the driver's test double";
  BatchOptions options = on(BatchDevice::Gpu);
  options.chunk_rows = 1000;
  options.threads = 1;
  // telemetry.polydat: a run of 9 host steps (JSON, digest, hex) after its kernel.
  const auto telemetry = compile_file(source_file("examples/telemetry.polydat"));
  const BatchEvaluator gpu(telemetry, options);
  configure("");
  const std::vector<Column> got = gpu.evaluate(0, 10000);  // 10 chunks
  EXPECT_LE(double_count("synchronizes"), 10 * 3);
  expect_same_columns(got, BatchEvaluator(telemetry, on(BatchDevice::Cpu)).evaluate(0, 10000));
  // lineitem.polydat has no host step: per chunk, its texts' byte counts and
  // then their bytes (the word columns' copies go with them).
  const auto lineitem = compile_file(source_file("examples/lineitem.polydat"));
  const BatchEvaluator all_on_gpu(lineitem, options);
  configure("");
  const std::vector<Column> texts = all_on_gpu.evaluate(0, 10000);
  EXPECT_LE(double_count("synchronizes"), 10 * 2 + 1);
  expect_same_columns(texts, BatchEvaluator(lineitem, on(BatchDevice::Cpu)).evaluate(0, 10000));
}

// Under --device all a GPU's chunks grow from a small first one that
// measures it, and up to 9 wait for delivery: its chunk states are made at
// full capacity and kept, so later calls allocate nothing. How many chunks
// wait at once depends on how fast they are delivered (a loaded machine, as
// under ctest -j2, holds more): the states are counted after two calls, and
// the next two must make none.
TEST(GpuBatch, ChunkStatesAreMadeAtFullCapacityAndKept) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "allocations are counted by the driver's test double";
  const auto program = compile("input x\nh := hash(x)\nscore := unit_interval(h)\n");
  // The GPU alone and one thread: how many chunks are in flight, and so how
  // many chunk states exist, must not depend on timing (under --device
  // all a loaded machine once put one more chunk in flight on a later call,
  // a new state, not a regrown one). Ranges of other lengths, a short last
  // chunk among them, reuse the states made at full capacity.
  BatchOptions options = on(BatchDevice::Gpu);
  options.threads = 1;
  const BatchEvaluator gpu(program, options);
  configure("");
  gpu.evaluate(0, 6000000);
  gpu.evaluate(0, 6000000);
  const int64_t kept = double_count("allocations");
  EXPECT_GT(kept, 0);
  gpu.evaluate(17, 1234567);
  gpu.evaluate(0, 6000000);
  EXPECT_EQ(double_count("allocations"), kept) << "later calls allocate nothing";
}

// A GPU alone delivers its chunks in order as they finish, so it holds only
// those in flight (kGpuChunksInFlight) and its 1 GiB of pinned memory is
// theirs; beside other devices it also keeps chunks finished ahead of
// delivery (kGpuChunksHeld) and budgets for them.
TEST(GpuBatch, ALoneGpuBudgetsItsMemoryForTheChunksItHolds) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "launches are counted by the driver's test double";
  const char* const memory = "memory_mib=16384";  // device memory bounds no chunk here
  configure(memory);
  const auto program =
      compile("input x\na := hash(x)\nb := hash(a)\nc := hash(b)\nd := hash(c)\ne := hash(d)\n");
  const BatchEvaluator gpu(program, on(BatchDevice::Gpu));
  const auto chunks_of = [&](uint64_t rows, int64_t launches_per_chunk) {
    configure(memory);  // counts from zero
    gpu.stream(0, rows, [](const ColumnChunk&) {});
    return double_count("launches") / launches_per_chunk;
  };
  const int64_t per_chunk = chunks_of(1000, 1);
  ASSERT_GT(per_chunk, 0);
  // Five outputs and the failure words take 48 pinned bytes a row: 1 GiB
  // over 3 chunk states is 7.4 M rows, above the 4 Mi cap (over 9 it was
  // 2.5 M rows: 4 chunks for these 8 Mi rows).
  EXPECT_EQ(chunks_of(uint64_t{8} << 20, per_chunk), 2);
}

// A run into the caller's device memory holds no output columns nor staging
// of its own, so its chunks are sized from the device's memory alone, and
// split only so that the 3 chunks a GPU runs at once overlap: 16 Mi rows of
// five outputs are 3 chunks (they were four, at the 4 Mi rows the
// page-locked budget of a run to the host allows). A later run to the host
// makes the output columns it needs again; both give the CPU tier's words.
TEST(GpuBatch, ARunIntoDeviceMemoryTakesChunksOfTensOfMillionsOfRows) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "launches are counted by the driver's test double";
  const char* const memory = "memory_mib=16384";
  const auto program =
      compile("input x\na := hash(x)\nb := hash(a)\nc := hash(b)\nd := hash(c)\ne := hash(d)\n");
  configure(memory);  // device memory bounds no chunk here
  const BatchEvaluator gpu(program, on(BatchDevice::Gpu));
  configure(memory);  // counts from zero
  gpu.stream(0, 1000, [](const ColumnChunk&) {});
  const int64_t per_chunk = double_count("launches");
  ASSERT_GT(per_chunk, 0);
  const uint64_t rows = uint64_t{16} << 20;
  configure(memory);
  const std::vector<DeviceColumn> resident = gpu.evaluate_to_device(5, rows);
  EXPECT_EQ(double_count("launches") / per_chunk, 3);
  const BatchEvaluator cpu(program, on(BatchDevice::Cpu));
  const uint64_t sample = 100000;
  const std::vector<Column> want = cpu.evaluate(5 + rows - sample, sample);
  const std::vector<Column> host = gpu.evaluate(5 + rows - sample, sample);
  for (size_t o = 0; o < want.size(); ++o) {
    EXPECT_EQ(host[o].words, want[o].words) << o;
    const Column back = gpu.to_host(resident[o]);
    ASSERT_EQ(back.words.size(), rows);
    EXPECT_TRUE(std::equal(want[o].words.begin(), want[o].words.end(), back.words.end() - sample))
        << o;
  }
}

// A second run of the same batch reuses the device and page-locked buffers
// of the first: with every further allocation failing, it still runs.
TEST(GpuFaults, RunsReuseTheirChunkBuffers) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "faults are injected by the driver's test double only";
  BatchOptions options = on(BatchDevice::Gpu);
  options.chunk_rows = 1000;
  // One thread: how many chunks are in flight at once, and so how many sets
  // of device buffers a run makes, must not depend on timing (with more
  // threads a first run may need two and a second three, and the third would
  // be a real allocation).
  options.threads = 1;
  const BatchEvaluator batch(compile_file(source_file("examples/ladder.polydat")), options);
  const std::vector<Column> first = batch.evaluate(0, 9000);
  configure("oom_at=1");
  std::vector<Column> again;
  EXPECT_NO_THROW(again = batch.evaluate(0, 9000));
  configure("");
  expect_same_columns(first, again);
}

// Each injected fault is a DeviceError naming the failing call; afterwards
// the process, its CPU batches and new GPU batches keep working.
TEST(GpuFaults, EachFaultIsADeviceErrorNamingTheCall) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "faults are injected by the driver's test double only";
  const struct {
    const char* spec;
    std::initializer_list<const char*> says;
  } faults[] = {
      // First: later runs take the cubin from the cache, not from the linker.
      {"invalid_ptx", {"cuLinkAddData failed", "CUDA_ERROR_INVALID_PTX", "JIT log", "ptxas"}},
      {"oom_at=1", {"cuMemAlloc failed", "CUDA_ERROR_OUT_OF_MEMORY"}},
      // Sticky faults (a launch failure, a lost device) end the device for
      // the process: GpuCli.AStickyFaultEndsTheDeviceNotTheJob, in processes
      // of their own.
  };
  // A cubin cache no run has seen, so every PTX goes through the driver's linker.
  const char* saved = std::getenv("POLYRT_CACHE_DIR");
  const std::string restore = saved ? saved : "";
  ::setenv("POLYRT_CACHE_DIR", test::temp_dir().c_str(), 1);
  const auto program = compile("input x\ny := hash(x) % 1000003\n");
  for (const auto& fault : faults) {
    BatchOptions options = on(BatchDevice::Gpu);
    options.chunk_rows = 500;
    configure(fault.spec);
    const std::string message = test::thrown_message<DeviceError>(
        [&] { BatchEvaluator(program, options).evaluate(0, 5000); });
    configure("");
    SCOPED_TRACE(fault.spec);
    test::expect_contains(message, fault.says);
    EXPECT_EQ(BatchEvaluator(program, on(BatchDevice::Cpu)).evaluate(0, 10)[0].words.size(), 10u);
    EXPECT_EQ(BatchEvaluator(program, options).evaluate(0, 5000)[0].words,
              BatchEvaluator(program, on(BatchDevice::Cpu)).evaluate(0, 5000)[0].words);
  }
  if (saved) {
    ::setenv("POLYRT_CACHE_DIR", restore.c_str(), 1);
  } else {
    ::unsetenv("POLYRT_CACHE_DIR");
  }
}

// A kernel the device cannot hold one block of (too many registers for 256
// threads) is refused when the batch is made, naming the kernel.
TEST(GpuFaults, AKernelNoSmCanHoldIsRefusedWhenTheBatchIsMade) {
  REQUIRE_GPU();
  const Configure configure = double_configure();
  if (!configure) GTEST_SKIP() << "registers are set by the driver's test double only";
  configure("registers=300");
  // Kernels of their own (constants are scalars: `hash(x) % 977` would
  // share another test's module, loaded once per process).
  const auto program = compile("input x\ny := u64_shr(hash(u64_xor(hash(x), x)), 7)\n");
  const std::string message =
      test::thrown_message<DeviceError>([&] { BatchEvaluator(program, on(BatchDevice::Gpu)); });
  configure("");
  test::expect_contains(message, {"cannot run 256 threads per block", "300 registers per thread"});
}

// A launch failure or a lost device leaves the GPU's context unusable (on a
// real GPU, and in the double): under --device all or auto the CPU runs the
// rows the GPU had taken and the output is the CPU's, with a warning; on
// --device gpu the job fails with the fault and leaves no file.
TEST(GpuCli, AStickyFaultEndsTheDeviceNotTheJob) {
  REQUIRE_DOUBLE();
  const std::string dir = test::temp_dir();
  const std::string run =
      "run " + source_file("examples/users.polydat") + " --cycles 0..3000000 --out ";
  ASSERT_EQ(test::run_polyrt(run + dir + "/cpu.csv --device cpu").status, 0);
  const std::string cpu = slurp(dir + "/cpu.csv");
  for (const auto& [fault, says] : std::vector<std::pair<std::string, const char*>>{
           {"launch_failure_at=3", "CUDA_ERROR_LAUNCH_FAILED"},
           {"lost_at=2", "CUDA_ERROR_DEVICES_UNAVAILABLE"}}) {
    SCOPED_TRACE(fault);
    const std::string env = "POLYRT_CUDA_DOUBLE=" + fault;
    for (const char* device : {"all", "auto"}) {
      // Auto may leave the double's GPU out after measuring it on the first
      // rows: its first launch is the one that faults there.
      const std::string on = device == std::string("auto")
                                 ? "POLYRT_CUDA_DOUBLE=" + fault.substr(0, fault.find('=')) + "=1"
                                 : env;
      const test::CommandResult r =
          test::run_polyrt_with(on, run + dir + "/out.csv --device " + device);
      EXPECT_EQ(r.status, 0) << device << r.err;
      test::expect_contains(r.err, {"warning: gpu 0", says, "the output is complete"});
      EXPECT_EQ(slurp(dir + "/out.csv"), cpu) << device;
    }
    const test::CommandResult gpu = test::run_polyrt_with(env, run + dir + "/gpu.csv --device gpu");
    EXPECT_EQ(gpu.status, 1);
    test::expect_contains(gpu.err, {says});
    EXPECT_FALSE(std::filesystem::exists(dir + "/gpu.csv"));
  }
}

TEST(GpuCli, RunOnTheGpuWritesTheCpuBytesInEveryFormat) {
  REQUIRE_GPU();
  const std::string dir = test::temp_dir();
  const std::string users = source_file("examples/users.polydat");
  for (const char* format : {"csv", "tsv", "jsonl"}) {
    const std::string args = "run " + users + " --cycles 0..70000 --format " + format;
    const test::CommandResult g = test::run_polyrt(args + " --device gpu", dir + "/gpu.txt");
    const test::CommandResult c = test::run_polyrt(args + " --device cpu", dir + "/cpu.txt");
    ASSERT_EQ(g.status, 0) << g.err;
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(slurp(dir + "/gpu.txt"), slurp(dir + "/cpu.txt")) << format;
  }
  const std::string ladder = source_file("examples/ladder.polydat");
  const std::string npy =
      "run " + ladder +
      " --cycles 5..90005 --set tenant_seed=3 --set operation_seed=4 --format npy";
  ASSERT_EQ(test::run_polyrt(npy + " --device gpu --out " + dir + "/g").status, 0);
  ASSERT_EQ(test::run_polyrt(npy + " --device cpu --out " + dir + "/c").status, 0);
  for (const char* column : {"account_id", "shard", "event_token"}) {
    EXPECT_EQ(slurp(dir + "/g/" + column + ".npy"), slurp(dir + "/c/" + column + ".npy"));
  }
  const test::CommandResult v = test::run_polyrt("run " + ladder +
                                                 " --cycles 0..10 --set tenant_seed=1 "
                                                 "--set operation_seed=2 -v --device gpu");
  EXPECT_NE(v.err.find("batch tier on gpu 0"), std::string::npos) << v.err;
}

// Every example with string outputs, in every text format, up to the last
// coordinate (A.. runs to 2^64 - 1) and across the GPU's chunks and the
// CPU tier's: the GPU tier (its device text) writes the CPU tier's bytes.
TEST(GpuCli, EveryExampleWritesTheCpuBytesUpToTheLastCoordinate) {
  REQUIRE_GPU();
  const std::string dir = test::temp_dir();
  for (const char* example : {"users", "lineitem", "telemetry", "requests"}) {
    for (const char* format : {"csv", "tsv", "jsonl"}) {
      const std::string args = "run " + source_file("examples/") + example +
                               ".polydat --cycles 18446744073709451616.. --format " + format;
      const test::CommandResult g = test::run_polyrt(args + " --device gpu", dir + "/gpu.txt");
      const test::CommandResult c = test::run_polyrt(args + " --device cpu", dir + "/cpu.txt");
      ASSERT_EQ(g.status, 0) << example << " " << g.err;
      ASSERT_EQ(c.status, 0) << example << " " << c.err;
      const std::string cpu = slurp(dir + "/cpu.txt");
      EXPECT_GT(cpu.size(), 100000u) << example;
      EXPECT_EQ(slurp(dir + "/gpu.txt"), cpu) << example << " " << format;
    }
  }
}

// Invalid UTF-8 and empty texts (rows the GPU encodes) and texts longer
// than 64 KiB (a host step's, whose rows the host encodes) under `polyrt run
// --device gpu`: the CPU's bytes in every text format, up to the last
// coordinate. (polyrt run refuses None fields on every device.)
TEST(GpuCli, InvalidUtf8AndLongTextsWriteTheCpuBytes) {
  REQUIRE_GPU();
  const std::string dir = test::temp_dir();
  const std::string on_device =
      test::write_program(dir, "device.polydat",
                          "input x\nh := hash(x)\n"
                          "text := one_of(h, \"ok\", \"bad \xff\xfe utf-8\", \"\", \"\xe2\x82\")\n"
                          "tag := text + \"|\" + (h % 7)\n");
  const std::string on_host = test::write_program(
      dir, "host.polydat",
      "input x\nh := hash(x)\nlong := to_hex(bytes_from_hash(h, 36000)) + \"|\"\n"
      "text := one_of(h, \"\", \"bad \xff\")\n");
  for (const auto& [program, rows_on] :
       {std::pair{on_device, "encoded on the GPU"}, std::pair{on_host, "encoded on the host"}}) {
    const test::CommandResult plan = test::run_polyrt("plan " + program + " --device gpu");
    EXPECT_NE(plan.out.find(rows_on), std::string::npos) << plan.out;
    for (const char* format : {"csv", "tsv", "jsonl"}) {
      const std::string args =
          "run " + program + " --cycles 18446744073709551566.. --format " + format;
      const test::CommandResult g = test::run_polyrt(args + " --device gpu", dir + "/gpu.txt");
      const test::CommandResult c = test::run_polyrt(args + " --device cpu", dir + "/cpu.txt");
      ASSERT_EQ(g.status, 0) << g.err;
      ASSERT_EQ(c.status, 0) << c.err;
      const std::string cpu = slurp(dir + "/cpu.txt");
      EXPECT_EQ(slurp(dir + "/gpu.txt"), cpu) << program << " " << format;
      if (program == on_host) {
        EXPECT_GT(cpu.size(), 50u * 70000) << format;
      } else if (format == std::string_view("jsonl")) {
        test::expect_contains(cpu, {R"("bad \udcff\udcfe utf-8|)", R"("\udce2\udc82|)"});
      }
    }
  }
}

// A GPU whose context cannot be made, or a driver missing an entry point:
// --device gpu fails naming it and leaves no file; auto and all run on the
// CPU with the CPU's bytes; bench skips the GPU saying why.
TEST(GpuCli, AContextOrEntryPointFailureLeavesTheCpu) {
  REQUIRE_GPU();
  if (!double_configure()) GTEST_SKIP() << "faults are injected by the driver's test double only";
  const std::string dir = test::temp_dir();
  const std::string run = "run " + source_file("examples/ladder.polydat") +
                          " --cycles 0..100000 --set tenant_seed=1 --set operation_seed=2";
  ASSERT_EQ(test::run_polyrt(run + " --device cpu --out " + dir + "/cpu.csv").status, 0);
  const std::string cpu = slurp(dir + "/cpu.csv");
  for (const auto& [fault, says] : std::vector<std::pair<std::string, std::vector<const char*>>>{
           {"context_failure",
            {"cuDevicePrimaryCtxRetain failed", "CUDA_ERROR_DEVICES_UNAVAILABLE"}},
           {"missing_entry=cuLaunchKernel",
            {"lacks entry points polyrt needs (cuLaunchKernel)", "CUDA_ERROR_NOT_FOUND"}}}) {
    SCOPED_TRACE(fault);
    const std::string env = "POLYRT_CUDA_DOUBLE=" + fault;
    const test::CommandResult gpu =
        test::run_polyrt_with(env, run + " --device gpu --out " + dir + "/gpu.csv");
    EXPECT_EQ(gpu.status, 1);
    test::expect_contains(gpu.err, {says[0], says[1]});
    EXPECT_FALSE(std::filesystem::exists(dir + "/gpu.csv"));
    for (const char* device : {"auto", "all"}) {
      const test::CommandResult r =
          test::run_polyrt_with(env, run + " -v --device " + device + " --out " + dir + "/a.csv");
      EXPECT_EQ(r.status, 0) << device << r.err;
      test::expect_contains(r.err, {"batch tier on cpu (no GPU: ", says[0]});
      EXPECT_EQ(slurp(dir + "/a.csv"), cpu) << device;
    }
    const test::CommandResult bench = test::run_polyrt_with(
        env, "bench " + source_file("examples/ladder.polydat") +
                 " --set tenant_seed=1 --set operation_seed=2 --seconds 0.02");
    EXPECT_EQ(bench.status, 0) << bench.err;
  }
}

// `run -v` says what --device auto chose and from which measured speeds.
TEST(GpuCli, AutoSaysWhatItChoseAndWhy) {
  REQUIRE_GPU();
  if (!double_configure())
    GTEST_SKIP() << "the GPU's speed is set on the driver's test double only";
  const std::string dir = test::temp_dir();
  // 2 s per launch keeps the GPU's measured speed (about 1e4 rows/s) far
  // under a tenth of the CPU's even in a sanitizer build (3.6e5 rows/s there,
  // where 0.5 s per launch once measured 11 % and was kept).
  const test::CommandResult r =
      test::run_polyrt_with("POLYRT_CUDA_DOUBLE=kernel_us=2000000",
                            "run " + source_file("examples/users.polydat") +
                                " --cycles 0..2000000 -v --out " + dir + "/a.csv");
  EXPECT_EQ(r.status, 0) << r.err;
  test::expect_contains(r.err,
                        {"--device auto chose cpu (measured: cpu ", "left out gpu 0 (polyrt CUDA"});
}

// Page-locking host memory costs a real driver a few hundred ms a GiB. A
// GPU's first chunk pinned its output staging while timed, so a fresh
// process's --device auto measured the GPU at a small part of its speed and
// left it out. The staging is made before the chunk's time is taken: the
// GPU's measured speed is about the same whatever pinning costs (compared
// with itself, not with the CPU, so that a loaded machine cannot decide).
TEST(GpuCli, AutoDoesNotTimeAGpusPageLocking) {
  REQUIRE_GPU();
  if (!double_configure()) GTEST_SKIP() << "pinning's cost is set on the driver's test double only";
  const std::string dir = test::temp_dir();
  const std::string program = test::write_program(
      dir, "four.polydat",
      "input cycle\na := hash(cycle)\nb := hash(a)\nc := hash(b)\nd := hash(c)\n");
  // The GPU's rows/s in auto's "measured: cpu X rows/s, gpu 0 (...) Y rows/s".
  const auto gpu_rate = [&](const std::string& pinning) {
    const test::CommandResult r = test::run_polyrt_with(
        "POLYRT_CUDA_DOUBLE=pin_ms_per_gib=" + pinning,
        "run " + program + " --cycles 0..8000000 -v --format npy --out " + dir + "/npy" + pinning);
    EXPECT_EQ(r.status, 0) << r.err;
    const size_t gpu = r.err.find("gpu 0 (", r.err.find("measured: "));
    const size_t rate = r.err.find(") ", gpu);
    if (gpu == std::string::npos || rate == std::string::npos) {
      ADD_FAILURE() << "no measured GPU speed in:\n" << r.err;
      return 0.0;
    }
    return std::stod(r.err.substr(rate + 2));
  };
  const double free = gpu_rate("0");
  // 20 s a GiB: the first chunk's tens of MiB of staging take about a
  // second, against the milliseconds its rows take.
  const double pinned = gpu_rate("20000");
  EXPECT_GT(pinned, free / 10) << "pinning counted as the GPU's time";
}

// Auto chooses from each device's first chunk: a GPU's is a full chunk, not
// kDefaultChunkRows, whose time is the GPU's fixed costs (launches, copies,
// waits) more than its rows'. Its later chunks are never larger.
TEST(GpuCli, AutoMeasuresAGpuOnAFullChunk) {
  REQUIRE_GPU();
  const std::string dir = test::temp_dir();
  const test::CommandResult r = test::run_polyrt_with(
      "POLYRT_GPU_TRACE=1", "run " + source_file("examples/users.polydat") +
                                " --cycles 0..2000000 --device auto -v --out " + dir + "/u.csv");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_NE(r.err.find("--device auto chose"), std::string::npos) << r.err;
  // Trace lines come as chunks finish; the GPU runs its first alone.
  const std::string head = "polyrt: gpu 0 chunk ";
  std::vector<uint64_t> rows;
  for (size_t at = r.err.find(head); at != std::string::npos; at = r.err.find(head, at + 1)) {
    rows.push_back(std::stoull(r.err.substr(r.err.find('+', at) + 1)));
  }
  ASSERT_FALSE(rows.empty()) << r.err;
  EXPECT_GT(rows.front(), kDefaultChunkRows) << r.err;
  EXPECT_EQ(rows.front(), *std::max_element(rows.begin(), rows.end())) << r.err;
}

// POLYRT_GPU_TRACE=1: a line per chunk with its prepare, pinned bytes, each
// kernel's time and blocks and its copies, from events on its stream; the
// same bytes written, and nothing said without it.
TEST(GpuCli, TheTraceSaysWhereEachChunksTimeGoes) {
  REQUIRE_GPU();
  const std::string dir = test::temp_dir();
  const std::string run = "run " + source_file("examples/users.polydat") +
                          " --cycles 0..200000 --device gpu --out " + dir;
  const test::CommandResult traced = test::run_polyrt_with("POLYRT_GPU_TRACE=1", run + "/a.csv");
  ASSERT_EQ(traced.status, 0) << traced.err;
  // One line per chunk: their rows are the run's.
  const std::string head = "polyrt: gpu 0 chunk ";
  uint64_t lines = 0, rows = 0;
  for (size_t at = traced.err.find(head); at != std::string::npos;
       at = traced.err.find(head, at + 1)) {
    ++lines;
    rows += std::stoull(traced.err.substr(traced.err.find('+', at) + 1));
  }
  EXPECT_GE(lines, 1u) << traced.err;
  EXPECT_EQ(rows, 200000u) << traced.err;
  test::expect_contains(
      traced.err, {"chunk 0+", ": prepare ", " MiB pinned); ", "polyrt_rows_write ", " blocks); ",
                   "rows to host ", "on the device "});
  const test::CommandResult plain = test::run_polyrt(run + "/b.csv");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.err.find("chunk "), std::string::npos) << plain.err;
  EXPECT_EQ(test::read_file(dir + "/a.csv"), test::read_file(dir + "/b.csv"));
}

// Device memory that runs out for any of a device-text chunk's buffers (its
// slots, the compaction's sums, offsets and bytes), or a failing launch of
// any of its kernels (the kernel, then the compaction's three): a named
// DeviceError and no output file, never a partial one.
TEST(GpuCli, ADeviceTextFaultLeavesNoOutputFile) {
  REQUIRE_GPU();
  if (!double_configure()) GTEST_SKIP() << "faults are injected by the driver's test double only";
  const std::string dir = test::temp_dir();
  const std::string run =
      "run " + source_file("examples/users.polydat") + " --cycles 0..20000 --device gpu --out ";
  // Its CSV rows are encoded on the device: launches 2 to 5 are the row
  // encoding's (length pass, two scans, write pass), and the last
  // allocations (44) are the rows' bytes, made once their count is known.
  for (const char* fault : {"oom_at=2", "oom_at=8", "oom_at=16", "oom_at=24", "oom_at=34",
                            "oom_at=44", "launch_failure_at=1", "launch_failure_at=2",
                            "launch_failure_at=3", "launch_failure_at=4", "launch_failure_at=5"}) {
    const test::CommandResult r =
        test::run_polyrt_with(std::string("POLYRT_CUDA_DOUBLE=") + fault, run + dir + "/rows.csv");
    EXPECT_EQ(r.status, 1) << fault << "\n" << r.err;
    test::expect_contains(r.err, {" failed: ", "CUDA_ERROR_"});
    EXPECT_EQ(test::entries(dir), 0u) << fault << ": no output file, no temporary left behind";
  }
}

TEST(GpuCli, AFaultLeavesNoOutputFile) {
  REQUIRE_GPU();
  if (!double_configure()) GTEST_SKIP() << "faults are injected by the driver's test double only";
  const std::string dir = test::temp_dir();
  const test::CommandResult r = test::run_polyrt_with(
      "POLYRT_CUDA_DOUBLE=launch_failure_at=2",
      "run " + source_file("examples/ladder.polydat") +
          " --cycles 0..600000 --set tenant_seed=1 --set operation_seed=2 --device gpu --out " +
          dir + "/rows.csv");
  EXPECT_EQ(r.status, 1);
  // The call that sees a sticky fault first names it: the synchronize that
  // waits for the launch, or any call on the stream after it.
  test::expect_contains(r.err, {" failed: ", "CUDA_ERROR_LAUNCH_FAILED"});
  EXPECT_EQ(test::entries(dir), 0u) << "no output file, no temporary left behind";
}

// Without a usable driver: a reason, exit 1 for --device gpu, and --device
// auto runs on the CPU with the same bytes.
TEST(GpuCli, NoUsableDriverIsExplainedAndAutoFallsBack) {
  const std::string ladder = source_file("examples/ladder.polydat");
  const std::string run =
      "run " + ladder + " --cycles 0..1000 --set tenant_seed=1 --set operation_seed=2";
  const test::CommandResult cpu = test::run_polyrt(run + " --device cpu");
  ASSERT_EQ(cpu.status, 0);
  std::vector<std::pair<std::string, const char*>> drivers = {
      {"/nonexistent/libcuda.so.1", "no CUDA driver: cannot load /nonexistent/libcuda.so.1"}};
  for (const char* stub : {"/usr/local/cuda/lib64/stubs/libcuda.so",
                           "/usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so"}) {
    if (std::filesystem::exists(stub)) {
      drivers.emplace_back(stub, "is the CUDA toolkit's stub library (CUDA_ERROR_STUB_LIBRARY");
      break;
    }
  }
  for (const auto& [path, says] : drivers) {
    SCOPED_TRACE(path);
    const std::string env = "POLYRT_LIBCUDA=" + path;
    const test::CommandResult devices = test::run_polyrt_with(env, "devices");
    EXPECT_EQ(devices.status, 0);
    test::expect_contains(devices.out, {"cpu: ", "gpu: none (", says});
    const test::CommandResult gpu = test::run_polyrt_with(env, run + " --device gpu");
    EXPECT_EQ(gpu.status, 1);
    test::expect_contains(gpu.err, {"no usable GPU", says});
    const test::CommandResult automatic = test::run_polyrt_with(env, run + " --device auto -v");
    EXPECT_EQ(automatic.status, 0) << automatic.err;
    EXPECT_EQ(automatic.out, cpu.out);
    test::expect_contains(automatic.err, {"batch tier on cpu (no GPU: ", says});
  }
}

TEST(GpuCli, ANegativeDeviceCountIsExplained) {
  REQUIRE_DOUBLE();
  const test::CommandResult r = test::run_polyrt_with("POLYRT_CUDA_DOUBLE=devices=-1", "devices");
  EXPECT_EQ(r.status, 0) << r.err;
  test::expect_contains(r.out, {"gpu: none (", "reported -1 devices (cuDeviceGetCount)"});
}

// A cubin is cached under its driver library's identity: the same PTX,
// compute capability and driver version from another driver file (here a
// copy of the double) is compiled afresh, never loaded from the first's entry.
TEST(GpuCli, CubinsAreCachedPerDriverLibrary) {
  REQUIRE_GPU();
  const std::string dir = test::temp_dir();
  const std::string copy = dir + "/libcuda.so.1";
  std::filesystem::copy_file(gpu::CudaDriver::get()->library_path(), copy);
  const std::string run = "run " + source_file("examples/users.polydat") +
                          " --cycles 0..100 --device gpu --outputs user_id,score";
  const std::string cache = "POLYRT_CACHE_DIR=" + dir + "/cache";
  const auto cubins = [&] {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir + "/cache")) {
      n += e.path().extension() == ".cubin";
    }
    return n;
  };
  ASSERT_EQ(test::run_polyrt_with(cache, run).status, 0);
  const size_t first = cubins();
  ASSERT_GE(first, 1u);
  ASSERT_EQ(test::run_polyrt_with(cache, run).status, 0);
  EXPECT_EQ(cubins(), first) << "the same driver reuses its entries";
  ASSERT_EQ(test::run_polyrt_with(cache + " POLYRT_LIBCUDA=" + copy, run).status, 0);
  EXPECT_EQ(cubins(), 2 * first) << "another driver file has entries of its own";
  if (double_configure()) {
    EXPECT_NE(gpu::CudaDriver::get()->version() % 10, 0) << "the double's version is no real one";
  }
}

TEST(GpuCli, DevicesListsTheGpus) {
  REQUIRE_GPU();
  const test::CommandResult r = test::run_polyrt("devices");
  EXPECT_EQ(r.status, 0);
  test::expect_contains(r.out, {"cpu: ", "gpu 0: ", "sm_", "SMs", "GiB", "CUDA driver"});
}

}  // namespace
}  // namespace polyrt
