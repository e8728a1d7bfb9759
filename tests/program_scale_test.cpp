// Big and deep programs: nesting fails cleanly before any recursion could
// overflow the stack, flat chains and long forward chains are not "deep",
// and programs past the native size limit still compile (on closures, the
// batch tier as host steps) with a warning. Values are checked against the
// interpreter or computed by hand; speed lives in bench/compile_scale_bench.cpp.
#include <gtest/gtest.h>

#include "bench/generated_programs.hpp"
#include "plan/native_limits.hpp"
#include "polyrt/batch.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

CompileOptions on(Engine engine) {
  CompileOptions options;
  options.engine = engine;
  return options;
}

void expect_too_deep(const std::string& source) {
  try {
    compile(source, on(Engine::Interpreter));
    ADD_FAILURE() << "compiled: " << source.substr(0, 80);
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("nested too deeply"), std::string::npos) << e.what();
  }
}

std::string repeat(const std::string& piece, size_t times) {
  std::string out;
  for (size_t i = 0; i < times; ++i) out += piece;
  return out;
}

// Compile memory grows with the terms: past a million tokens a program is a
// clean error at the token past the limit, before a graph is built (a
// 2M-term sum used to take 3 GB).
TEST(ProgramScale, MoreThanAMillionTokensIsACleanError) {
  EXPECT_NO_THROW(compile("input x\nv := x" + repeat(" + 1", 499990), on(Engine::Interpreter)));
  try {
    compile("input x\nv := x" + repeat(" + 1", 500010), on(Engine::Interpreter));
    ADD_FAILURE() << "compiled";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 1000000 tokens"), std::string::npos)
        << std::string(e.what()).substr(0, 300);
    EXPECT_EQ(e.line(), 2);
  }
}

TEST(ProgramScale, DeepNestingOfEveryKindIsACleanError) {
  expect_too_deep("v := " + repeat("(", 100000) + "1" + repeat(")", 100000));
  expect_too_deep("v := " + repeat("-", 100000) + "1");
  expect_too_deep("v := " + repeat("!", 100000) + "1");
  expect_too_deep("input x\nv := " + repeat("hash(", 50000) + "x" + repeat(")", 50000));
  expect_too_deep("input x\nv := " + repeat("[", 50000) + "1" + repeat("]", 50000));
  // Right-associative: every ** nests.
  expect_too_deep("input x\nv := x" + repeat(" ** x", 50000));
  // Each else-if nests one if in the else branch.
  std::string chain = "input x\nv := ";
  for (int i = 0; i < 30000; ++i) chain += "if x == " + std::to_string(i) + " { 1 } else ";
  expect_too_deep(chain + "{ 0 }");
  // Interpolation bodies continue the nesting of the string that holds them.
  expect_too_deep("input x\nv := " + repeat("str_concat(", 200) + "\"{" + repeat("(", 200) + "x" +
                  repeat(")", 200) + "}\"" + repeat(")", 200));
}

TEST(ProgramScale, FlatChainsAreNotDeep) {
  const auto p = compile("input x\nv := x" + repeat(" + x", 99999), on(Engine::Interpreter));
  State s = p->new_state();
  s.set_inputs({3});
  EXPECT_EQ(s.pull("v").as_u64(), 300000u);
  const auto mixed = compile("input x\nv := x" + repeat(" * 1 + x - 1", 20000));
  State m = mixed->new_state();
  m.set_inputs({5});
  EXPECT_EQ(m.pull("v").as_u64(), 5u + 20000u * 4u);
  const auto text = compile("input x\nv := \"\"" + repeat(" + \"ab\"", 50000));
  State t = text->new_state();
  t.set_inputs({0});
  EXPECT_EQ(t.pull("v").as_str().size(), 100000u);
  EXPECT_NO_THROW(compile("input x\nv := x" + repeat(" ** x", 200), on(Engine::Interpreter)));
}

TEST(ProgramScale, LongForwardChainsCompile) {
  // Every binding reads the next one, declared later, through deep nesting:
  // lowering in dependency order never recurses from one binding into another.
  // (2000 bindings of 405 tokens: within the token limit.)
  const size_t n = 2000;
  std::string src = "input x\n";
  for (size_t i = 0; i + 1 < n; ++i) {
    src += "b" + std::to_string(i) + " := " + repeat("(", 200) + "b" + std::to_string(i + 1) +
           " + 1" + repeat(")", 200) + "\n";
  }
  src += "b" + std::to_string(n - 1) + " := x\n";
  const auto p = compile(src, on(Engine::Interpreter));
  State s = p->new_state();
  s.set_inputs({7});
  EXPECT_EQ(s.pull("b0").as_u64(), 7u + n - 1);
  EXPECT_NE(compile_error("input x\na := b + 1\nb := c\nc := a\n")
                .find("dependency cycle: a -> b -> c -> a"),
            std::string::npos);
}

