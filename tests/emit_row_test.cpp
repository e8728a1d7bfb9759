// emit_row (expand/emitted_rows.hpp, nodes/nodes_emit.cpp): a binding's value
// is polydat's count of values, and the row it renders in each of polydat's
// formats is the program's output NAME.row, the same on every engine, the
// batch tier and every output format of `polyrt run`.
#include <gtest/gtest.h>

#include "polyrt/batch.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const char* kProgram = R"p(input cycle: u64
id := mod(hash(cycle), 1000)
name := "user-{id}"
emitted := emit_row("jsonl", "cycle,id,name", cycle, id, name)
m := emit_row(" MAP ", "a, ,b", id, to_f64(id) / 2.0)
c := emit_row("csv", "x,y,z", cycle, "a,b", printf("q{}", "\""))
t := emit_row("text", "", id, name)
other := emit_row("yaml", "k", id)
sorted := emit_row("json", "z,a,z", 1, 2, 3)
)p";

TEST(EmitRow, RowsInEachFormatOnEveryEngine) {
  // polydat's embedding guide documents the JSON Lines rows of cycles 0..2.
  const char* documented[] = {R"({"cycle":0,"id":535,"name":"user-535"})",
                              R"({"cycle":1,"id":465,"name":"user-465"})",
                              R"({"cycle":2,"id":110,"name":"user-110"})"};
  for (uint64_t cycle = 0; cycle < 3; ++cycle) {
    const std::vector<std::string> got = values_everywhere(
        kProgram, cycle,
        {"emitted", "emitted.row", "m.row", "c.row", "t.row", "other.row", "sorted.row"});
    EXPECT_EQ(got[0], "u64 3");
    EXPECT_EQ(got[1], std::string("str ") + documented[cycle]);
  }
  const std::vector<std::string> got =
      values_everywhere(kProgram, 0, {"m.row", "c.row", "t.row", "other.row", "sorted.row"});
  EXPECT_EQ(got[0], "str a=535 b=267.5");
  EXPECT_EQ(got[1], "str 0,\"a,b\",\"q\"\"\"");
  EXPECT_EQ(got[2], "str 535\nuser-535");
  EXPECT_EQ(got[3], "str k=535");              // an unknown format is map
  EXPECT_EQ(got[4], "str {\"a\":2,\"z\":3}");  // keys sorted, the last value of a key
}

TEST(EmitRow, TheBatchTierAndTheCommandWriteTheRows) {
  BatchOptions options;
  options.outputs = {"emitted.row", "c.row"};
  options.chunk_rows = 500;
  const auto columns = BatchEvaluator(compile(kProgram), options).evaluate(0, 2000);
  State state = compile(kProgram, CompileOptions{.engine = Engine::Interpreter})->new_state();
  for (uint64_t r = 0; r < 2000; ++r) {
    state.set_inputs({r});
    ASSERT_EQ(columns[0].text(r), state.pull("emitted.row").as_str()) << r;
    ASSERT_EQ(columns[1].text(r), state.pull("c.row").as_str()) << r;
  }
  const std::string path = write_program(temp_dir(), "emit.polydat", kProgram);
  const CommandResult run =
      run_polyrt("run " + path + " --cycles 0..2 --outputs emitted.row --format jsonl");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(
      run.out,
      "{\"emitted.row\":\"{\\\"cycle\\\":0,\\\"id\\\":535,\\\"name\\\":\\\"user-535\\\"}\"}\n"
      "{\"emitted.row\":\"{\\\"cycle\\\":1,\\\"id\\\":465,\\\"name\\\":\\\"user-465\\\"}\"}\n");
}

// polydat's binary binds emit_row(...) to __emit: a program saved from its
// expansion compiles as written; every other '__' name stays the compiler's.
TEST(EmitRow, PolydatsEmitNameIsTaken) {
  const std::string program =
      "input cycle\na := cycle * 2\n__emit := emit_row(\"csv\", \"a,c\", a, cycle)\n";
  EXPECT_EQ(values_everywhere(program, 3, {"__emit.row"})[0], "str 6,3");
  expect_contains(compile_error("input cycle\n__emitted := 1\n"),
                  {"t.polydat:2:1", "names starting with '__' are reserved for the compiler"});
}

}  // namespace
}  // namespace polyrt::test
