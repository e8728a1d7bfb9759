// polydat's grammar beyond modules: inferred inputs, shared cells, advisory
// coordinate types, and the constructs polyrt refuses by name.
#include <gtest/gtest.h>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

TEST(GrammarCompat, UndeclaredNamesAreInputsInOrderOfFirstUse) {
  auto p = compile("a := hash(cycle) + thread\nb := cycle * 2\nc := shard + a\n");
  EXPECT_EQ(p->input_names(), (std::vector<std::string>{"cycle", "thread", "shard"}));
  State s = p->new_state();
  s.set_inputs({3, 4, 5});
  auto q = compile("input (cycle, thread, shard)\na := hash(cycle) + thread\n");
  State t = q->new_state();
  t.set_inputs({3, 4, 5});
  EXPECT_EQ(s.pull("a").as_u64(), t.pull("a").as_u64());
  EXPECT_EQ(s.pull("c").as_u64(), s.pull("a").as_u64() + 5);
  // Declared inputs come first, in declaration order.
  EXPECT_EQ(compile("x := seed + lane\ninput lane\n")->input_names(),
            (std::vector<std::string>{"lane", "seed"}));
}

TEST(GrammarCompat, ANearMissOfAKnownNameIsStillATypo) {
  expect_contains(
      compile_error("input cycle\nv := hash(cycel)\n"),
      {"unknown name 'cycel'", "did you mean 'cycle'?", "declare it with 'input cycel'"});
  expect_contains(compile_error("total := 1\nv := totl + 1\n"), {"did you mean 'total'?"});
  // Function names and true/false are never inputs.
  expect_contains(compile_error("v := hash\n"), {"'hash' is a function, not a value"});
  EXPECT_TRUE(compile("v := true + false\n")->input_names().empty()) << "bool literals";
  expect_contains(compile_error("v := __hidden + 1\n"), {"reserved"});
  // A field of nothing bound is not a coordinate.
  expect_contains(compile_error("input c\nv := q.cursor.idx + 1\n"),
                  {"t.polydat:2:6: error: 'q.cursor.idx' reads a field of 'q' that nothing here "
                   "binds"});
}

// polydat's rule for a brace that opens no placeholder: the whole literal
// is text as written (nmbrs's metricsql selectors, a CQL map opened in one
// string and closed in another), with a warning saying why.
TEST(GrammarCompat, BracesThatOpenNoPlaceholderLeaveTheStringAsWritten) {
  const auto p = compile(
      "input n\n"
      "selector := \"up{job=\\\"x\\\", n=\\\"{n}\\\"}\"\n"
      "opened := \"WITH ann_options = {\" + \"k\"\n"
      "closed := \"x}\"\n"
      "spec := \"{:05}\"\n"
      "empty := \"a{}b\"\n"
      "doubled := \"{{n}} {n}\"\n");
  State s = p->new_state();
  s.set_inputs({5});
  EXPECT_EQ(s.pull("selector").as_str(), "up{job=\"x\", n=\"{n}\"}");
  EXPECT_EQ(s.pull("opened").as_str(), "WITH ann_options = {k");
  EXPECT_EQ(s.pull("closed").as_str(), "x}");
  EXPECT_EQ(s.pull("spec").as_str(), "{:05}");
  EXPECT_EQ(s.pull("empty").as_str(), "a{}b");
  EXPECT_EQ(s.pull("doubled").as_str(), "{n} 5");
  ASSERT_EQ(p->warnings().size(), 5u);
  expect_contains(p->warnings()[0], {"this string is text as written",
                                     "does not hold an expression", "polydat's rule"});
  expect_contains(p->warnings()[1], {"its '{' is never closed"});
  expect_contains(p->warnings()[2], {"its '}' closes no placeholder"});
  expect_contains(p->warnings()[4], {"'{}' has no expression"});
}

