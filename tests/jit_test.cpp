// The JIT engine: rtlib bitcode linked and inlined, bit-identical to the
// natively compiled rtlib, the object caches, and errors with root causes.
#include <gtest/gtest.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "cache/compiled_cache.hpp"
#include "cache/disk_cache.hpp"
#include "codegen/jit/jit_cpu.hpp"
#include "codegen/jit/jit_engine.hpp"
#include "polyrt/error.hpp"
#include "rtlib/rtlib.h"
#include "tests/test_support.hpp"

namespace polyrt::jit {
using cache::default_cache_dir;
using cache::DiskCache;

namespace {

struct Built {
  std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;
};

// For each rtlib function: void <name>_loop(const T* in, T* out, u64 n) { out[i] = f(in[i]) }.
Built build_loops(JitEngine& jit, const std::vector<std::string>& functions, bool f64) {
  Built b;
  b.module = std::make_unique<llvm::Module>("loops", *b.context);
  b.module->setTargetTriple(jit.triple());
  b.module->setDataLayout(jit.data_layout());
  llvm::LLVMContext& ctx = *b.context;
  llvm::Type* elem = f64 ? llvm::Type::getDoubleTy(ctx) : llvm::Type::getInt64Ty(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  for (const std::string& name : functions) {
    auto* callee_type = llvm::FunctionType::get(elem, {elem}, false);
    llvm::FunctionCallee callee = b.module->getOrInsertFunction(name, callee_type);
    auto* fn = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, ptr, i64}, false),
        llvm::Function::ExternalLinkage, name + "_loop", *b.module);
    llvm::IRBuilder<> ir(ctx);
    auto* entry = llvm::BasicBlock::Create(ctx, "entry", fn);
    auto* loop = llvm::BasicBlock::Create(ctx, "loop", fn);
    auto* done = llvm::BasicBlock::Create(ctx, "done", fn);
    ir.SetInsertPoint(entry);
    ir.CreateCondBr(ir.CreateICmpEQ(fn->getArg(2), ir.getInt64(0)), done, loop);
    ir.SetInsertPoint(loop);
    llvm::PHINode* i = ir.CreatePHI(i64, 2);
    i->addIncoming(ir.getInt64(0), entry);
    llvm::Value* x = ir.CreateLoad(elem, ir.CreateGEP(elem, fn->getArg(0), i));
    ir.CreateStore(ir.CreateCall(callee, {x}), ir.CreateGEP(elem, fn->getArg(1), i));
    llvm::Value* next = ir.CreateAdd(i, ir.getInt64(1));
    i->addIncoming(next, loop);
    ir.CreateCondBr(ir.CreateICmpEQ(next, fn->getArg(2)), done, loop);
    ir.SetInsertPoint(done);
    ir.CreateRetVoid();
  }
  return b;
}

template <typename T>
using Loop = void (*)(const T*, T*, uint64_t);

std::vector<double> probe_doubles() {
  std::vector<double> xs = {0.0,
                            -0.0,
                            1.0,
                            -1.0,
                            0.5,
                            1e-310,
                            -1e-310,
                            1e300,
                            -1e300,
                            710.0,
                            -746.0,
                            3.141592653589793,
                            1.5707963267948966,
                            1e22,
                            0.7853981633974483,
                            __builtin_inf(),
                            -__builtin_inf(),
                            __builtin_nan("")};
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> small(-20.0, 20.0);
  for (int i = 0; i < 40000; ++i) xs.push_back(small(rng));
  for (int i = 0; i < 40000; ++i) {
    const uint64_t bits = rng();
    double d;
    std::memcpy(&d, &bits, 8);
    xs.push_back(d);
  }
  return xs;
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, 8) == 0;
}

