// Random programs on every engine and mode (tests/differential): a fixed list
// of seeds in CI; `polyrt_difftest --seconds N` soaks with fresh seeds.
#include "tests/differential/differential.hpp"

#include <gtest/gtest.h>

#include "polyrt/traversal.hpp"
#include "tests/differential/random_traversal.hpp"

namespace polyrt::difftest {
namespace {

class Differential : public ::testing::TestWithParam<int> {};

TEST_P(Differential, EnginesAgree) {
  const int block = GetParam();
  for (uint64_t seed = block * 50; seed < (uint64_t)block * 50 + 50; ++seed) {
    const auto report = check_seed(seed);
    ASSERT_FALSE(report.has_value()) << *report;
  }
}

// 20 blocks of 50 seeds: 1,000 programs, run in parallel by ctest, each on
// the GPU tier too (the driver's test double): a GPU compile that fails only
// for some programs (issue 54 met one in ~1,100) must show here first.
INSTANTIATE_TEST_SUITE_P(Seeds, Differential, ::testing::Range(0, 20));

// A program every engine refuses alike counts as agreement, so a generator
// case that does not compile would test nothing (two did not: a side channel
// typed by a second coin toss, n_of with m < n): the generator's programs
// must compile, but for the constant failures it writes on purpose (partition
// specs over extents of 0 and 1, a constant in_range miss), which fold to a
// ConstantFoldError in about one program in ten.
TEST(DifferentialGenerator, ProgramsCompile) {
  size_t folded = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const RandomProgram p = program_for_seed(seed);
    try {
      compile(p.source, CompileOptions{.engine = Engine::Interpreter});
    } catch (const ConstantFoldError&) {
      ++folded;
    } catch (const CompileError& e) {
      FAIL() << "seed " << seed << ": " << e.what() << "\n--- program\n" << p.source;
    }
  }
  EXPECT_LT(folded, 45u);
}

// Random traversals: every engine and the batch tier open the same tuples,
// in the same order, with the same values.
TEST(TraversalDifferential, EnginesAndTiersAgree) {
  size_t lattices = 0, cursors = 0;
  for (uint64_t seed = 0; seed < 150; ++seed) {
    const auto report = check_traversal_seed(seed);
    ASSERT_FALSE(report.has_value()) << "seed " << seed << ": " << *report;
    const TraversalInfo info = traversal_info(*compile(traversal_program_for_seed(seed)), 0);
    lattices += info.lattice_body != nullptr;
    cursors += info.cursors;
  }
  EXPECT_GT(lattices, 40u);  // the batch tier is exercised, not only the per-state engines
  EXPECT_GT(cursors, 10u);   // and bodies whose cursor's bounds are the program's expressions
}

// Seeds that once disagreed (found by soak runs), kept as regressions.
TEST(DifferentialRegressions, FormerFailures) {
  // 783702: two convex units depending on each other both ways left steps unplanned.
  // 909055: a NaN's sign differed between the interpreter and inlined native code.
  for (uint64_t seed : {783702ull, 909055ull}) {
    const auto report = check_seed(seed);
    EXPECT_FALSE(report.has_value()) << *report;
  }
}

}  // namespace
}  // namespace polyrt::difftest
