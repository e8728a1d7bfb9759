// Top-level cursors, `cursor q = range(A, B) over "SPEC"`: the partition a
// run takes (CompileOptions::cursor_partitions, `polyrt --partition`), what
// the program reads of it on every engine and tier (values from polydat's
// partitioning illustration: the second of "20%,30%,*" over a million
// ordinals), the default cycles of `polyrt run`, and the refusals.
#include <gtest/gtest.h>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const char* kFiber =
    "input cycle: u64\n"
    "cursor q = range(0, 1000000) over \"20%,30%,*\"\n"
    "start := q.cursor.start_ordinal\n"
    "end := q.cursor.end_ordinal\n"
    "size := cardinality(q.cursor)\n"
    "slot := mod_in(cycle, q.cursor)\n"
    "ordinal := q.ordinal\n"
    "row := mod(hash(slot), 1000000)\n"
    "idx := q.cursor.idx\n"
    "count := q.cursor.partition_count\n";

std::string row_at(const std::string& source, const CompileOptions& base, uint64_t cycle,
                   Engine engine) {
  CompileOptions options = base;
  options.engine = engine;
  State state = compile(source, options)->new_state();
  state.set_inputs({cycle});
  std::string out;
  for (const char* name : {"start", "end", "size", "slot", "ordinal", "row", "idx", "count"}) {
    out += (out.empty() ? "" : ",") + state.pull(name).to_string();
  }
  return out;
}

TEST(TopLevelCursors, TheChosenPartitionOnEveryEngine) {
  const CompileOptions options{.cursor_partitions = {{"", 1}}};
  const std::pair<uint64_t, const char*> expected[] = {
      {0, "200000,500000,300000,200000,200000,70708,1,3"},
      {1, "200000,500000,300000,200001,200001,145486,1,3"},
      {299999, "200000,500000,300000,499999,499999,795364,1,3"},
      {300000, "200000,500000,300000,200000,200000,70708,1,3"}};
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    for (const auto& [cycle, row] : expected) {
      EXPECT_EQ(row_at(kFiber, options, cycle, engine), row) << "cycle " << cycle;
    }
  }
  const CompileOptions by_name{.cursor_partitions = {{"q", 2}}};
  EXPECT_EQ(row_at(kFiber, by_name, 7, Engine::Native).substr(0, 35),
            "500000,1000000,500000,500007,500007");
}

TEST(TopLevelCursors, ProgramsListTheirCursors) {
  const auto program = compile(kFiber, CompileOptions{.cursor_partitions = {{"", 2}}});
  ASSERT_EQ(program->cursors().size(), 1u);
  const CursorInfo& q = program->cursors()[0];
  EXPECT_EQ(q.name, "q");
  EXPECT_EQ(q.partition, 2u);
  EXPECT_EQ(q.partitions, 3u);
  EXPECT_EQ(q.first, 500000u);
  EXPECT_EQ(q.size, 500000u);
}

TEST(TopLevelCursors, ACursorWithoutOverCoversItsRange) {
  const char* source =
      "input i\ncursor rows = range(10, 14)\no := rows.ordinal\nn := cardinality(rows.cursor)\n";
  for (uint64_t i = 0; i < 6; ++i) {
    const auto got = values_everywhere(source, i, {"o", "n"});
    EXPECT_EQ(got[0], "u64 " + std::to_string(10 + i % 4));
    EXPECT_EQ(got[1], "u64 4");
  }
  // A partition wire: the cursor reads it as it is.
  const auto got = values_everywhere(
      "input i\np := partition_at(partitions(\"*/2\", 8), 1)\ncursor r = range(0, 8) over p\n"
      "o := r.ordinal\n",
      5, {"o"});
  EXPECT_EQ(got[0], "u64 5");
}