// Chains longer than one fused unit are cut into several native functions
// (per-state segments and batch kernels); the values do not change.
TEST(ProgramScale, ChainsLongerThanOneFusedUnitMatchTheInterpreter) {
  const size_t n = 5 * plan::kMaxFusedNodes + 3;
  const std::string src = bench::hash_chain_program((int64_t)n);
  const auto oracle = compile(src, on(Engine::Interpreter));
  const auto native = compile(src, on(Engine::Native));
  const std::string last = "b" + std::to_string(n - 1);
  BatchOptions options;
  options.outputs = {"b0", last};
  BatchEvaluator batch(oracle, options);
  const auto columns = batch.evaluate(1000, 64);
  State a = oracle->new_state(), b = native->new_state();
  for (uint64_t x = 1000; x < 1064; ++x) {
    a.set_inputs({x});
    b.set_inputs({x});
    const uint64_t want = a.pull(last).as_u64();
    ASSERT_EQ(b.pull(last).as_u64(), want) << x;
    ASSERT_EQ(columns[1].words[x - 1000], want) << x;
    ASSERT_EQ(columns[0].words[x - 1000], a.pull("b0").as_u64()) << x;
  }
}

// Past the native size limit: closures for the native engine, host steps for
// the batch tier, a warning saying so, and the same values.
TEST(ProgramScale, ProgramsPastTheNativeLimitRunOnClosuresWithAWarning) {
  const size_t n = plan::kMaxNativeNodes / 2 + 10;  // two native nodes per binding
  const std::string src = bench::hash_chain_program((int64_t)n);
  const auto native = compile(src, on(Engine::Native));
  EXPECT_EQ(native->engine_name().rfind("closures", 0), 0u) << native->engine_name();
  ASSERT_FALSE(native->warnings().empty());
  EXPECT_NE(native->warnings().back().find("closure"), std::string::npos);
  const auto oracle = compile(src, on(Engine::Interpreter));
  const std::string last = "b" + std::to_string(n - 1);
  BatchOptions options;
  options.outputs = {last};
  const auto columns = BatchEvaluator(oracle, options).evaluate(5, 3);
  State a = oracle->new_state(), b = native->new_state();
  for (uint64_t x = 5; x < 8; ++x) {
    a.set_inputs({x});
    b.set_inputs({x});
    EXPECT_EQ(b.pull(last).as_u64(), a.pull(last).as_u64());
    EXPECT_EQ(columns[0].words[x - 5], a.pull(last).as_u64());
  }
}

// Independent bindings and a long chain: every output can be pulled (cones
// are derived per output on demand, not stored for all of them).
TEST(ProgramScale, HundredThousandBindingsCompileAndPull) {
  std::string indep = "input x\n", chain = "input x\nc0 := x\n";
  for (int i = 0; i < 100000; ++i)
    indep += "b" + std::to_string(i) + " := x + " + std::to_string(i) + "\n";
  for (int i = 1; i < 100000; ++i)
    chain += "c" + std::to_string(i) + " := c" + std::to_string(i - 1) + " + 1\n";
  for (Engine engine : {Engine::Interpreter, Engine::Closures}) {
    State a = compile(indep, on(engine))->new_state();
    a.set_inputs({10});
    EXPECT_EQ(a.pull("b99999").as_u64(), 100009u);
    EXPECT_EQ(a.pull("b5").as_u64(), 15u);
    State c = compile(chain, on(engine))->new_state();
    c.set_inputs({10});
    EXPECT_EQ(c.pull("c99999").as_u64(), 100009u);
    c.set_inputs({11});
    EXPECT_EQ(c.pull("c5").as_u64(), 16u);
    EXPECT_EQ(c.pull("c99999").as_u64(), 100010u);
  }
}

// Pulling every output of a long chain (what `polyrt eval` does): cones too
// long to keep are searched for their stale steps on each pull, so the whole
// sweep is linear, in any order, on every provenance mode.
TEST(ProgramScale, EveryOutputOfALongChainCanBePulled) {
  const int n = 50000;
  std::string chain = "input x\nc0 := x\n";
  for (int i = 1; i < n; ++i)
    chain += "c" + std::to_string(i) + " := c" + std::to_string(i - 1) + " + 1\n";
  for (Provenance mode : {Provenance::Raw, Provenance::Pull, Provenance::PushPull}) {
    CompileOptions options = on(Engine::Closures);
    options.provenance = mode;
    State s = compile(chain, options)->new_state();
    s.set_inputs({10});
    for (int i = 0; i < n; ++i) ASSERT_EQ(s.pull_at((size_t)i).as_u64(), 10u + (uint64_t)i) << i;
    s.set_inputs({20});
    for (int i = n - 1; i >= 0; i -= 7) ASSERT_EQ(s.pull_at((size_t)i).as_u64(), 20u + (uint64_t)i);
    s.set_inputs({30});
    EXPECT_EQ(s.pull_at(n / 2).as_u64(), 30u + n / 2);
    EXPECT_EQ(s.pull_at(n - 1).as_u64(), 30u + n - 1);
  }
}

}  // namespace
}  // namespace polyrt::test
