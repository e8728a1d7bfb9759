// Nulls per row: `if c { None } else { x }`, null_if and
// null_with_probability make them; a node's result is null where an input
// is; default_or ends it. Every engine and the batch tier agree on which
// rows are null, and the writers write them as empty fields, JSON's null
// and Arrow's validity (python/tests/test_nulls.py reads those back).
#include <gtest/gtest.h>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "rtlib/splitmix.h"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const char* kProgram =
    "input cycle\n"
    "private h := hash(cycle)\n"
    "email := null_with_probability(h + 1, 0.25, \"u\" + format_u64(cycle) + \"@x.io\")\n"
    "age := if h % 4 == 0 { None } else { 18 + h % 60 }\n"
    "older := age + 1\n"
    "safe := default_or(age, 0)\n"
    "when := null_if(cycle % 3 == 0, (1704067200000 + cycle * 86400000) as timestamp)\n"
    "either := if cycle % 2 == 0 { age } else { older * 2 }\n";

TEST(Nulls, TheCheckerSaysWhichOutputsMayBeNull) {
  const auto p = compile(kProgram);
  const auto nullable = [&](const char* name) {
    return p->output_nullable(p->require_output(name));
  };
  EXPECT_TRUE(nullable("email"));
  EXPECT_TRUE(nullable("age"));
  EXPECT_TRUE(nullable("older"));  // propagated
  EXPECT_FALSE(nullable("safe"));  // default_or ends it
  EXPECT_TRUE(nullable("when"));
  EXPECT_TRUE(nullable("either"));
  EXPECT_EQ(p->output_names(),
            (std::vector<std::string>{"email", "age", "older", "safe", "when", "either"}));
  EXPECT_EQ(logical_type_name(p->output_logical_type(p->require_output("when"))), "timestamp");
  State s = p->new_state();
  uint64_t nulls = 0;
  for (uint64_t c = 0; c < 4000; ++c) {
    s.set_inputs({c});
    const Value age = s.pull("age");
    EXPECT_EQ(age.is_none(), rt::splitmix64(c) % 4 == 0) << c;
    EXPECT_EQ(s.pull("older").is_none(), age.is_none());
    EXPECT_EQ(s.pull("safe").as_u64(), age.is_none() ? 0 : age.as_u64());
    EXPECT_EQ(s.pull("when").is_none(), c % 3 == 0);
    nulls += s.pull("email").is_none();
  }
  EXPECT_NEAR((double)nulls / 4000, 0.25, 0.03);
}

TEST(Nulls, EveryEngineAndTheBatchTierAgree) {
  std::vector<std::string> expected;
  for (const Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    const auto p = compile(kProgram, CompileOptions{.engine = engine});
    const std::vector<std::string> got = pulled_rows(*p, 100, 300);
    if (expected.empty()) expected = got;
    EXPECT_EQ(got, expected) << (int)engine;
  }
  const auto p = compile(kProgram);
  const std::vector<Column> columns = BatchEvaluator(p, {}).evaluate(100, 300);
  for (size_t r = 0; r < 300; ++r) {
    std::string row;
    for (const Column& column : columns) row += column.value(r).to_string() + ",";
    EXPECT_EQ(row, expected[r]) << r;
  }
  // A seed moves which rows are null, the same way everywhere.
  const auto seeded = compile(kProgram, CompileOptions{.seed = 5});
  EXPECT_NE(pulled_rows(*seeded, 0, 50), pulled_rows(*p, 0, 50));
  EXPECT_EQ(
      pulled_rows(*compile(kProgram, CompileOptions{.engine = Engine::Interpreter, .seed = 5}), 0,
                  50),
      pulled_rows(*seeded, 0, 50));
}

// default_or's value is lowered once: each level once lowered it twice, to
// see whether it was nullable, so 22 nested calls took 10 s (2^22 lowerings)
// and these 40 would not finish before the test's timeout.
TEST(Nulls, NestedDefaultsLowerEachArgumentOnce) {
  for (const std::string inner : {"cycle", "null_if(cycle % 2, cycle)"}) {
    std::string e = inner;
    for (int level = 0; level < 40; ++level) {
      e = "default_or(" + e + ", " + std::to_string(level) + ")";
    }
    State s = compile("input cycle\nv := " + e + "\n")->new_state();
    s.set_inputs({3});
    EXPECT_EQ(s.pull("v").as_u64(), inner == "cycle" ? 3u : 0u) << inner;
  }
}

