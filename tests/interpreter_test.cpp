// P1 semantics: laziness, memoization, invalidation, None, volatile, side
// channels, failures, const bindings and cloning. log_info nodes make every
// evaluation of a step observable.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "bench/ladder_baseline.hpp"
#include "graph/graph.hpp"
#include "program/program_internals.hpp"
#include "rtlib/rtlib.h"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// These tests pin P1's semantics; the differential test holds the other engines to them.
std::shared_ptr<const Program> compile_p1(const std::string& source, CompileOptions options = {}) {
  options.engine = Engine::Interpreter;
  return polyrt::compile(source, options);
}

std::shared_ptr<const Program> compile_file_p1(const std::string& path) {
  CompileOptions options;
  options.engine = Engine::Interpreter;
  return polyrt::compile_file(path, options);
}

struct Log {
  std::vector<std::string> lines;
  LogSink sink() {
    return [this](std::string_view l) { lines.emplace_back(l); };
  }
  size_t take() {
    const size_t n = lines.size();
    lines.clear();
    return n;
  }
};

TEST(Interpreter, LadderGraphMatchesHandWrittenCode) {
  auto p = compile_file_p1(bench::kLadderFile);
  State s = p->new_state();
  for (uint64_t cycle = 0; cycle < 100; ++cycle) {
    s.set_inputs({cycle, 77, 5});
    const bench::LadderOutputs want = bench::ladder_baseline(cycle, 77, 5);
    EXPECT_EQ(s.pull("account_id").as_u64(), want.account_id);
    EXPECT_EQ(s.pull("shard").as_u64(), want.shard);
    EXPECT_EQ(s.pull("payload_class").as_u64(), want.payload_class);
    EXPECT_EQ(s.pull("event_token").as_u64(), want.event_token);
  }
  EXPECT_EQ(s.engine(), "interpreter");
}

TEST(Interpreter, PullsAreLazyAndMemoized) {
  auto p =
      compile_p1("input a\ninput b\nx := log_info(hash(a))\ny := log_info(hash(b))\nz := x + y\n");
  State s = p->new_state();
  Log log;
  s.set_log_sink(log.sink());
  s.set_inputs({1, 2});
  EXPECT_EQ(log.take(), 0u);  // writes run nothing
  s.pull("x");
  EXPECT_EQ(log.take(), 1u);  // only x's cone
  s.pull("x");
  EXPECT_EQ(log.take(), 0u);  // memoized
  s.pull("z");
  EXPECT_EQ(log.take(), 1u);  // y runs once, x is current
  s.set_inputs({1, 3});       // a keeps its value: only b changed
  s.pull("y");
  EXPECT_EQ(log.take(), 1u);
  s.pull("z");
  EXPECT_EQ(log.take(), 0u);
  s.set_inputs({2, 3});
  s.pull("z");
  EXPECT_EQ(log.take(), 1u);
  s.invalidate_all();
  s.pull("z");
  EXPECT_EQ(log.take(), 2u);
  s.eval();
  EXPECT_EQ(log.take(), 0u);
}

TEST(Interpreter, SideChannelLinesAndDeadCodeKeepsThem) {
  CompileOptions o;
  o.required_outputs = {"y"};
  auto p = compile_p1("input a\nx := log_info(a * 2)\ny := a + 1\n", o);
  EXPECT_EQ(p->output_names(), (std::vector<std::string>{"y"}));
  State s = p->new_state();
  Log log;
  s.set_log_sink(log.sink());
  s.set_inputs({21});
  s.eval();
  ASSERT_EQ(log.lines.size(), 1u);
  EXPECT_EQ(log.lines[0], "log_info: 42");
}

// polydat's other levels: the same pass-through, the line named by its node.
TEST(Interpreter, EveryLogLevelPassesItsValueThrough) {
  auto p =
      compile_p1("input a\nd := log_debug(a)\nw := log_warn(\"w{a}\")\ne := log_error(a * 1.5)\n");
  State s = p->new_state();
  Log log;
  s.set_log_sink(log.sink());
  s.set_inputs({2});
  EXPECT_EQ(s.pull("w").as_str(), "w2");
  s.eval();
  std::sort(log.lines.begin(), log.lines.end());
  EXPECT_EQ(log.lines, (std::vector<std::string>{"log_debug: 2", "log_error: 3", "log_warn: w2"}));
}

