// The GPU kernels' PTX, checked by the CUDA toolkit's assembler: for a
// sample of the differential generator's programs, the examples and a stress
// program, the PTX for sm_90 assembles with `ptxas -arch=sm_90 -v` with no
// spill stores or loads, and every rounding floating-point operation is
// `.rn` (no fma, no .approx): what keeps GPU values bit-identical to the CPU's.
// Skipped, with a message, where no toolkit is found. Wide arithmetic
// (128-bit products, fixed decimals, reciprocals) over every class of input
// range compiles to PTX everywhere, and gives the CPU tier's values on the
// driver in use (the test double in CI).
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "codegen/shared_kernels.hpp"
#include "gpu_backend/driver/cuda_driver.hpp"
#include "gpu_backend/ptx/ptx_compiler.hpp"
#include "gpu_backend/ptx/ptxas.hpp"
#include "polyrt/batch.hpp"
#include "scheduler/runtime/batch_setup.hpp"
#include "tests/differential/differential.hpp"
#include "tests/differential/random_program.hpp"
#include "tests/test_support.hpp"

namespace polyrt {
namespace {

// Every kernel's "N bytes spill stores, M bytes spill loads" is zero.
std::string spills(const std::vector<gpu::KernelResources>& kernels) {
  std::string found;
  for (const gpu::KernelResources& k : kernels) {
    if (k.spill_store_bytes || k.spill_load_bytes) {
      found += k.entry + ": " + std::to_string(k.spill_store_bytes) + " bytes spill stores, " +
               std::to_string(k.spill_load_bytes) + " bytes spill loads; ";
    }
  }
  return kernels.empty() ? "ptxas -v reported no function properties" : found;
}

// A rounding f32/f64 operation without .rn, any fma or mad on floats, any .approx.
std::string float_lint(const std::string& ptx) {
  std::istringstream lines(ptx);
  std::string line, found;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string op;
    words >> op;
    if (op.starts_with("@")) words >> op;  // a predicate guard
    const bool is_float = op.find(".f64") != std::string::npos ||
                          op.find(".f32") != std::string::npos ||
                          op.find(".f16") != std::string::npos;
    const std::string base = op.substr(0, op.find('.'));
    const bool rounds = base == "add" || base == "sub" || base == "mul" || base == "div" ||
                        base == "sqrt" || base == "rcp";
    if (line.find(".approx") != std::string::npos ||
        (is_float && (base == "fma" || base == "mad")) ||
        (is_float && rounds && op.find(".rn") == std::string::npos)) {
      found += line + "\n";
    }
  }
  return found;
}

bool toolkit_found() {
  return gpu::find_ptxas().has_value();
}

// The PTX of every kernel of the batch over `outputs` (empty: every output).
gpu::PtxKernels ptx_of(const std::shared_ptr<const Program>& program,
                       std::vector<std::string> outputs) {
  BatchOptions options;
  options.outputs = std::move(outputs);
  const scheduler::BatchSetup setup = scheduler::resolve_batch_options(*program, options);
  const batch::PreparedBatch prepared =
      scheduler::prepare(program, setup, plan::PlanPlacement::Gpu);
  return gpu::PtxCompiler::instance().compile(prepared.graph(), prepared.plan, gpu::NvptxTarget{});
}

// Whether a GPU kernel of the batch over `outputs` writes device text.
bool writes_device_text(const std::shared_ptr<const Program>& program,
                        std::vector<std::string> outputs) {
  BatchOptions options;
  options.outputs = std::move(outputs);
  const batch::PreparedBatch prepared = scheduler::prepare(
      program, scheduler::resolve_batch_options(*program, options), plan::PlanPlacement::Gpu);
  for (uint32_t bound : prepared.plan.text_bounds) {
    if (bound) return true;
  }
  return false;
}

bool has_kernel(const gpu::PtxKernels& k) {
  for (const std::string& e : k.entries) {
    if (!e.empty()) return true;
  }
  return false;
}

void expect_clean_ptx(const gpu::PtxKernels& kernels, const std::string& what) {
  EXPECT_EQ(float_lint(kernels.ptx), "") << what;
  const gpu::PtxasRun run = gpu::run_ptxas(*gpu::find_ptxas(), kernels.ptx, 90);
  ASSERT_EQ(run.status, 0) << what << ": ptxas failed\n" << run.output;
  EXPECT_EQ(spills(run.kernels), "") << what << "\n" << run.output;
}

TEST(Ptx, LintFindsWhatItMustRefuse) {
  EXPECT_NE(float_lint("\tadd.f64 \t%fd1, %fd2, %fd3;\n"), "");
  EXPECT_NE(float_lint("\tfma.rn.f64 \t%fd1, %fd2, %fd3, %fd4;\n"), "");
  EXPECT_NE(float_lint("\t@%p1 mul.f64 \t%fd1, %fd2, %fd3;\n"), "");
  EXPECT_NE(float_lint("\tsin.approx.f32 \t%f1, %f2;\n"), "");
  EXPECT_EQ(float_lint("\tadd.rn.f64 \t%fd1, %fd2, %fd3;\n\tadd.s64 \t%rd1, %rd2, %rd3;\n"
                       "\tmax.f64 \t%fd1, %fd2, %fd3;\n\tmul.lo.s64 \t%rd1, %rd2, %rd3;\n"),
            "");
  const std::string report =
      "ptxas info    : Compiling entry function 'a' for 'sm_90'\n"
      "ptxas info    : Function properties for a\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 128 registers, used 0 barriers, 392 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function 'b' for 'sm_90'\n"
      "ptxas info    : Function properties for b\n"
      "    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 0 barriers, 392 bytes cmem[0]\n";
  const std::vector<gpu::KernelResources> kernels = gpu::parse_ptxas_report(report);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].registers, 128u);
  EXPECT_EQ(kernels[1].registers, 255u);
  EXPECT_EQ(kernels[1].stack_bytes, 16u);
  EXPECT_EQ(spills({kernels[0]}), "");
  EXPECT_EQ(spills(kernels), "b: 8 bytes spill stores, 4 bytes spill loads; ");
  EXPECT_NE(spills({}), "");
}

