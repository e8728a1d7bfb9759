// The GPU tier's code generation without a GPU: target resolution, the
// rtlib linker's target check, the PTX cache, the GPU entry points, their
// host twins over simulated grids against the CPU batch back end, the check
// that keeps what NVPTX cannot lower from its back end, what is left to
// LLVM's fatal errors, and `polyrt plan --target nvptx`.
#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>

#include <cstring>
#include <regex>

#include "codegen/jit/jit_engine.hpp"
#include "codegen/pipeline/llvm_fatal_errors.hpp"
#include "codegen/pipeline/nvptx_lowering.hpp"
#include "codegen/rtlib_bitcode.hpp"
#include "cpu_backend/cpu_batch_backend.hpp"
#include "gpu_backend/host_twin_backend.hpp"
#include "gpu_backend/ptx/ptx_compiler.hpp"
#include "gpu_backend/ptx/ptxas.hpp"
#include "polyrt/introspect.hpp"
#include "rtlib/word_writer.h"
#include "scheduler/runtime/batch_setup.hpp"
#include "tests/test_support.hpp"

namespace polyrt {
namespace {

// The GPU's row and text kernels store a thread's run of bytes as aligned
// words; neighbouring runs are other threads', written at the same time, so
// a run must store its own bytes and never one outside it: every start
// offset within a word and every length up to five words, between sentinels.
TEST(WordWriter, StoresItsRunAndNothingBeside) {
  alignas(8) char buffer[64];
  for (size_t start = 0; start < 8; ++start) {
    for (size_t length = 0; length <= 40; ++length) {
      std::memset(buffer, '#', sizeof buffer);
      std::string run;
      for (size_t k = 0; k < length; ++k) run += (char)('a' + (start + k) % 26);
      rt::WordWriter out(buffer + 8 + start);
      out.put(run.data(), run.size() / 2);  // in two puts, and one byte at a time
      for (size_t k = run.size() / 2; k < run.size(); ++k) out.put(run[k]);
      out.finish();
      const std::string got(buffer, sizeof buffer);
      EXPECT_EQ(got, std::string(8 + start, '#') + run + std::string(56 - start - length, '#'))
          << "start " << start << ", length " << length;
    }
  }
}

std::string stress_file() {
  return std::string(POLYRT_SOURCE_DIR) + "/tests/data/gpu_stress.polydat";
}

batch::PreparedBatch prepared(const std::shared_ptr<const Program>& program,
                              const BatchOptions& options = {}) {
  return scheduler::prepare(program, scheduler::resolve_batch_options(*program, options));
}

TEST(NvptxTarget, DefaultsToSm90AndTheNewestIsaLlvmEmits) {
  const gpu::ResolvedNvptxTarget t = gpu::resolve_nvptx_target({});
  EXPECT_EQ(t.cpu, "sm_90");
  EXPECT_EQ(t.features, "+ptx85");
}

TEST(NvptxTarget, TheDriverVersionPicksTheIsa) {
  EXPECT_EQ(gpu::resolve_nvptx_target({80, 12040}).features, "+ptx84");
  EXPECT_EQ(gpu::resolve_nvptx_target({80, 12000}).features, "+ptx80");
  EXPECT_EQ(gpu::resolve_nvptx_target({90, 13000}).features, "+ptx85");  // LLVM 19's newest
  EXPECT_EQ(gpu::resolve_nvptx_target({70, 11040}).features, "+ptx74");
}

TEST(NvptxTarget, RefusesWhatCannotBeTargetedListingWhatCan) {
  test::expect_contains(test::thrown_message<Error>([&] {
                          gpu::resolve_nvptx_target({91, 0});
                        }),
                        {"sm_91 cannot be targeted", "60, 61, 62, 70", "90"});
  test::expect_contains(test::thrown_message<Error>([&] {
                          gpu::resolve_nvptx_target({90, 11070});
                        }),
                        {"CUDA driver 11.7 cannot run sm_90", "PTX ISA up to 7.7", "7.8 or newer"});
  test::expect_contains(test::thrown_message<Error>([&] {
                          gpu::resolve_nvptx_target({90, 10020});
                        }),
                        {"CUDA driver 10.2 is too old"});
}

TEST(RtlibLinker, RefusesTheOtherTargetsRtlib) {
  llvm::LLVMContext ctx;
  const std::string_view blob = codegen::rtlib_bitcode(codegen::RtlibTarget::Nvptx);
  auto nvptx_rtlib = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(blob.data(), blob.size()), "rtlib"), ctx);
  ASSERT_TRUE((bool)nvptx_rtlib);
  llvm::Module gpu("gpu", ctx), host("host", ctx);
  gpu.setTargetTriple("nvptx64-nvidia-cuda");
  gpu.setDataLayout((*nvptx_rtlib)->getDataLayout());
  host.setTargetTriple(jit::JitEngine::instance().triple());
  host.setDataLayout(jit::JitEngine::instance().data_layout());
  EXPECT_NO_THROW(codegen::RtlibLinker(gpu, codegen::RtlibTarget::Nvptx));
  EXPECT_NO_THROW(codegen::RtlibLinker(host, codegen::RtlibTarget::Host));
  test::expect_contains(
      test::thrown_message<Error>([&] { codegen::RtlibLinker(gpu, codegen::RtlibTarget::Host); }),
      {"rtlib was built for x86_64", "the module targets nvptx64"});
  test::expect_contains(
      test::thrown_message<Error>([&] { codegen::RtlibLinker(host, codegen::RtlibTarget::Nvptx); }),
      {"rtlib was built for nvptx64"});
}