TEST(Interpreter, VolatileIsReadOncePerWrite) {
  auto p = compile_p1("input a\nvolatile t := log_info(a)\nu := t + 1\nw := hash(a)\n");
  State s = p->new_state();
  Log log;
  s.set_log_sink(log.sink());
  s.set_inputs({1});
  s.pull("u");
  s.pull("t");
  EXPECT_EQ(log.take(), 1u);
  s.pull("w");
  EXPECT_EQ(log.take(), 0u);
  s.set_inputs({1});
  s.pull("u");
  EXPECT_EQ(log.take(), 1u);
}

TEST(Interpreter, NondeterministicNodeIsVolatileAndNeverFolded) {
  auto p = compile_p1("now := current_epoch_millis()\nlater := now + 0\n");
  State s = p->new_state();
  const uint64_t first = s.pull("later").as_u64();
  EXPECT_GT(first, 1700000000000u);
  EXPECT_EQ(s.pull("later").as_u64(), first);  // one read between writes
  std::this_thread::sleep_for(std::chrono::milliseconds(3));
  s.set_inputs({});
  EXPECT_GT(s.pull("later").as_u64(), first);
}

TEST(Interpreter, NoneFromUnsetExterns) {
  auto p = compile_p1(
      "input cycle\nextern nick: str\nextern limit: u64 = 5\n"
      "shown := default_or(nick, \"anonymous\")\nraw := \"hello {nick}\"\n"
      "n := this_or(limit, 9) + cycle\nneed := required(limit, \"limit\")\n");
  State s = p->new_state();
  s.set_inputs({1});
  EXPECT_EQ(s.pull("shown").as_str(), "anonymous");
  EXPECT_TRUE(s.pull("raw").is_none());
  EXPECT_EQ(s.pull("n").as_u64(), 6u);
  s.set_input("nick", Value::str("ana"));
  EXPECT_EQ(s.pull("shown").as_str(), "ana");
  EXPECT_EQ(s.pull("raw").as_str(), "hello ana");
  s.set_input("limit", Value::none());
  EXPECT_EQ(s.pull("n").as_u64(), 10u);
  try {
    s.pull("need");
    FAIL();
  } catch (const EvalError& e) {
    EXPECT_NE(std::string(e.what()).find("limit was not defined"), std::string::npos) << e.what();
  }
  s.set_input("nick", Value::none());
  EXPECT_TRUE(s.pull("raw").is_none());
}

TEST(Interpreter, FailureMessageAndRecovery) {
  CompileOptions options;
  options.file_name = "f.polydat";
  auto p = compile_p1(
      "input cycle\nextern hi: u64 = 64\nw := in_range(cycle, 1, 64)\nslot := w * 2\n", options);
  State s = p->new_state();
  s.set_inputs({70});
  try {
    s.pull("slot");
    FAIL();
  } catch (const EvalError& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.node(), "in_range");
    EXPECT_NE(m.find("node 'in_range' in binding 'w' at f.polydat:3:6 failed: value 70 is not in "
                     "range [1, 64]"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("feeds outputs: slot, w"), std::string::npos) << m;
    EXPECT_NE(m.find("inputs: 70"), std::string::npos) << m;
    EXPECT_NE(m.find("coordinates: cycle=70"), std::string::npos) << m;
  }
  EXPECT_THROW(s.pull("slot"), EvalError);  // still failing, still not current
  s.set_inputs({7});
  EXPECT_EQ(s.pull("slot").as_u64(), 14u);  // the state stays usable
}

TEST(Interpreter, ConstBindingsAreFrozenAtStateCreation) {
  auto p = compile_p1("input cycle\nextern salt: u64 = 3\nconst k := hash(salt)\nv := k ^ cycle\n");
  State s = p->new_state();
  s.set_inputs({0});
  EXPECT_EQ(s.pull("v").as_u64(), pd_hash(3));
  s.set_input("salt", Value::u64(4));  // does not update the const
  EXPECT_EQ(s.pull("v").as_u64(), pd_hash(3));
  s.invalidate_all();
  EXPECT_EQ(s.pull("v").as_u64(), pd_hash(3));
  State fresh = p->new_state();
  fresh.set_input("salt", Value::u64(4));
  fresh.set_inputs({0});
  EXPECT_EQ(fresh.pull("v").as_u64(), pd_hash(3));  // defaults decide at creation
}