// The CUDA occupancy calculator's counts: registers allocated per warp in
// units of 256, limited by registers, threads and blocks per SM.
TEST(Ptx, OccupancyFollowsRegistersAndThreadsPerSm) {
  EXPECT_EQ(gpu::occupancy_of(90, 128, 256).blocks_per_sm, 2u);
  EXPECT_EQ(gpu::occupancy_of(90, 38, 256).blocks_per_sm, 6u);  // 40 per thread: 1280 per warp
  EXPECT_EQ(gpu::occupancy_of(90, 255, 256).blocks_per_sm, 1u);
  EXPECT_EQ(gpu::occupancy_of(90, 16, 256).blocks_per_sm, 8u);  // 2048 threads per SM
  EXPECT_EQ(gpu::occupancy_of(86, 32, 256).blocks_per_sm, 6u);  // 1536 threads per SM
  EXPECT_EQ(gpu::occupancy_of(90, 16, 32).blocks_per_sm, 32u);  // 32 blocks per SM
  const gpu::Occupancy o = gpu::occupancy_of(90, 128, 256);
  EXPECT_EQ(o.warps_per_sm, 16u);
  EXPECT_EQ(o.max_warps_per_sm, 64u);
}

// 100 programs whose kernels write device text (string outputs), and 50
// whose kernels write none.
TEST(Ptx, DifferentialProgramsAssembleWithoutSpills) {
  if (!toolkit_found()) GTEST_SKIP() << "no CUDA toolkit (ptxas) found: PTX not assembled";
  size_t checked = 0, with_text = 0;
  for (uint64_t seed = 1; with_text < 100 && seed < 1000; ++seed) {
    const difftest::RandomProgram p = difftest::generate_program(seed, 1 + seed % 60);
    std::shared_ptr<const Program> program;
    try {
      CompileOptions options;
      options.engine = Engine::Interpreter;
      program = compile(p.source, options);
    } catch (const Error&) {
      continue;  // the generator's programs may not compile (the difftest checks why)
    }
    const std::vector<std::string> outputs = difftest::batch_outputs(*program);
    if (outputs.empty()) continue;
    const bool text = writes_device_text(program, outputs);
    if (!text && checked - with_text >= 50) continue;  // enough without text
    const gpu::PtxKernels kernels = ptx_of(program, outputs);
    if (!has_kernel(kernels)) continue;
    expect_clean_ptx(kernels, "seed " + std::to_string(seed) + "\n" + p.source);
    if (HasFailure()) return;
    ++checked;
    with_text += text;
  }
  EXPECT_GE(with_text, 100u);
  std::printf("PTX of %zu differential programs (%zu with device text) assembled by ptxas\n",
              checked, with_text);
}

// The kernels no plan shapes (text compaction, row encoding), compiled once
// for every program.
TEST(Ptx, SharedKernelsAssembleWithoutSpills) {
  if (!toolkit_found()) GTEST_SKIP() << "no CUDA toolkit (ptxas) found: PTX not assembled";
  const gpu::PtxKernels shared = gpu::PtxCompiler::instance().compile_shared_kernels({});
  ASSERT_EQ(shared.entries.size(), (size_t)codegen::kSharedKernels);
  for (const std::string& entry : shared.entries) {
    EXPECT_NE(shared.ptx.find(".visible .entry " + entry + "("), std::string::npos) << entry;
  }
  // The row writer stores a segment's bytes as whole aligned words
  // (rtlib/word_writer.h), not each byte by itself. (The text pack does too,
  // but its offsets are 8-byte stores anyway: its PTX tells nothing.)
  for (const char* entry : {"polyrt_rows_write"}) {
    const size_t at = shared.ptx.find(".visible .entry " + std::string(entry) + "(");
    ASSERT_NE(at, std::string::npos) << entry;
    const std::string body = shared.ptx.substr(at, shared.ptx.find("\n}\n", at) - at);
    EXPECT_TRUE(body.find("st.global.u64") != std::string::npos ||
                body.find("st.u64") != std::string::npos)
        << entry << " stores no 8-byte word:\n"
        << body;
  }
  expect_clean_ptx(shared, "the shared kernels");
}