TEST(Jit, RtlibFunctionsAreBitIdenticalToNative) {
  JitEngine jit(JitOptions{std::nullopt});
  const std::vector<std::string> names = {"pd_sqrt", "pd_exp",  "pd_ln",   "pd_sin",  "pd_cos",
                                          "pd_tan",  "pd_atan", "pd_asin", "pd_acos", "pd_abs_f64"};
  double (*native[])(double) = {pd_sqrt, pd_exp,  pd_ln,   pd_sin,  pd_cos,
                                pd_tan,  pd_atan, pd_asin, pd_acos, pd_abs_f64};
  Built b = build_loops(jit, names, true);
  std::vector<std::string> symbols;
  for (const auto& n : names) symbols.push_back(n + "_loop");
  auto code = jit.compile(std::move(b.context), std::move(b.module), symbols);
  const std::vector<double> xs = probe_doubles();
  std::vector<double> out(xs.size());
  for (size_t f = 0; f < names.size(); ++f) {
    reinterpret_cast<Loop<double>>(code->address(f))(xs.data(), out.data(), xs.size());
    size_t mismatches = 0;
    for (size_t i = 0; i < xs.size(); ++i) mismatches += !same_bits(out[i], native[f](xs[i]));
    EXPECT_EQ(mismatches, 0u) << names[f];
  }
}

TEST(Jit, HashIsInlinedAndExact) {
  JitEngine jit(JitOptions{std::nullopt});
  Built b = build_loops(jit, {"pd_hash"}, false);
  Built ir_copy = build_loops(jit, {"pd_hash"}, false);
  const std::string ir = jit.code_text(*ir_copy.module, jit::CodeText::Optimized);
  EXPECT_EQ(ir.find("call i64 @pd_hash"), std::string::npos) << ir;
  auto code = jit.compile(std::move(b.context), std::move(b.module), {"pd_hash_loop"});
  std::vector<uint64_t> xs(100000), out(xs.size());
  std::mt19937_64 rng(5);
  for (auto& x : xs) x = rng();
  reinterpret_cast<Loop<uint64_t>>(code->address(0))(xs.data(), out.data(), xs.size());
  for (size_t i = 0; i < xs.size(); ++i) ASSERT_EQ(out[i], pd_hash(xs[i]));
}

TEST(Jit, MemoryAndDiskCaches) {
  const std::string dir = test::temp_dir() + "/cache";
  {
    JitEngine jit(JitOptions{dir});
    Built a = build_loops(jit, {"pd_hash"}, false);
    jit.compile(std::move(a.context), std::move(a.module), {"pd_hash_loop"});
    Built b = build_loops(jit, {"pd_hash"}, false);
    jit.compile(std::move(b.context), std::move(b.module), {"pd_hash_loop"});
    EXPECT_EQ(jit.stats().compiled, 1u);
    EXPECT_EQ(jit.stats().memory_hits, 1u);
  }
  {
    JitEngine fresh(JitOptions{dir});  // as a new process would
    Built c = build_loops(fresh, {"pd_hash"}, false);
    auto code = fresh.compile(std::move(c.context), std::move(c.module), {"pd_hash_loop"});
    EXPECT_EQ(fresh.stats().compiled, 0u);
    EXPECT_EQ(fresh.stats().disk_hits, 1u);
    uint64_t x = 42, y = 0;
    reinterpret_cast<Loop<uint64_t>>(code->address(0))(&x, &y, 1);
    EXPECT_EQ(y, pd_hash(42));
  }
}

