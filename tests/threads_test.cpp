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

TEST(Threads, ConcurrentCompiles) {
  std::atomic<int> ok{0};
  tbb::parallel_for(0, 16, [&](int i) {
    auto p = compile("input x\nv := mod(hash(x), " + std::to_string(i + 1) + ")\n");
    State s = p->new_state();
    s.set_inputs({5});
    if (s.pull("v").as_u64() < (uint64_t)(i + 1)) ++ok;
  });
  EXPECT_EQ(ok.load(), 16);
}

}  // namespace
}  // namespace polyrt::test