// A cursor's bare name reads its ordinal (nmbrs's workloads write
// `format_u64(row, 10)`), on every engine; a program's own binding of the
// name wins, and the name is no output.
TEST(TopLevelCursors, TheBareNameReadsTheOrdinal) {
  const char* source = "input i\ncursor row = range(10, 14)\nv := format_u64(row, 10)\n";
  for (uint64_t i = 0; i < 6; ++i) {
    EXPECT_EQ(values_everywhere(source, i, {"v"})[0], "str " + std::to_string(10 + i % 4));
  }
  EXPECT_EQ(compile(source)->output_names(), (std::vector<std::string>{"v"}));
  EXPECT_TRUE(compile(source)->input_names() == (std::vector<std::string>{"i"}));
  const auto own =
      values_everywhere("input i\ncursor row = range(5, 9)\nrow := 3\nv := row\n", 1, {"v"});
  EXPECT_EQ(own[0], "u64 3");
}

// A body's cursor too: its bare name is the ordinal of the cycle in its
// activation's slice.
TEST(TopLevelCursors, ABodysCursorsBareNameReadsItsOrdinal) {
  const std::string file = write_program(temp_dir(), "body.polydat",
                                         "input cycle\nfor p in partitions(\"*/2\", 10) {\n"
                                         "  cursor rows = range(0, 10) over p\n"
                                         "  v := format_u64(rows, 10)\n}\n");
  const CommandResult r = run_polyrt("run " + file + " --cycles 0..1");
  ASSERT_EQ(r.status, 0) << r.err;
  // Each row: cycle, the partition p, then v.
  std::string last_fields;
  for (size_t end = r.out.find('\n'), start = end + 1;
       (end = r.out.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = r.out.substr(start, end - start);
    last_fields += line.substr(line.rfind(',') + 1) + " ";
  }
  EXPECT_EQ(last_fields, "0 1 2 3 4 5 6 7 8 9 ");
}

// polydat 0.6.1's all(<cursor>): a traversal over every ordinal of a
// top-level cursor's range (not narrowed by its over), on every engine and
// tier; a cursor without a fixed range, or no cursor, is refused by name.
TEST(TopLevelCursors, AllOfACursorEnumeratesItsRange) {
  const std::string file = write_program(
      temp_dir(), "all.polydat",
      "cursor row = range(10, 16) over \"*/2\"\nfor r in all(row) where {r} % 2 == 0 {\n"
      "  v := r * 10\n}\n");
  std::string first;
  for (const char* engine : {"", " --engine interpreter", " --engine closures"}) {
    const CommandResult r = run_polyrt("run " + file + " --partition 0" + engine);
    ASSERT_EQ(r.status, 0) << engine << ": " << r.err;
    if (first.empty()) first = r.out;
    EXPECT_EQ(r.out, first) << engine;
  }
  EXPECT_EQ(first.substr(0, first.find("\n1,")), "cycle,r,v\n0,10,100\n0,12,120\n0,14,140");
  expect_contains(compile_error("cursor op = until_passes(10, 2)\nfor r in all(op) { v := r }\n"),
                  {"t.polydat:2:5", "all(op) names no top-level cursor with a fixed range"});
  expect_contains(compile_error("input cycle\nfor r in all(1row) { v := r }\n"),
                  {"all(...) takes the name of a cursor"});
}

TEST(TopLevelCursors, RunWalksTheSliceOnEveryTier) {
  const std::string dir = temp_dir();
  const std::string file = write_program(dir, "fiber.polydat", kFiber);
  const CommandResult batch = run_polyrt("run " + file + " --partition 1 --outputs slot,row");
  ASSERT_EQ(batch.status, 0) << batch.err;
  const CommandResult interpreter =
      run_polyrt("run " + file + " --partition q=1 --outputs slot,row --engine interpreter");
  ASSERT_EQ(interpreter.status, 0) << interpreter.err;
  EXPECT_EQ(batch.out, interpreter.out);
  // The slice once: a header and 300,000 rows, from 200000 to 499999.
  EXPECT_EQ(std::count(batch.out.begin(), batch.out.end(), '\n'), 300001);
  EXPECT_EQ(batch.out.substr(0, 22), "slot,row\n200000,70708\n");
  EXPECT_NE(batch.out.find("\n499999,795364\n"), std::string::npos);
  const CommandResult gpu =
      run_polyrt("run " + file + " --partition 1 --outputs slot,row --device gpu --cycles 0..1000");
  ASSERT_EQ(gpu.status, 0) << gpu.err;
  EXPECT_EQ(gpu.out, batch.out.substr(0, gpu.out.size()));
}

// Without a choice, partitions that tile their span are walked in turn: row
// i is ordinal i of the span, its cursor the partition that holds it.
TEST(TopLevelCursors, WithoutAChoiceEveryPartitionInTurn) {
  const auto program = compile(kFiber);
  ASSERT_EQ(program->cursors().size(), 1u);
  EXPECT_TRUE(program->cursors()[0].every_partition);
  EXPECT_EQ(program->cursors()[0].first, 0u);
  EXPECT_EQ(program->cursors()[0].size, 1000000u);
  const std::pair<uint64_t, const char*> expected[] = {
      {0, "0,200000,200000,0,0"},
      {199999, "0,200000,200000,199999,199999"},
      {200000, "200000,500000,300000,200000,400000"},
      {999999, "500000,1000000,500000,999999,999999"},
      {1000000, "0,200000,200000,0,0"}};
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    CompileOptions options;
    options.engine = engine;
    State state = compile(kFiber, options)->new_state();
    for (const auto& [cycle, row] : expected) {
      state.set_inputs({cycle});
      std::string got;
      for (const char* name : {"start", "end", "size", "ordinal", "slot"}) {
        got += (got.empty() ? "" : ",") + state.pull(name).to_string();
      }
      EXPECT_EQ(got, row) << "cycle " << cycle;
    }
  }
}