// The memory holds at most its budget, the least recently used entries
// leaving first; the disk still has them.
TEST(Jit, TheMemoryCacheKeepsToItsBudget) {
  const std::string dir = test::temp_dir() + "/bounded";
  cache::CompiledCache cache(dir, ".o", 3000);
  const std::string kilobyte(1000, 'x');
  for (const char* key : {"a", "b", "c"}) cache.keep(key, kilobyte);
  EXPECT_EQ(cache.memory_bytes(), 3000u);
  ASSERT_TRUE(cache.find("a").has_value());  // a is now the newest
  cache.keep("d", kilobyte);                 // b, the oldest, leaves memory
  EXPECT_EQ(cache.memory_bytes(), 3000u);
  const uint64_t disk_before = cache.stats().disk_hits;
  EXPECT_EQ(cache.find("b"), kilobyte);  // from disk
  EXPECT_EQ(cache.stats().disk_hits, disk_before + 1);
  EXPECT_EQ(cache.find("a"), kilobyte);  // c left for b: a stayed
  EXPECT_EQ(cache.stats().disk_hits, disk_before + 1);
  cache.keep("huge", std::string(10000, 'y'));  // alone over the budget: kept alone
  EXPECT_EQ(cache.memory_bytes(), 10000u);
  cache::CompiledCache memory_only(std::nullopt, ".o", 1000);
  memory_only.keep("a", kilobyte);
  memory_only.keep("b", kilobyte);
  EXPECT_FALSE(memory_only.find("a").has_value());
  EXPECT_EQ(memory_only.find("b"), kilobyte);
}

// Whatever is planted in the cache directory is never opened for reading:
// a FIFO (would block), a device (would never end), a symlink (could point
// anywhere). A store replaces each with a real entry.
TEST(Jit, CacheEntriesThatAreNotRegularFilesAreIgnored) {
  const std::string dir = test::temp_dir() + "/cache";
  DiskCache cache(dir, ".o");
  cache.store("seed", "x");  // creates the directory
  ASSERT_EQ(::mkfifo(cache.path_of("fifo").c_str(), 0600), 0);
  ASSERT_EQ(::symlink("/dev/zero", cache.path_of("zero").c_str()), 0);
  cache.store("real", "payload");
  ASSERT_EQ(::symlink(cache.path_of("real").c_str(), cache.path_of("link").c_str()), 0);
  EXPECT_FALSE(cache.load("fifo").has_value());
  EXPECT_FALSE(cache.load("zero").has_value());
  EXPECT_FALSE(cache.load("link").has_value());
  EXPECT_EQ(cache.load("real").value_or(""), "payload");
  cache.store("fifo", "now real");
  EXPECT_EQ(cache.load("fifo").value_or(""), "now real");
}

TEST(Jit, CacheSwitchAcceptsTheUsualSpellingsOfOff) {
  const char* saved = std::getenv("POLYRT_CACHE");
  const std::string restore = saved ? saved : "";
  for (const char* off : {"off", "OFF", "0", "false", "False", "no", "NO"}) {
    ::setenv("POLYRT_CACHE", off, 1);
    EXPECT_FALSE(default_cache_dir().has_value()) << off;
  }
  ::setenv("POLYRT_CACHE", "on", 1);
  ::setenv("POLYRT_CACHE_DIR", "/tmp/x", 0);
  EXPECT_TRUE(default_cache_dir().has_value());
  if (saved) {
    ::setenv("POLYRT_CACHE", restore.c_str(), 1);
  } else {
    ::unsetenv("POLYRT_CACHE");
  }
}

TEST(Jit, CorruptCacheFilesAreReplacedNeverLoaded) {
  const std::string dir = test::temp_dir() + "/cache";
  DiskCache cache(dir, ".o");
  cache.store("k", "payload bytes");
  EXPECT_EQ(cache.load("k").value_or(""), "payload bytes");
  {
    std::fstream f(cache.path_of("k"), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-3, std::ios::end);
    f << "XYZ";  // corrupt the payload
  }
  EXPECT_FALSE(cache.load("k").has_value());
  cache.store("k", "payload bytes");
  {
    std::ofstream f(cache.path_of("k"), std::ios::binary | std::ios::trunc);
    f << "PLYRTOBJ";  // truncated
  }
  EXPECT_FALSE(cache.load("k").has_value());
  EXPECT_FALSE(DiskCache(std::nullopt, ".o").load("k").has_value());

  // Through the engine: a damaged object is recompiled and rewritten.
  {
    JitEngine jit(JitOptions{dir});
    Built a = build_loops(jit, {"pd_hash"}, false);
    jit.compile(std::move(a.context), std::move(a.module), {"pd_hash_loop"});
  }
  size_t damaged = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".o") continue;
    std::ofstream(entry.path(), std::ios::binary | std::ios::trunc) << "garbage";
    ++damaged;
  }
  EXPECT_GE(damaged, 1u);
  JitEngine again(JitOptions{dir});
  Built b = build_loops(again, {"pd_hash"}, false);
  auto code = again.compile(std::move(b.context), std::move(b.module), {"pd_hash_loop"});
  EXPECT_EQ(again.stats().compiled, 1u);
  EXPECT_EQ(again.stats().disk_hits, 0u);
  uint64_t x = 7, y = 0;
  reinterpret_cast<Loop<uint64_t>>(code->address(0))(&x, &y, 1);
  EXPECT_EQ(y, pd_hash(7));
}

