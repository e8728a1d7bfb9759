// One Program, many States on many threads (oneTBB): every thread computes
// exactly what a single state computes alone.
#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

#include <atomic>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

TEST(Threads, OneProgramManyStates) {
  auto p = compile(
      "input cycle\nextern salt: u64 = 3\n"
      "h := hash(cycle ^ salt)\nname := one_of_weighted(h, \"a:1,b:2\")\n"
      "score := dist_normal(unit_interval(h), 10.0, 2.0)\nlabel := \"{name}-{format_f64(score, "
      "3)}\"\n");
  constexpr uint64_t kRows = 20000;
  std::vector<std::string> expected(kRows);
  {
    State s = p->new_state();
    for (uint64_t c = 0; c < kRows; ++c) {
      s.set_inputs({c});
      expected[c] = s.pull("label").as_str();
    }
  }
  std::atomic<uint64_t> mismatches{0};
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, kRows, 256),
                    [&](const tbb::blocked_range<uint64_t>& r) {
                      State s = p->new_state();
                      for (uint64_t c = r.begin(); c < r.end(); ++c) {
                        s.set_inputs({c});
                        if (s.pull("label").as_str() != expected[c]) ++mismatches;
                      }
                    });
  EXPECT_EQ(mismatches.load(), 0u);
}

// Sixteen programs compiled to native code at once give the interpreter's
// values (computed first, one at a time): the JIT, its caches and the
// registry are shared by the compiles.
TEST(Threads, ConcurrentCompiles) {
  const auto source = [](int i) {
    return "input x\nv := mod(hash(u64_xor(x, " + std::to_string(i * 7919) + ")), " +
           std::to_string(i + 2) + ")\nw := printf(\"{}-{}\", v, x * " + std::to_string(i) + ")\n";
  };
  const auto values = [](const std::shared_ptr<const Program>& program) {
    State state = program->new_state();
    std::vector<std::string> out;
    for (uint64_t x = 0; x < 50; ++x) {
      state.set_inputs({x * 977});
      out.push_back(state.pull("v").to_string() + " " + state.pull("w").to_string());
    }
    return out;
  };
  std::vector<std::vector<std::string>> want(16);
  for (int i = 0; i < 16; ++i) {
    want[i] = values(compile(source(i), CompileOptions{.engine = Engine::Interpreter}));
  }
  std::vector<std::vector<std::string>> got(16);
  tbb::parallel_for(0, 16, [&](int i) {
    got[i] = values(compile(source(i), CompileOptions{.engine = Engine::Native}));
  });
  EXPECT_EQ(got, want);
}

}  // namespace
}  // namespace polyrt::test