std::unique_ptr<llvm::Module> nvptx_module(llvm::LLVMContext& ctx, const std::string& body) {
  llvm::SMDiagnostic error;
  auto module =
      llvm::parseAssemblyString("target triple = \"nvptx64-nvidia-cuda\"\n" + body, error, ctx);
  if (!module) ADD_FAILURE() << error.getMessage().str();
  return module;
}

std::string problems_of(const llvm::Module& module) {
  std::string text;
  for (const codegen::LoweringProblem& p : codegen::nvptx_lowering_problems(module)) {
    text += p.function + ": " + p.operation + "\n";
  }
  return text;
}

// What NVPTX would abort on is found: integers wider than 64 bits (the
// division that aborted, and the arithmetic the back end may rewrite into
// one), math it has no instruction for, functions with no definition.
TEST(NvptxLowering, FindsWhatTheBackEndWouldAbortOn) {
  llvm::LLVMContext ctx;
  const auto wide = nvptx_module(ctx, R"(
define i64 @divides(i64 %x) {
  %w = zext i64 %x to i128
  %q = udiv i128 %w, 26
  %t = trunc i128 %q to i64
  ret i64 %t
}
define double @sine(double %x) {
  %s = call double @llvm.sin.f64(double %x)
  ret double %s
}
define double @calls(double %x) {
  %r = call double @fmod(double %x, double 2.0)
  ret double %r
}
declare double @llvm.sin.f64(double)
declare double @fmod(double, double)
)");
  test::expect_contains(problems_of(*wide),
                        {"divides: zext i128", "divides: udiv i128", "divides: trunc of i128",
                         "sine: a call of llvm.sin.f64", "calls: a call of fmod"});
  const auto fine = nvptx_module(ctx, R"(
define i64 @fine(i64 %x, i64 %y, ptr %p) {
  %h = call i64 @llvm.nvvm.mulhi.ull(i64 %x, i64 %y)
  %m = call i64 @llvm.umin.i64(i64 %h, i64 %y)
  %q = udiv i64 %m, 26
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %q, i1 false)
  %f = uitofp i64 %q to double
  %r = call double @llvm.floor.f64(double %f)
  %b = bitcast double %r to i64
  ret i64 %b
}
declare i64 @llvm.nvvm.mulhi.ull(i64, i64)
declare i64 @llvm.umin.i64(i64, i64)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare double @llvm.floor.f64(double)
)");
  EXPECT_EQ(problems_of(*fine), "");
}

// The nvptx64 rtlib itself holds nothing the check refuses: every kernel
// links it, so what it held would reach every kernel that calls it.
TEST(NvptxLowering, TheRtlibPassesTheCheck) {
  llvm::LLVMContext ctx;
  const std::string_view blob = codegen::rtlib_bitcode(codegen::RtlibTarget::Nvptx);
  auto rtlib = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(blob.data(), blob.size()), "rtlib"), ctx);
  ASSERT_TRUE((bool)rtlib);
  EXPECT_EQ(problems_of(**rtlib), "");
}