TEST(Interpreter, ConstantsFoldAtBuild) {
  auto p = compile_p1(
      "input cycle\nconst shards := 32\nconst salt := hash(7)\nshard := (hash(cycle) ^ salt) % "
      "shards\n");
  const auto& g = ProgramInternals::graph(*p);
  size_t calls = 0;
  for (const auto& n : g.nodes) calls += n.kind == ir::NodeKind::Call;
  EXPECT_EQ(calls, 3u);  // hash(cycle), ^, %: hash(7) was folded
  State s = p->new_state();
  s.set_inputs({9});
  EXPECT_EQ(s.pull("shard").as_u64(), (pd_hash(9) ^ pd_hash(7)) % 32);
}

TEST(Interpreter, ClonesOwnTheirBuffers) {
  auto p = compile_p1("input a\nextern e: str = \"x\"\nv := \"{e}-{a}\"\n");
  State s = p->new_state();
  s.set_inputs({1});
  EXPECT_EQ(s.pull("v").as_str(), "x-1");
  State c = s;
  c.set_input("e", Value::str("y"));
  c.set_inputs({2});
  EXPECT_EQ(c.pull("v").as_str(), "y-2");
  EXPECT_EQ(s.pull("v").as_str(), "x-1");
}

TEST(Interpreter, ApiMisuseIsTyped) {
  auto p = compile_p1("input a\nextern e: f64 = 1.0\nv := a + 1\n");
  State s = p->new_state();
  EXPECT_THROW(s.set_inputs({1, 2}), WriteError);
  EXPECT_THROW(s.set_input("e", Value::u64(1)), WriteError);
  EXPECT_THROW(s.set_input("a", Value::u64(1)), WriteError);
  EXPECT_THROW(s.set_input("nope", Value::u64(1)), WriteError);
  EXPECT_THROW(s.pull("nope"), WriteError);
  EXPECT_THROW(s.pull_at(7), WriteError);
  EXPECT_THROW(s.pull("v").as_str(), WriteError);
  EXPECT_EQ(s.output_index("v"), 0u);
}

TEST(Interpreter, AliasesAndDestructuring) {
  auto p = compile_p1("input a\nb := a\nc := b\n(d, e) := mixed_radix(c, 10, 0)\nf := e\n");
  State s = p->new_state();
  s.set_inputs({123});
  EXPECT_EQ(s.pull("c").as_u64(), 123u);
  EXPECT_EQ(s.pull("d").as_u64(), 3u);
  EXPECT_EQ(s.pull("f").as_u64(), 12u);
}

TEST(Interpreter, BoolExterns) {
  auto p = compile_p1("input a\nextern on: bool = true\nv := if(on, a, 0)\nw := on\n");
  State s = p->new_state();
  s.set_inputs({5});
  EXPECT_EQ(s.pull("v").as_u64(), 5u);
  EXPECT_TRUE(s.pull("w").as_bool());
  s.set_input("on", Value::boolean(false));
  EXPECT_EQ(s.pull("v").as_u64(), 0u);
}

// true and false are polydat's bool literals, everywhere a value goes; a
// program's own binding of the name wins.
TEST(Interpreter, TrueAndFalseAreBoolLiterals) {
  const char* program =
      "input a\nt := true\nf := false\nv := if(true, a, 0)\nw := a + true\n"
      "n := if f { 1 } else { 2 }\n";
  auto p = compile_p1(program);
  State s = p->new_state();
  s.set_inputs({5});
  EXPECT_TRUE(s.pull("t").as_bool());
  EXPECT_FALSE(s.pull("f").as_bool());
  EXPECT_EQ(s.pull("v").as_u64(), 5u);
  EXPECT_EQ(s.pull("w").as_u64(), 6u);
  EXPECT_EQ(s.pull("n").as_u64(), 2u);
  for (uint64_t a : {0ull, 9ull}) values_everywhere(program, a, p->output_names());
  auto own = compile_p1("input a\ntrue := a * 2\nv := true + 1\n");
  State o = own->new_state();
  o.set_inputs({4});
  EXPECT_EQ(o.pull("v").as_u64(), 9u);
}

}  // namespace
}  // namespace polyrt::test