TEST(Ptx, ExamplesAndTheStressProgramAssembleWithoutSpills) {
  if (!toolkit_found()) GTEST_SKIP() << "no CUDA toolkit (ptxas) found: PTX not assembled";
  for (const char* file : {"examples/ladder.polydat", "examples/users.polydat",
                           "examples/lineitem.polydat", "examples/requests.polydat",
                           "examples/telemetry.polydat", "tests/data/gpu_stress.polydat"}) {
    const gpu::PtxKernels kernels =
        ptx_of(compile_file(std::string(POLYRT_SOURCE_DIR) + "/" + file), {});
    ASSERT_TRUE(has_kernel(kernels)) << file;
    expect_clean_ptx(kernels, file);
  }
}

// Nodes whose code multiplies or divides wider than 64 bits, each over
// every class of input range: the optimizer specializes the wide arithmetic
// on what it knows of the input, and one such specialization (the product of
// `c % 26` and a 64-bit constant) once made NVPTX code generation call a
// 128-bit division routine it does not have, which aborted the process
// (issue 54). Each program compiles to PTX (assembled by ptxas when a toolkit
// is found) and, where a driver is loaded, gives the CPU tier's values.
TEST(Ptx, WideArithmeticCompilesForEveryInputRange) {
  const char* const ranges[] = {
      "c",          "c % 26",       "c % 27",           "c % 1000",
      "c / 3",      "mod(c, 1000)", "clamp(c, 5, 900)", "hash_range(c, 1000)",
      "(c % 7) + 3"};
  const char* const nodes[] = {
      "combinations(X, \"A-Z\")",
      "combinations(X, \"A-Z;0-9;x\")",
      "combinations(X, \"ab\")",
      "combinations(X, \"A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z\")",
      "combinations(X, \"A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z;A-Z\")",
      "format_f64((X as f64) * 0.001, 2)",
      "format_f64((X as f64) / 7.0, 6)",
      "format_f64((X as f64) * 1048576.0, 0)",
      "format_f64((X as f64) / 3.0, 12)",
      "printf(\"{:.4}|{}\", (X as f64) / 7.0, X)",
      "((X as f64) / 3.0) as str",
      "sin((X as f64) * 1e12)",
  };
  const bool assemble = toolkit_found();
  const bool run = gpu::CudaDriver::get() != nullptr;
  size_t programs = 0;
  for (const char* range : ranges) {
    // One program per range, an output per node; each output's kernel alone.
    std::string source = "input c: u64\n";
    std::vector<std::string> outputs;
    for (const char* node : nodes) {
      std::string expression = node;
      while (expression.find('X') != std::string::npos) {
        expression.replace(expression.find('X'), 1, std::string("(") + range + ")");
      }
      outputs.push_back("w" + std::to_string(outputs.size()));
      source += outputs.back() + " := " + expression + "\n";
    }
    const auto program = compile(source);
    for (const std::string& output : outputs) {
      const gpu::PtxKernels kernels = ptx_of(program, {output});
      ASSERT_TRUE(has_kernel(kernels)) << output << " of\n" << source;
      if (assemble) expect_clean_ptx(kernels, output + " of\n" + source);
      ++programs;
    }
    if (run) {
      BatchOptions options;
      options.device = BatchDevice::Gpu;
      const std::vector<Column> on_gpu = BatchEvaluator(program, options).evaluate(0, 300);
      options.device = BatchDevice::Cpu;
      const std::vector<Column> on_cpu = BatchEvaluator(program, options).evaluate(0, 300);
      for (size_t o = 0; o < outputs.size(); ++o) {
        EXPECT_EQ(on_gpu[o].words, on_cpu[o].words) << outputs[o] << " of\n" << source;
        EXPECT_EQ(on_gpu[o].bytes, on_cpu[o].bytes) << outputs[o] << " of\n" << source;
      }
    }
    if (HasFailure()) return;
  }
  std::printf("%zu kernels of wide arithmetic compiled to PTX%s%s\n", programs,
              assemble ? ", assembled by ptxas" : "", run ? ", ran as on the CPU" : "");
}

}  // namespace
}  // namespace polyrt