// What still reaches LLVM's fatal errors ends the process with exit status 3
// and a report of what this thread was compiling, never a bare SIGABRT.
TEST(LlvmFatalErrors, ReportWhatWasBeingCompiledAndExitWithThree) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        codegen::install_llvm_fatal_error_handler();
        const codegen::FatalErrorContext outer("checking seed 88800897");
        const codegen::FatalErrorContext inner("generating sm_90 PTX");
        llvm::report_fatal_error("Undefined external symbol \"\"");
      },
      ::testing::ExitedWithCode(3),
      "LLVM failed: Undefined external symbol \"\"\n  while checking seed 88800897\n  while "
      "generating sm_90 PTX\nThis is a bug in polyrt");
}

TEST(PtxCompiler, CachesPtxInMemoryAndOnDiskPerTarget) {
  const std::string dir = test::temp_dir() + "/cache";
  const auto program = compile_file(stress_file());
  const batch::PreparedBatch b = prepared(program);
  std::string first_ptx;
  {
    gpu::PtxCompiler compiler(dir);
    first_ptx = compiler.compile(b.graph(), b.plan, {}).ptx;
    EXPECT_EQ(compiler.compile(b.graph(), b.plan, {}).ptx, first_ptx);
    EXPECT_EQ(compiler.stats().compiled, 1u);
    EXPECT_EQ(compiler.stats().memory_hits, 1u);
    const std::string sm80 = compiler.compile(b.graph(), b.plan, {80, 12040}).ptx;
    EXPECT_EQ(compiler.stats().compiled, 2u);  // the target is part of the key
    EXPECT_NE(sm80.find(".target sm_80"), std::string::npos);
    EXPECT_NE(sm80.find(".version 8.4"), std::string::npos);
  }
  gpu::PtxCompiler fresh(dir);  // as a new process would
  EXPECT_EQ(fresh.compile(b.graph(), b.plan, {}).ptx, first_ptx);
  EXPECT_EQ(fresh.stats().disk_hits, 1u);
  EXPECT_EQ(fresh.stats().compiled, 0u);
}

TEST(PtxCompiler, EntriesCarryLaunchBoundsAndTheFailureWord) {
  const batch::PreparedBatch b = prepared(compile_file(stress_file()));
  const gpu::PtxKernels k = gpu::PtxCompiler(std::nullopt).compile(b.graph(), b.plan, {});
  ASSERT_EQ(k.entries.size(), b.plan.steps.size());
  for (size_t s = 0; s < k.entries.size(); ++s) {
    const bool kernel = b.plan.steps[s].kind == plan::BatchStep::Kernel;
    EXPECT_EQ(k.entries[s].empty(), !kernel);
    if (kernel) {
      EXPECT_NE(k.ptx.find(".visible .entry " + k.entries[s] + "("), std::string::npos);
    }
  }
  EXPECT_NE(k.ptx.find(".maxntid 256, 1, 1"), std::string::npos);
  EXPECT_NE(k.ptx.find(".minnctapersm 2"), std::string::npos);
  EXPECT_NE(k.ptx.find("atom.global.min.u64"), std::string::npos);  // in_range can fail
  EXPECT_NE(k.ptx.find("%ctaid.x"), std::string::npos);
  EXPECT_NE(k.ptx.find("%nctaid.x"), std::string::npos);  // grid-stride
}

// The stress program's kernels as host twins over several grids, against
// the CPU back end: equal columns, equal first failure (row, step, member).
TEST(HostTwin, SimulatedGridsMatchTheCpuBatchTier) {
  const auto program = compile_file(stress_file());
  BatchOptions options;
  options.coordinates = {0, 7};
  const auto cpu_backend = cpu::make_batch_backend(prepared(program, options));
  const batch::PreparedBatch& b = cpu_backend->batch();
  const uint64_t ranges[][2] = {{0, 1000}, {(1ull << 32) - 300, 600}, {~0ull - 999, 1000}};
  const gpu::GridShape grids[] = {{1, 1}, {2, 3}, {4, 256}, {64, 256}};
  size_t failures = 0;
  for (const gpu::GridShape grid : grids) {
    const auto twin = gpu::make_host_twin_backend(prepared(program, options), grid);
    for (const auto& [first, count] : ranges) {
      batch::ChunkBuffers want, got;
      cpu_backend->prepare(want, count);
      twin->prepare(got, count);
      const batch::ChunkFailure a = cpu_backend->run(want, first, {}, {});
      const batch::ChunkFailure t = twin->run(got, first, {}, {});
      ASSERT_EQ(a, t) << "grid " << grid.blocks << "x" << grid.threads_per_block << " at " << first;
      failures += a.failed();
      for (size_t o = 0; o < b.plan.outputs.size(); ++o) {
        const plan::BatchValue& v = b.plan.outputs[o];
        if (v.kind != plan::BatchValue::Column) continue;
        for (uint64_t r = 0; r < std::min(count, a.row); ++r) {
          ASSERT_EQ(want.column_pointers[v.index][r], got.column_pointers[v.index][r])
              << "output " << o << " row " << first + r;
        }
      }
    }
  }
  EXPECT_GT(failures, 0u);  // in_range fails on about 3 rows in 1000
}

