// A program's seed (CompileOptions::seed, --seed) re-keys its hashed values
// the same way on every engine and tier, and no seed keeps its own values;
// `private` bindings are helpers, never outputs.
#include <gtest/gtest.h>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "rtlib/splitmix.h"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const char* kProgram =
    "input cycle\n"
    "id := hash(cycle)\n"
    "pick := hash_range(cycle, 1000)\n"
    "coin := fair_coin(cycle)\n"
    "share := hash_interval(cycle, 0.0, 1.0)\n"
    "raw := bytes_from_hash(cycle, 4)\n"
    "emb := hash_vec(cycle, 3)\n"
    "plain := cycle * 3\n";

TEST(Seed, ReKeysEveryHashedValueAndNothingElse) {
  const auto plain = compile(kProgram);
  const auto seeded = compile(kProgram, CompileOptions{.seed = 42});
  const auto other = compile(kProgram, CompileOptions{.seed = 43});
  State a = plain->new_state(), b = seeded->new_state(), c = other->new_state();
  for (uint64_t x : {0ull, 1ull, 977ull, ~0ull}) {
    a.set_inputs({x});
    b.set_inputs({x});
    c.set_inputs({x});
    for (const char* name : {"id", "share", "raw", "emb"}) {
      EXPECT_NE(a.pull(name).to_string(), b.pull(name).to_string()) << name << " at " << x;
      EXPECT_NE(b.pull(name).to_string(), c.pull(name).to_string()) << name << " at " << x;
    }
    EXPECT_EQ(a.pull("plain").as_u64(), b.pull("plain").as_u64());  // no hash: unchanged
  }
  // No seed is the program's own values: hash(0) is SplitMix64's first output.
  a.set_inputs({0});
  EXPECT_EQ(a.pull("id").as_u64(), 16294208416658607535ull);
  // The seed is hash(x ^ splitmix64(seed)), and the same seed the same values.
  b.set_inputs({5});
  const auto again = compile(kProgram, CompileOptions{.seed = 42});
  State d = again->new_state();
  d.set_inputs({5});
  EXPECT_EQ(b.pull("id").as_u64(), d.pull("id").as_u64());
}

TEST(Seed, EveryEngineAndTheBatchTierAgree) {
  std::vector<std::string> expected;
  for (const Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    const auto p = compile(kProgram, CompileOptions{.engine = engine, .seed = 7});
    const std::vector<std::string> got = pulled_rows(*p, 100, 300);
    if (expected.empty()) expected = got;
    EXPECT_EQ(got, expected) << (int)engine;
  }
  const auto p = compile(kProgram, CompileOptions{.seed = 7});
  const std::vector<Column> columns = BatchEvaluator(p, {}).evaluate(100, 300);
  for (size_t r = 0; r < 300; ++r) {
    std::string row;
    for (const Column& column : columns) row += column.value(r).to_string() + ",";
    EXPECT_EQ(row, expected[r]) << r;
  }
}

TEST(Seed, TheCommandTakesItEverywhereItCompiles) {
  const std::string dir = temp_dir();
  const std::string file = write_program(dir, "p.polydat", kProgram);
  const CommandResult plain = run_polyrt("run " + file + " --rows 50");
  const CommandResult seeded = run_polyrt("run " + file + " --rows 50 --seed 9");
  ASSERT_EQ(seeded.status, 0) << seeded.err;
  EXPECT_NE(seeded.out, plain.out);
  EXPECT_EQ(run_polyrt("run " + file + " --rows 50 --seed 9 --engine interpreter").out, seeded.out);
  EXPECT_EQ(
      run_polyrt("run " + file + " --rows 50 --seed 9 --parts 2 --out " + dir + "/parts").status,
      0);
  EXPECT_EQ(run_polyrt("eval " + file + " --seed 9 3").status, 0);
  const CommandResult bad = run_polyrt("run " + file + " --rows 5 --seed -3");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--seed must be an unsigned integer"), std::string::npos) << bad.err;
}

TEST(Private, HelpersAreNotOutputs) {
  const auto p = compile(
      "input cycle\n"
      "private seed := hash(cycle)\n"
      "private (a, b) := mixed_radix(seed, 10, 0)\n"
      "id := seed % 1000\n"
      "digit := a\n");
  EXPECT_EQ(p->output_names(), (std::vector<std::string>{"id", "digit"}));
  EXPECT_EQ(p->private_bindings(), (std::vector<std::string>{"seed", "a", "b"}));
  State s = p->new_state();
  s.set_inputs({3});
  EXPECT_EQ(s.pull("id").as_u64(), rt::splitmix64(3) % 1000);
  EXPECT_NE(thrown_message<WriteError>([&] { s.pull("seed"); }).find("'seed' is a private binding"),
            std::string::npos);
  EXPECT_NE(compile_error("input x\nprivate private y := x\n").find("duplicate modifier 'private'"),
            std::string::npos);
  // A binding may still be named `private`.
  EXPECT_EQ(compile("input x\nprivate := x + 1\n")->output_names(),
            (std::vector<std::string>{"private"}));
}

TEST(Private, TheCommandWritesTheTableTheAuthorMeant) {
  const std::string dir = temp_dir();
  const std::string file = write_program(
      dir, "p.polydat", "input cycle\nprivate seed := hash(cycle)\nid := seed % 100\n");
  EXPECT_EQ(run_polyrt("run " + file + " --rows 1").out.substr(0, 3), "id\n");
  const CommandResult asked = run_polyrt("run " + file + " --rows 1 --outputs seed");
  EXPECT_EQ(asked.status, 2);
  EXPECT_NE(asked.err.find("declares private (a helper, not an output); drop 'private'"),
            std::string::npos)
      << asked.err;
}

}  // namespace
}  // namespace polyrt::test
