// A pure str function of one table pick compiles to a pick of the mapped
// entries (graph/passes.cpp, map_picked_entries): the same text as the
// function applied row by row, and on a GPU a text its kernel writes.
#include <gtest/gtest.h>

#include "polyrt/batch.hpp"
#include "polyrt/introspect.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// `+ ""` gives the function a second input: it is not mapped, the reference.
const char* kProgram = R"(input x: u64
h := hash(x)
lower := str_lower(first_names(h))
lower_ref := str_lower(first_names(h) + "")
upper := str_upper(str_lower(one_of(h, "Ab", "éÉ", "")))
upper_ref := str_upper(str_lower(one_of(h, "Ab", "éÉ", "") + ""))
)";

TEST(PickMapping, SameTextAsTheFunctionRowByRow) {
  for (Engine engine : {Engine::Interpreter, Engine::Native}) {
    State state = compile(kProgram, CompileOptions{.engine = engine})->new_state();
    for (uint64_t x = 0; x < 3000; ++x) {
      state.set_inputs({x});
      ASSERT_EQ(state.pull("lower").as_str(), state.pull("lower_ref").as_str()) << x;
      ASSERT_EQ(state.pull("upper").as_str(), state.pull("upper_ref").as_str()) << x;
    }
  }
  const auto columns =
      BatchEvaluator(compile(kProgram), BatchOptions{}).evaluate(~uint64_t{0} - 2999, 3000);
  for (uint64_t r = 0; r < 3000; ++r) {
    ASSERT_EQ(columns[1].text(r), columns[2].text(r)) << r;
    ASSERT_EQ(columns[3].text(r), columns[4].text(r)) << r;
  }
}

TEST(PickMapping, TheMappedPickIsWrittenByTheGpuKernel) {
  const BatchPlanView plan = batch_plan(compile(kProgram), PlanDevice::Gpu, {"lower", "upper"});
  ASSERT_FALSE(plan.steps.empty());
  for (const PlanStep& step : plan.steps) EXPECT_EQ(step.kind, "GPU kernel");
  const std::string text = batch_plan_text(compile(kProgram), PlanDevice::Gpu, {"lower_ref"});
  EXPECT_NE(text.find("[str_lower -> lower_ref]: no GPU form of 'str_lower'"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace polyrt::test