TEST(HostTwin, RefusesLaunchesOfTwoToThe32Rows) {
  const auto twin = gpu::make_host_twin_backend(prepared(compile_file(stress_file())), {1, 1});
  batch::ChunkBuffers b;
  test::expect_contains(test::thrown_message<Error>([&] { twin->prepare(b, uint64_t{1} << 32); }),
                        {"fewer than 2^32 rows"});
}

TEST(PlanCommand, PrintsPtxAndIrForEitherTarget) {
  const std::string ladder = std::string(POLYRT_SOURCE_DIR) + "/examples/ladder.polydat";
  test::CommandResult r =
      test::run_polyrt("plan " + ladder + " --engine batch --target nvptx --sm 80 --emit-ptx");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(".target sm_80"), std::string::npos);
  EXPECT_NE(r.out.find(".entry polyrt_gpu_kernel_0"), std::string::npos);
  r = test::run_polyrt("plan " + ladder + " --engine batch --target nvptx --emit-llvm");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("nvptx64-nvidia-cuda"), std::string::npos);
  EXPECT_EQ(r.out.find("declare i64 @pd_"), std::string::npos) << "the rtlib is linked";
  r = test::run_polyrt("plan " + ladder + " --engine batch --emit-llvm --before-o2");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("define internal i32 @polyrt_batch_body_0"), std::string::npos);
  EXPECT_NE(r.out.find("declare i64 @pd_"), std::string::npos) << "before O2 it is not";
}

TEST(PlanCommand, DeviceGpuSaysWhatRunsWhereAndWhatIsCopied) {
  const test::CommandResult r = test::run_polyrt("plan " + std::string(POLYRT_SOURCE_DIR) +
                                                 "/examples/users.polydat --device gpu");
  EXPECT_EQ(r.status, 0) << r.err;
  // Every string node is written in the one kernel (word lists, one_of,
  // combinations, format_u64, the concatenations and the lowered first name,
  // a pick of lowered names), their text bounds summed per row; its outputs,
  // texts among them, go to the host at the end.
  test::expect_contains(
      r.out, {"batch plan: 1 step(s)", "kernels on the GPU", "step 0: GPU kernel [",
              "first_names index -> first_name__anon_1", "first_names -> first_name, ",
              "one_of -> region, ", "combinations -> plate, str_lower -> email__anon_0, ",
              "format_u64 -> email__anon_2, str_concat -> email, ",
              "str_concat -> label]; text at most 173 bytes per row\n",
              "copy to the host: seed, user_id, first_name, country, region, age, score, premium, "
              "plate, email, signup_ms, label\n"});
  EXPECT_EQ(r.out.find("host, on a CPU worker"), std::string::npos) << r.out;
}

// The example tables run wholly on a GPU: no host step, and their text rows
// encoded on the device (telemetry's JSON objects and SHA-256, documents'
// tiles too).
TEST(PlanCommand, TheExampleTablesHaveNoHostStepOnTheGpu) {
  for (const char* table : {"users", "lineitem", "telemetry", "documents"}) {
    // No ptxas report: what runs where is the question here.
    const test::CommandResult r = test::run_polyrt_with(
        "POLYRT_PTXAS=/nonexistent/ptxas",
        "plan " + std::string(POLYRT_SOURCE_DIR) + "/examples/" + table + ".polydat --device gpu");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("host, on a CPU worker"), std::string::npos) << table << r.out;
    test::expect_contains(r.out, {"text rows (csv, tsv, jsonl): encoded on the GPU",
                                  "typical text per row, in the outputs each kernel hands over "
                                  "(the CPU tier's rows 0..4095):\n"});
    if (table == std::string_view("users")) {
      // Beside the plan's bound of 173 bytes: what crosses PCIe per row.
      test::expect_contains(
          r.out, {"step 0: 69.0 bytes (first_name, country, region, plate, email, label)\n"});
    }
  }
  // A row that fails among those measured: the plan is still printed.
  const auto failing = compile("input x\nt := \"v\" + (x + 250) as u8\n");
  test::expect_contains(batch_plan_text(failing, PlanDevice::Gpu, {}, GpuTarget{}),
                        {"step 0: GPU kernel", "not measured: "});
}