// polydat's pick(b0, ..., bN-1, v0, ..., vN-1) (nmbrs's
// examples/workloads/scope/shared_pick_through_for_each.yaml): the value
// whose selector is the one true; none or several fail the row.
TEST(GrammarCompat, PickTakesTheValueOfTheOneTrueSelector) {
  const char* source =
      "input x\nv := pick(x == 1, x == 2, x >= 2, \"alpha\", \"beta\", \"gamma\")\n"
      "n := pick(x == 1, x != 1, 10, 20)\n";
  EXPECT_EQ(values_everywhere(source, 1, {"v", "n"}),
            (std::vector<std::string>{"str alpha", "u64 10"}));
  EXPECT_EQ(values_everywhere(source, 3, {"v", "n"}),
            (std::vector<std::string>{"str gamma", "u64 20"}));
  State s = compile(source)->new_state();
  s.set_inputs({2});
  expect_contains(thrown_message<EvalError>([&] { s.pull("v"); }),
                  {"several selectors of pick are true (b1, b2); exactly one must be"});
  s.set_inputs({0});
  expect_contains(thrown_message<EvalError>([&] { s.pull("v"); }),
                  {"no selector of pick is true (all 3 are false)"});
  expect_contains(compile_error("input x\nv := pick(x, 1, \"a\")\n"),
                  {"an even count, at least 2), got 3 arguments"});
  expect_contains(compile_error("input x\nv := pick(x, 1, \"a\", 2)\n"),
                  {"value 1 is a u64 but value 0 is a str"});
  expect_contains(compile_error("input x\nv := pick(\"s\", 1, 2, 3)\n"),
                  {"selector 0 must be a bool or u64, got str"});
}

// `over q1.cursor`: a cursor ranged over another cursor's partition
// (nmbrs's examples/workloads/cursors/cursor_partitions_coverage.yaml).
TEST(GrammarCompat, ACursorRangesOverAnotherCursorsPartition) {
  const auto p = compile(
      "cursor q1 = range(0, 1000) over \"*/4\"\n"
      "cursor q2 = range(0, 1000) over q1.cursor\n"
      "lo := start_of(q2.cursor)\nhi := end_of(q2.cursor)\nx := q2\n",
      CompileOptions{.cursor_partitions = {{"q1", 2}}});
  State s = p->new_state();
  s.set_inputs({3});
  EXPECT_EQ(s.pull("lo").as_u64(), 500u);
  EXPECT_EQ(s.pull("hi").as_u64(), 750u);
  EXPECT_EQ(s.pull("x").as_u64(), 503u);
}

TEST(GrammarCompat, AModuleBodyReachesTheProgramsCoordinatesOnly) {
  auto p = compile("m(a: u64) -> (o: u64) := {\n o := a + shard\n}\ninput cycle\nv := m(cycle)\n");
  EXPECT_EQ(p->input_names(), (std::vector<std::string>{"cycle", "shard"}));
  expect_contains(
      compile_error("m(a: u64) -> (o: u64) := {\n o := a + total\n}\n"
                    "input cycle\ntotal := 5\nv := m(cycle)\n"),
      {"module 'm' reads 'total', a binding or extern of the program", "pass it as a parameter"});
}

TEST(GrammarCompat, SharedCellsAreComputedOnceAndTyped) {
  auto p = compile(
      "input x\nextern e: u64 = 1\nshared total: f64 := 0\nshared base := hash(e)\n"
      "shared volatile now := current_epoch_millis()\nv := total + to_f64(x)\nw := base + x\n");
  State s = p->new_state();
  s.set_inputs({2});
  EXPECT_EQ(s.pull("v").as_f64(), 2.0);
  const uint64_t w = s.pull("w").as_u64();
  s.set_input("e", Value::u64(9));  // a shared cell's value is fixed at state creation
  s.set_inputs({2});
  EXPECT_EQ(s.pull("w").as_u64(), w);
  expect_contains(compile_error("input x\nshared t := x + 1\n"),
                  {"shared binding 't' reads the coordinate 'x'"});
  expect_contains(compile_error("shared t: u64 := 1.5\n"),
                  {"shared binding 't' is declared u64 but its starting value is f64"});
  expect_contains(compile_error("shared t: str := 1\n"), {"declared str"});
}

TEST(GrammarCompat, CoordinateTypesAreAdvisory) {
  auto p = compile("input (a: f64, b: i32, c: u64)\nv := a + b + c\n");
  ASSERT_EQ(p->warnings().size(), 2u);
  expect_contains(p->warnings()[0],
                  {"<source>:1:11: warning: input 'a' is annotated f64, but coordinates are "
                   "always u64"});
  State s = p->new_state();
  s.set_inputs({1, 2, 3});
  EXPECT_EQ(s.pull("v").as_u64(), 6u);
  expect_contains(compile_error("input a: text\n"), {"a coordinate input cannot have type 'text'"});
}