TEST(Nulls, AValueThatFailsFailsItsRowNullOrNot) {
  // The batch tier computes every column: so the per-state engines compute
  // a null row's value too, and its failure is the row's.
  const char* source = "input x\nv := null_if(x == 0, (x - 1) as u8)\n";
  State s = compile(source)->new_state();
  s.set_inputs({0});
  expect_contains(thrown_message<EvalError>([&] { s.pull("v"); }), {"does not fit u8"});
  const std::string batch =
      thrown_message<EvalError>([&] { BatchEvaluator(compile(source), {}).evaluate(0, 3); });
  expect_contains(batch, {"does not fit u8", "x=0"});
}

TEST(Nulls, WhatCannotTakeANullIsRefusedSayingWhy) {
  expect_contains(compile_error("input x\nv := required(if x == 0 { None } else { x })\n"),
                  {"'required' reads a value that may be null", "default_or(value, fallback)"});
  expect_contains(compile_error("input x\nv := if x == 0 { None } else { None }\n"),
                  {"both branches of this if are None"});
  expect_contains(compile_error("input x\nv := null_if(x as f64, x)\n"),
                  {"the condition of 'null_if' must be an integer"});
  expect_contains(compile_error("input x\nv := null_if(x)\n"),
                  {"null_if(condition, value) takes 2 arguments"});
  expect_contains(compile_error("input x\nv := null_with_probability(x, 1.5, x)\n"),
                  {"bad argument of 'unfair_coin'"});
  const auto p = compile("input x\nv := null_if(x % 2, x)\n");
  std::vector<uint64_t> into(4);
  std::vector<uint64_t*> destinations{into.data()};
  expect_contains(
      thrown_message<WriteError>([&] { BatchEvaluator(p, {}).evaluate_into(0, 4, destinations); }),
      {"output 'v' may be null; evaluate_into writes columns of values only"});
}

TEST(Nulls, TheCommandWritesEmptyFieldsAndJsonNulls) {
  const std::string dir = temp_dir();
  const std::string file = write_program(dir, "p.polydat",
                                         "input cycle\n"
                                         "n := if cycle % 2 == 1 { None } else { cycle * 10 }\n"
                                         "s := null_if(cycle == 0, \"a,b\")\n");
  const CommandResult csv = run_polyrt("run " + file + " --rows 3");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out, "n,s\n0,\n,\"a,b\"\n20,\"a,b\"\n");
  EXPECT_EQ(run_polyrt("run " + file + " --rows 3 --engine interpreter").out, csv.out);
  EXPECT_EQ(run_polyrt("run " + file + " --rows 3 --format tsv").out,
            "n\ts\n0\t\n\ta,b\n20\ta,b\n");
  EXPECT_EQ(run_polyrt("run " + file + " --rows 2 --format jsonl").out,
            "{\"n\":0,\"s\":null}\n{\"n\":null,\"s\":\"a,b\"}\n");
  const CommandResult npy =
      run_polyrt("run " + file + " --rows 2 --format npy --out " + dir + "/n");
  EXPECT_EQ(npy.status, 2);
  expect_contains(npy.err, {"npy output has no nulls; output 'n' may be null"});
  const CommandResult strict = run_polyrt("run " + file + " --rows 2 --no-nulls");
  EXPECT_EQ(strict.status, 2);
  expect_contains(strict.err, {"output 'n' may be null", "--no-nulls refuses it"});
  EXPECT_EQ(run_polyrt("run " + file + " --rows 2 --no-nulls --outputs s").status, 2);
  const CommandResult stats = run_polyrt("stats " + file + " --cycles 0..1000");
  ASSERT_EQ(stats.status, 0) << stats.err;
  expect_contains(stats.out, {"n  u64  1,000 rows, 500 null (50.00%)", "min 0  max 9980",
                              "s  str  1,000 rows, 1 null (0.10%)"});
}

}  // namespace
}  // namespace polyrt::test