// Each kernel's registers, spills and occupancy, as ptxas reports them: the
// launch bounds hold lineitem's kernels to at most 128 registers (2 blocks
// per SM) with no spills. Without ptxas the plan says why there is no report.
TEST(PlanCommand, DeviceGpuShowsEachKernelsRegistersAndOccupancy) {
  const std::string lineitem = std::string(POLYRT_SOURCE_DIR) + "/examples/lineitem.polydat";
  const test::CommandResult none = test::run_polyrt_with("POLYRT_PTXAS=/nonexistent/ptxas",
                                                         "plan " + lineitem + " --device gpu");
  EXPECT_EQ(none.status, 0) << none.err;
  test::expect_contains(none.out, {"POLYRT_PTXAS='/nonexistent/ptxas' is not an executable file"});
  if (!gpu::find_ptxas()) GTEST_SKIP() << "no CUDA toolkit (ptxas) found";
  const test::CommandResult r = test::run_polyrt("plan " + lineitem + " --device gpu");
  EXPECT_EQ(r.status, 0) << r.err;
  test::expect_contains(r.out, {"kernel resources (", "-arch=sm_90 -v), 256 threads per block",
                                "step 0: ", "step 1: "});
  const std::regex report(
      R"(step (\d+): (\d+) registers, 0 bytes stack, no spills; \d block\(s\) per SM, \d+ of 64 warps)");
  size_t kernels = 0;
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), report), end; it != end; ++it) {
    EXPECT_LE(std::stoi((*it)[2]), 128) << it->str();
    ++kernels;
  }
  EXPECT_EQ(kernels, 2u) << r.out;
}

// The one reading of a CUDA driver version, for the command and Python.
TEST(PlanCommand, CudaDriverVersionsReadAsTheDriverReportsThem) {
  EXPECT_EQ(cuda_driver_version_named("12.4"), 12040u);
  EXPECT_EQ(cuda_driver_version_named("12040"), 12040u);
  EXPECT_EQ(cuda_driver_version_named("11.0"), 11000u);
  EXPECT_EQ(cuda_driver_version_named("12.10"), 12100u);
  for (const char* bad :
       {"", "12", "12.", ".4", "12.x", "12.100", "12.4.1", "-12.4", "4294967.5"}) {
    EXPECT_EQ(cuda_driver_version_named(bad), std::nullopt) << bad;
  }
}

TEST(PlanCommand, RefusesBadGpuOptions) {
  const std::string ladder = std::string(POLYRT_SOURCE_DIR) + "/examples/ladder.polydat";
  const struct {
    const char* args;
    const char* says;
  } cases[] = {
      {" --engine batch --target nvptx --sm 91 --emit-ptx", "supports 60, 61, 62, 70"},
      {" --engine batch --target nvptx --sm abc --emit-ptx", "--sm expects a compute capability"},
      {" --engine batch --target nvptx --cuda-driver 12.x --emit-ptx", "--cuda-driver expects"},
      {" --engine batch --target nvptx --cuda-driver 11.7 --emit-ptx", "cannot run sm_90"},
      {" --engine batch --emit-ptx", "apply to --target nvptx"},
      {" --target nvptx --emit-ptx", "--target applies to --engine batch"},
      {" --engine batch --target gpu", "--target must be cpu or nvptx"},
      {" --engine batch --before-o2", "--before-o2 applies to"},
      {" --device tpu", "--device must be cpu or gpu"},
  };
  for (const auto& c : cases) {
    const test::CommandResult r = test::run_polyrt("plan " + ladder + c.args);
    EXPECT_EQ(r.status, 2) << c.args;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << "\n" << r.err;
  }
}

}  // namespace
}  // namespace polyrt
