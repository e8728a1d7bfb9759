// polydat's constant and fixed-list nodes (nodes/nodes_fixed.cpp): the
// assertions of polydat's fixed.rs and identity.rs tests on every engine,
// the batch tier alike, and an empty list refused at compile time.
#include <gtest/gtest.h>

#include "polyrt/batch.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const char* kProgram = R"p(input c
a := const_u64(7)
b := const_f64(3.14)
z := const_f64()
s := const_str("hi")
u := fixed_values_u64(c, 10, 20, 30)
f := fixed_values_f64(c, 1.1, 2.2, 3.3)
t := fixed_values_str(c, "alpha", "beta", "gamma")
always := coin_flip(c, 1.0)
never := coin_flip(c, 0.0)
half := coin_flip(hash(c))
)p";

TEST(FixedNodes, ConstantsAndListsAsPolydatsTests) {
  const std::vector<std::string> names = {"a", "b", "z", "s", "u", "f", "t", "always", "never"};
  EXPECT_EQ(values_everywhere(kProgram, 0, names),
            (std::vector<std::string>{"u64 7", "f64 3.14", "f64 0", "str hi", "u64 10", "f64 1.1",
                                      "str alpha", "bool true", "bool false"}));
  const std::vector<std::string> wrapped = values_everywhere(kProgram, 5, {"u", "f", "t"});
  EXPECT_EQ(wrapped, (std::vector<std::string>{"u64 30", "f64 3.3", "str gamma"}));
  EXPECT_EQ(values_everywhere(kProgram, 3, {"u"})[0], "u64 10");  // wraps
}

TEST(FixedNodes, CoinFlipIsRoughlyFairAndTheBatchTierAgrees) {
  BatchOptions options;
  options.chunk_rows = 1000;
  const auto columns = BatchEvaluator(compile(kProgram), options).evaluate(0, 10000);
  State state = compile(kProgram, CompileOptions{.engine = Engine::Interpreter})->new_state();
  uint64_t trues = 0;
  for (uint64_t r = 0; r < 10000; ++r) {
    state.set_inputs({r});
    for (const Column& column : columns) {
      const Value want = state.pull(column.name);
      if (column.type == Type::Str) {
        ASSERT_EQ(column.text(r), want.as_str()) << column.name;
      } else {
        ASSERT_EQ(column.words[r], word_of(want)) << column.name << " " << r;
      }
    }
    trues += state.pull("half").as_bool();
  }
  EXPECT_NEAR((double)trues / 10000, 0.5, 0.05);
}

TEST(FixedNodes, AnEmptyListIsACompileError) {
  expect_contains(compile_error("input c\nx := fixed_values_u64(c)\n"),
                  {"fixed_values_u64: the value list must not be empty"});
  expect_contains(compile_error("input c\nx := fixed_values_str(c)\n"),
                  {"fixed_values_str: the value list must not be empty"});
}

}  // namespace
}  // namespace polyrt::test