TEST(TopLevelCursors, RefusalsNameTheFix) {
  expect_contains(
      compile_error("input cycle\ncursor q = range(0, 1000) over \"10%,~10%,10%\"\n"
                    "x := q\n"),
      {"t.polydat:2:32", "resolves to 2 partitions that leave gaps", "--partition I, I in 0..1"});
  expect_contains(thrown_message<CompileError>([] {
                    compile(kFiber, CompileOptions{.cursor_partitions = {{"", 3}}});
                  }),
                  {"partition 3 of cursor 'q' does not exist: it has 3 partitions"});
  expect_contains(thrown_message<CompileError>([] {
                    compile(kFiber, CompileOptions{.cursor_partitions = {{"", 0}, {"r", 1}}});
                  }),
                  {"(--partition r=1, CompileOptions::cursor_partitions, Python partition=) names "
                   "no top-level cursor; the "
                   "program's cursors: q"});
  expect_contains(compile_error("input i\ncursor q = range(0, n)\nx := q.ordinal\n"),
                  {"t.polydat:2:21", "argument 2 of range reads the coordinate 'n'", "--set n="});
  expect_contains(compile_error("input i\ncursor q = range(5, 2)\nx := q.ordinal\n"),
                  {"START <= END, got range(5, 2)"});
  expect_contains(compile_error("input i\ncursor q = until_count(5)\nx := q.ordinal\n"),
                  {"until_count(BASE, COUNT[, DELTA]) takes 2 or 3 arguments"});
  expect_contains(compile_error("input i\ncursor q = walk(5)\nx := q.ordinal\n"),
                  {"'walk' is not a cursor constructor: range, until_elapsed"});
  expect_contains(compile_error("input i\ncursor q = range(0, 10) over \"bogus\"\nx := 1\n"),
                  {"'over \"bogus\"'"});
  expect_contains(
      compile_error("input i\np := 3\ncursor q = range(0, 10) over p\nx := q.ordinal\n"),
      {"'over p' of cursor 'q' is declared partition but gets u64"});
  const CommandResult twice = run_polyrt("run x.polydat --partition 1 --partition 2");
  expect_contains(twice.err, {"--partition I is given twice"});
  const CommandResult bad = run_polyrt("run x.polydat --partition q=x");
  expect_contains(bad.err, {"--partition expects I or CURSOR=I"});
}

}  // namespace
}  // namespace polyrt::test