TEST(Jit, ErrorsNameTheRootCause) {
  JitEngine jit(JitOptions{std::nullopt});
  Built b = build_loops(jit, {"no_such_host_fn"}, false);
  try {
    jit.compile(std::move(b.context), std::move(b.module), {"no_such_host_fn_loop"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_host_fn"), std::string::npos) << e.what();
  }
  Built c = build_loops(jit, {"pd_hash"}, false);
  EXPECT_THROW(jit.compile(std::move(c.context), std::move(c.module), {"missing_symbol"}), Error);
}

TEST(Jit, ProcessEngineUsesTheHostCpu) {
  JitEngine& jit = JitEngine::instance();
  EXPECT_NE(jit.triple().find("x86_64"), std::string::npos);
  EXPECT_FALSE(jit.cpu().empty());
}

// POLYRT_JIT_CPU's check, against made-up hosts (the features a host
// lacks are its "-" entries).
TEST(Jit, AChosenCpuMustNeedNoFeatureTheHostLacks) {
  const std::string triple = JitEngine::instance().triple();
  const JitCpu host{"skylake-avx512", "+avx2,+avx512f,-avx512fp16,-amx-tile"};
  const JitCpu same = choose_jit_cpu(triple, host, "");
  EXPECT_EQ(same.cpu, host.cpu);
  EXPECT_EQ(same.features, host.features);
  const JitCpu avx2 = choose_jit_cpu(triple, host, "x86-64-v3");
  EXPECT_EQ(avx2.cpu, "x86-64-v3");
  EXPECT_EQ(avx2.features, "");  // the CPU's own
  const JitCpu no_avx512{"haswell", "+avx2,-avx512f,-avx512bw,-avx512dq"};
  test::expect_contains(
      test::thrown_message<Error>([&] { choose_jit_cpu(triple, no_avx512, "x86-64-v4"); }),
      {"POLYRT_JIT_CPU=x86-64-v4 needs features this haswell host lacks", "avx512f",
       "would fault"});
  test::expect_contains(
      test::thrown_message<Error>([&] { choose_jit_cpu(triple, host, "cortex-a53"); }),
      {"names no CPU LLVM knows", "x86-64-v3", "the host is skylake-avx512"});
  // 32-bit CPUs are names LLVM knows, and once aborted the process
  // ("64-bit code requested on a subtarget that doesn't support it").
  for (const char* cpu : {"i386", "i686", "pentium4", "yonah", "lakemont", "k6-2"}) {
    test::expect_contains(test::thrown_message<Error>([&] { choose_jit_cpu(triple, host, cpu); }),
                          {"names a 32-bit CPU", "x86-64-v3"});
  }
}

// The command refuses it too, as a clean error (the process used to abort).
TEST(Jit, ThirtyTwoBitCpusAreRefusedByTheCommand) {
  const test::CommandResult r = test::run_polyrt_with(
      "POLYRT_JIT_CPU=i386", "run " + std::string(POLYRT_SOURCE_DIR) +
                                 "/examples/ladder.polydat --cycles 0..2 --engine native");
  EXPECT_EQ(r.status, 1) << r.err;
  test::expect_contains(r.err, {"POLYRT_JIT_CPU=i386 names a 32-bit CPU"});
}

}  // namespace
}  // namespace polyrt::jit
