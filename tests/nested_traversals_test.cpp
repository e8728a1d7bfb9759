// Nested traversals, a `for` inside a body: opened from each activation of
// the enclosing body at its cycle 0 (polydat's for_runtime oracle: outer
// a = 1, 2 setting base = a * 100, inner b = 1, 2 giving v = base + b:
// 101, 102, 201, 202), reading the outer elements, body values and the
// program's values; their rows flatten level by level on every engine and
// tier; the refusals.
#include <gtest/gtest.h>

#include "polyrt/traversal.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const char* kNested =
    "input cycle\n"
    "for a in 1..3 {\n"
    "  base := a * 100\n"
    "  for b in 1..3 {\n"
    "    v := base + b\n"
    "  }\n"
    "}\n";

TEST(NestedTraversals, OpenFromEachActivationOnEveryEngine) {
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    const auto program = compile(kNested, CompileOptions{.engine = engine});
    State parent = program->new_state();
    parent.set_inputs(std::vector<uint64_t>{0});
    const Traversal outer = open_traversal(parent, std::vector<uint64_t>{0}, 0);
    ASSERT_EQ(outer.nested_count(), 1u);
    std::vector<uint64_t> got;
    for (size_t a = 0; a < outer.tuples().size(); ++a) {
      const Traversal inner = outer.open_nested(a, 0);
      EXPECT_EQ(inner.comprehension(), "b in 1..3");
      for (size_t b = 0; b < inner.tuples().size(); ++b) {
        got.push_back(inner.activation(b).pull("v").as_u64());
      }
    }
    EXPECT_EQ(got, (std::vector<uint64_t>{101, 102, 201, 202}));
    expect_contains(thrown_message<WriteError>([&] { outer.open_nested(0, 1); }),
                    {"traversal 1 does not exist; the program has 1"});
  }
}

TEST(NestedTraversals, RowsFlattenLevelByLevel) {
  const auto program = compile(kNested);
  const TraversalInfo info = flattened_traversal_info(*program, 0);
  EXPECT_EQ(info.names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(info.body->output_names(), (std::vector<std::string>{"v"}));
  EXPECT_EQ(info.comprehension, "a in 1..3 / b in 1..3");
  EXPECT_EQ(info.lattice_body, nullptr);  // nesting runs per activation
  const std::string dir = temp_dir();
  const std::string file = write_program(dir, "nested.polydat", kNested);
  const auto r = run_polyrt("run " + file + " --cycles 4..6");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "cycle,a,b,v\n4,1,1,101\n4,1,2,102\n4,2,1,201\n4,2,2,202\n"
            "5,1,1,101\n5,1,2,102\n5,2,1,201\n5,2,2,202\n");
  const auto eval = run_polyrt("eval " + file + " 0");
  expect_contains(eval.out, {"  [1] a=2 -> base = 200\n    for b in 1..3: 2 tuple(s)\n"
                             "      [0] b=1 -> v = 201\n"});
}

// Inner sources and predicates read outer elements and body values, inner
// bodies read the program's values through the outer level; a long inner
// activation runs in the batch tier. Every engine writes the same bytes.
TEST(NestedTraversals, InnerLevelsReadWhatEnclosesThem) {
  const std::string dir = temp_dir();
  const std::string file =
      write_program(dir, "deep.polydat",
                    "input cycle\nscale := cycle * 1000\n"
                    "for a in 1..4, p in partitions(\"*/2\", 10000) {\n"
                    "  half := a / 2\n"
                    "  for b in 0..3, q in subdivide(p, 2) where {b} != {half} {\n"
                    "    cursor r = range(0, 10000) over q\n"
                    "    v := scale + a * 10 + b + r.ordinal\n"
                    "    s := \"x\" + format_u64(half)\n"
                    "  }\n"
                    "}\n");
  const std::string run = "run " + file + " --cycles 1..3 --outputs v,s";
  const auto batch = run_polyrt(run);
  ASSERT_EQ(batch.status, 0) << batch.err;
  // 2 coordinates x 3 a x 2 p x 2 b x 2 q, each over 2500 ordinals.
  EXPECT_EQ(std::count(batch.out.begin(), batch.out.end(), '\n'), 1 + 2 * 3 * 2 * 2 * 2 * 2500);
  for (const char* engine : {"interpreter", "closures", "native"}) {
    EXPECT_EQ(run_polyrt(run + " --engine " + engine).out, batch.out) << engine;
  }
  expect_contains(batch.out, {"\n1,1,", ",1,", "1010,x0\n"});
}

TEST(NestedTraversals, RefusalsNameTheRule) {
  std::string deep = "input cycle\n";
  for (int level = 0; level < 9; ++level) deep += "for a" + std::to_string(level) + " in 0..2 {\n";
  deep += "v := 1\n" + std::string(9, '}') + "\n";
  expect_contains(compile_error(deep), {"t.polydat:10:1", "traversals nest at most 8 deep"});
  const std::string dir = temp_dir();
  const std::string two =
      write_program(dir, "two.polydat",
                    "input cycle\nfor a in 1..3 {\n  for b in 1..3 { v := a + b }\n"
                    "  for c in 1..3 { w := a * c }\n}\n");
  const auto r = run_polyrt("run " + two + " --cycles 0..1");
  EXPECT_EQ(r.status, 1);
  expect_contains(r.err, {"holds 2 nested traversals, so its rows have no single shape"});
  expect_contains(run_polyrt("eval " + two + " 0").out, {"for c in 1..3: 2 tuple(s)"});
  expect_contains(
      compile_error("input cycle\nfor a in 1..3 {\n  for b in 1..3 { v := a + nope }\n}\n"),
      {"t.polydat:3:"});
}

}  // namespace
}  // namespace polyrt::test
