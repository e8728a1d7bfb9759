// A str_concat that reads a zero_pad_u64 is compiled as one printf
// (graph/passes.cpp): the same text as the concatenation of its parts, on
// every per-state engine and the batch tier, braces in literals kept, and
// the zero_pad_u64 gone from the plan unless something else reads it.
#include <gtest/gtest.h>

#include "polyrt/batch.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const char* kProgram = R"(input x: u64
s := one_of(x, "ab", "{{c}}")
padded := "{{id}}-" + zero_pad_u64(x, 7) + "/" + s + zero_pad_u64(x, 0) + "." + x
)";

TEST(ConcatFusion, SameTextOnEveryEngineAndTheBatchTier) {
  for (uint64_t x : {0ull, 5ull, 1234567ull, 123456789ull, ~0ull}) {
    const std::vector<std::string> got = values_everywhere(kProgram, x, {"s", "padded"});
    const std::string s = got[0].substr(4);  // "str " and the text
    const std::string digits = std::to_string(x);
    const std::string padded =
        digits.size() < 7 ? std::string(7 - digits.size(), '0') + digits : digits;
    EXPECT_EQ(got[1], "str {id}-" + padded + "/" + s + digits + "." + digits) << x;
  }
  BatchOptions options;
  options.outputs = {"padded"};
  options.coordinates = {0};
  options.chunk_rows = 1000;
  const auto program = compile(kProgram);
  const auto columns = BatchEvaluator(program, options).evaluate(999000, 3000);
  State state = compile(kProgram, CompileOptions{.engine = Engine::Interpreter})->new_state();
  for (uint64_t r = 0; r < 3000; ++r) {
    state.set_inputs({999000 + r});
    ASSERT_EQ(columns[0].text(r), state.pull("padded").as_str()) << r;
  }
}

TEST(ConcatFusion, ThePaddedColumnIsNotComputedUnlessRead) {
  const std::string dir = temp_dir();
  const std::string alone = write_program(dir, "alone.polydat", kProgram);
  const CommandResult fused = run_polyrt("plan " + alone + " --engine batch");
  ASSERT_EQ(fused.status, 0) << fused.err;
  EXPECT_EQ(fused.out.find("zero_pad_u64"), std::string::npos) << fused.out;
  const std::string shared = write_program(
      dir, "shared.polydat", std::string(kProgram) + "p := zero_pad_u64(x, 7)\nq := \"u\" + p\n");
  const CommandResult kept = run_polyrt("plan " + shared + " --engine batch");
  ASSERT_EQ(kept.status, 0) << kept.err;
  EXPECT_NE(kept.out.find("zero_pad_u64 -> p"), std::string::npos) << kept.out;
}

}  // namespace
}  // namespace polyrt::test