TEST(GrammarCompat, ExternDefaultsMayBeExpressionsOfLiteralsAndPureNodes) {
  auto p = compile(
      "input c\nextern size: u64 = 2 * 1024\nextern name: str = \"user-\" + \"x\"\n"
      "extern h: u64 = hash(42) % 100\nextern f: f64 = 3\nv := size + c\nw := name + c\n"
      "z := h\nq := f\n");
  State s = p->new_state();
  s.set_inputs({1});
  EXPECT_EQ(s.pull("v").as_u64(), 2049u);
  EXPECT_EQ(s.pull("w").as_str(), "user-x1");
  EXPECT_EQ(s.pull("z").as_u64(), eval_expr("hash(42) % 100").as_u64());
  EXPECT_EQ(s.pull("q").as_f64(), 3.0);
  expect_contains(compile_error("input c\nextern e: u64 = c + 1\n"),
                  {"t.polydat:2:17: error: the default of an extern cannot read 'c'"});
  expect_contains(compile_error("input c\nextern e: u64 = current_epoch_millis()\n"),
                  {"cannot call 'current_epoch_millis', which is not pure"});
  expect_contains(compile_error("input c\nextern e: u64 = \"a\" + \"b\"\n"),
                  {"no implicit conversion from str to u64"});
}

TEST(GrammarCompat, PolydatsTypeSpellingsAndItsOtherTypesByName) {
  State s = compile("input c\nextern j: Json = \"[1]\"\nextern t: String = \"a\"\nv := j\nw := t\n")
                ->new_state();
  s.set_inputs({0});
  EXPECT_EQ(s.pull("v").to_string(), "[1]");
  EXPECT_EQ(s.pull("w").as_str(), "a");
  for (const char* type : {"vec_f16", "Ext", "u128", "reg_i8x16", "handle"}) {
    const std::string message = compile_error(std::string("input c\nextern e: ") + type + "\n");
    EXPECT_NE(
        message.find(std::string("polydat's type '") + type + "' is not supported by polyrt yet"),
        std::string::npos)
        << message;
  }
}

TEST(GrammarCompat, AStreamerIsItsComprehensionAsAProducersText) {
  State s =
      compile("input c\ns := streamer(\"a in 0..3, tag in p,q where {a} > 0\")\n")->new_state();
  s.set_inputs({0});
  EXPECT_EQ(s.pull("s").as_str(), "for a in 0..3, tag in p, q where {a} > 0");
  expect_contains(compile_error("input c\ns := streamer(\"a in\")\n"),
                  {"bad argument of 'streamer': not a comprehension"});
  // polydat's compiler writes the serialized value, whose text is the comprehension.
  State p =
      compile("input c\ns := streamer('{\"text\": \"k in 1..4\", \"ast\": {}}')\n")->new_state();
  p.set_inputs({0});
  EXPECT_EQ(p.pull("s").as_str(), "for k in 1..4");
  expect_contains(compile_error("input c\ns := streamer('{\"ast\": 1}')\n"),
                  {"a JSON payload needs a \"text\" member"});
}

TEST(GrammarCompat, PolydatsPragmasAreKnownOthersAreWarnings) {
  EXPECT_TRUE(compile("pragma strict_values\npragma strict_types\npragma strict\nv := 1\n")
                  ->warnings()
                  .empty());
  auto p = compile("pragma fast_math\ninput x\nv := x\n");
  ASSERT_EQ(p->warnings().size(), 1u);
  expect_contains(p->warnings()[0], {"<source>:1:8: warning: unknown pragma 'fast_math' ignored"});
}

TEST(GrammarCompat, AU64ArgumentWidensToAnF64Parameter) {
  auto p =
      compile("input x\na := sqrt(x)\nb := sqrt(to_f64(x))\nc := clamp_f64(x > 3, 0.0, 1.0)\n");
  State s = p->new_state();
  for (uint64_t x : {0ull, 7ull, (1ull << 53) + 1, ~0ull}) {
    s.set_inputs({x});
    EXPECT_TRUE(s.pull("a").same_as(s.pull("b"))) << x;
    EXPECT_EQ(s.pull("c").as_f64(), x > 3 ? 1.0 : 0.0);
  }
}

}  // namespace
}  // namespace polyrt::test
