// Top-level cursors as nmbrs's workloads write them: bounds that are
// expressions of constants, const bindings and params
// (`cursor row = range(0, keys) over cursor`, from nmbrs's
// adapters/cql/workloads/baselinesv3/keyvalue.yaml), the extending cursors
// (until_passes, until_count, until_elapsed and its composites, whose rules
// nmbrs's docs/guide/cursor_extension_example.yaml states), params that
// become typed externs (CompileOptions::params, `--set`), and the refusals.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const char* kRampup =
    "const keys := is_positive(keycount)\n"
    "cursor row = range(0, keys) over cursor\n"
    "seq_key := format_u64(row, 10)\n"
    "last := row.cursor.end_ordinal\n";

CompileOptions with_params(std::map<std::string, std::string> params) {
  CompileOptions options{.file_name = "t.polydat"};
  options.params = std::move(params);
  return options;
}

TEST(CursorBounds, ExpressionsOfParamsOpenTheCursorOnEveryEngine) {
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    CompileOptions options = with_params({{"keycount", "1000"}, {"cursor", "50%..60%"}});
    options.engine = engine;
    const auto program = compile(kRampup, options);
    ASSERT_EQ(program->cursors().size(), 1u);
    EXPECT_EQ(program->cursors()[0].first, 500u);
    EXPECT_EQ(program->cursors()[0].size, 100u);
    State state = program->new_state();
    state.set_inputs({7});
    EXPECT_EQ(state.pull("seq_key").to_string(), "507");
    EXPECT_EQ(state.pull("last").to_string(), "600");
    EXPECT_EQ(state.pull("keys").to_string(), "1000");
  }
}

TEST(CursorBounds, ParamsOnlyTheBoundsReadStayExterns) {
  const auto program = compile(kRampup, with_params({{"keycount", "10K"}, {"cursor", "0..1%"}}));
  std::vector<std::string> externs;
  for (const ExternInfo& e : program->externs())
    externs.push_back(e.name + ":" + std::string(type_name(e.type)));
  EXPECT_EQ(externs, (std::vector<std::string>{"cursor:str", "keycount:u64"}));
  EXPECT_EQ(program->cursors()[0].size, 100u);
}

// The extents nmbrs's extension rules reach: `base`, then `delta` (default
// base) more while the target is not reached.
TEST(CursorBounds, ExtendingCursorsHaveTheirRulesExtent) {
  const std::pair<const char*, uint64_t> sized[] = {
      {"until_passes(4, 3)", 12},         {"until_passes(4, 3, 5)", 14},
      {"until_count(10, 25)", 30},        {"until_count(10, 5)", 10},
      {"until_count(10, 25, 1)", 25},     {"until_passes(7, 0)", 7},
      {"until_passes(base, passes)", 600}};
  for (const auto& [constructor, size] : sized) {
    const std::string source = std::string("cursor q = ") + constructor + "\nx := q\n";
    const auto program = compile(source, with_params({{"base", "200"}, {"passes", "3"}}));
    ASSERT_EQ(program->cursors().size(), 1u) << constructor;
    EXPECT_EQ(program->cursors()[0].size, size) << constructor;
    EXPECT_FALSE(program->cursors()[0].wall_clock) << constructor;
    State state = program->new_state();
    state.set_inputs({size - 1});
    EXPECT_EQ(state.pull("x").as_u64(), size - 1) << constructor;
  }
}

TEST(CursorBounds, TimeBoxedCursorsCarryTheirWallClockRule) {
  struct Case {
    const char* constructor;
    uint64_t base, delta, min_ms, min_rows, max_rows;
  };
  const Case cases[] = {
      {"until_elapsed(main_chunk, main_ms)", 100000, 100000, 60000, 0, UINT64_MAX},
      {"until_elapsed(1000, 5000, 100)", 1000, 100, 5000, 0, UINT64_MAX},
      {"until_elapsed_and_passes(50, 200, 3)", 50, 50, 200, 0, 150},
      {"until_elapsed_or_passes(50, 200, 3)", 50, 50, 200, 150, UINT64_MAX}};
  for (const Case& c : cases) {
    const std::string source = std::string("cursor op = ") + c.constructor +
                               "\nkey := format_u64(u64_mod(hash(op), 1000), 10)\n";
    const auto program =
        compile(source, with_params({{"main_chunk", "100000"}, {"main_ms", "60000"}}));
    const CursorInfo& op = program->cursors().at(0);
    EXPECT_FALSE(op.size) << c.constructor;
    ASSERT_TRUE(op.wall_clock) << c.constructor;
    EXPECT_EQ(op.wall_clock->base, c.base) << c.constructor;
    EXPECT_EQ(op.wall_clock->delta, c.delta) << c.constructor;
    EXPECT_EQ(op.wall_clock->min_ms, c.min_ms) << c.constructor;
    EXPECT_EQ(op.wall_clock->min_rows, c.min_rows) << c.constructor;
    EXPECT_EQ(op.wall_clock->max_rows, c.max_rows) << c.constructor;
  }
}

TEST(CursorBounds, BadBoundsAreErrorsAtTheArgument) {
  const auto refused = [](const std::string& source,
                          std::map<std::string, std::string> params = {}) {
    return thrown_message<CompileError>([&] { compile(source, with_params(params)); });
  };
  expect_contains(refused("input i\ncursor q = range(0, i * 2)\nx := q\n"),
                  {"t.polydat:2:23", "argument 2 of range reads the coordinate 'i'"});
  expect_contains(refused("extern n: u64\ncursor q = range(0, n)\nx := q\n"),
                  {"t.polydat:2:21", "reads extern 'n', which has no value", "--set n=VALUE"});
  expect_contains(refused("cursor q = range(0, is_positive(n))\nx := q\n", {{"n", "0"}}),
                  {"t.polydat:1:21", "argument 2 of range fails", "value must be positive"});
  expect_contains(refused("cursor q = range(0, n)\nx := q\n", {{"n", "2.5"}}),
                  {"argument 2 of range is 2.5 of type f64, not an unsigned integer"});
  expect_contains(refused("cursor q = range(0, n)\nx := q\n", {{"n", "many"}}),
                  {"argument 2 of range is many of type str"});
  expect_contains(refused("cursor q = range(a, b)\nx := q\n", {{"a", "10"}, {"b", "2"}}),
                  {"range(START, END) takes two integers START <= END, got range(10, 2)"});
  expect_contains(refused("cursor q = until_passes(b, 3)\nx := q\n", {{"b", "0"}}),
                  {"needs BASE and DELTA of at least 1, got BASE 0, DELTA 0"});
  expect_contains(refused("cursor q = until_passes(4294967296, 4294967296)\nx := q\n"),
                  {"extends past 2^64 ordinals"});
  expect_contains(refused("cursor q = until_elapsed(10, 100) over \"*/4\"\nx := q\n"),
                  {"extends by its stop rule (until_elapsed)", "has no extent to divide"});
  expect_contains(refused("cursor q = range(0, 10) over spec\nx := q\n", {{"spec", "bogus"}}),
                  {"'over \"bogus\"'"});
  // The bound fails, not the spec the cursor's `over` names.
  expect_contains(
      refused("cursor q = range(0, is_positive(n)) over \"0..50%\"\nx := q\n", {{"n", "0"}}),
      {"argument 2 of range fails"});
  expect_contains(refused("extern k: u64 = 3\nx := k\n", {{"k", "lots"}}),
                  {"cannot read \"lots\" as u64 for extern k"});
}

// A body's cursor reads the program's values as they are when it compiles
// (polydat's toy test definition: `cursor rows = range(0, rows_total) over
// p`), and a body reads the program's externs.
TEST(CursorBounds, ABodysCursorBoundsReadTheProgramsValues) {
  const char* source =
      "input cycle\n"
      "extern rows_total: u64 = 1000\n"
      "const half := rows_total / 2\n"
      "for p in partitions(\"*/4\", {rows_total}) {\n"
      "  cursor rows = range(0, rows_total) over p\n"
      "  cursor firsts = range(0, half)\n"
      "  row := rows.ordinal\n"
      "  total := rows_total\n"
      "}\n";
  const CommandResult r =
      run_polyrt("run " + write_program(temp_dir(), "b.polydat", source) +
                 " --cycles 0..1 --set rows_total=40 --outputs row,total --format jsonl -q");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 40) << "4 slices of 10 (and 20 firsts)";
  EXPECT_NE(r.out.find("\"row\":39,\"total\":40}"), std::string::npos) << r.out;
  expect_contains(
      thrown_message<CompileError>([] {
        compile("input cycle\nfor n in 1..3 {\n  cursor rows = range(0, n * 10)\n  x := rows\n}\n",
                with_params({}));
      }),
      {"t.polydat:3:28", "cursor 'rows': argument 2 of range reads 'n', which is no value of the program",
       "not the traversal's elements or the body's bindings"});
}

TEST(CursorBounds, ParamsOfUndeclaredNamesAreTypedAsNmbrsTypesThem) {
  const auto program = compile(
      "a := n + 1\nb := f * 2.0\nc := neg\nd := if flag { 1 } else { 2 }\ne := \"k-\" + label\n",
      with_params({{"n", "10M"},
                   {"f", "1.5"},
                   {"neg", "-3"},
                   {"flag", "true"},
                   {"label", "x y"},
                   {"unused", "1"}}));
  EXPECT_TRUE(program->input_names().empty());
  State state = program->new_state();
  EXPECT_EQ(state.pull("a").to_string(), "10000001");
  EXPECT_EQ(state.pull("b").to_string(), "3");
  EXPECT_EQ(state.pull("c").to_string(), "-3");
  EXPECT_EQ(state.pull("d").to_string(), "1");
  EXPECT_EQ(state.pull("e").to_string(), "k-x y");
  for (const ExternInfo& e : program->externs()) EXPECT_NE(e.name, "unused");
}

TEST(CursorBounds, TheCommandLineGivesParamsWithSet) {
  const std::string dir = temp_dir();
  const std::string file = write_program(dir, "kv.polydat", kRampup);
  const CommandResult slice =
      run_polyrt("run " + file + " --set keycount=1000 --set cursor=10%..10.3% --outputs seq_key");
  EXPECT_EQ(slice.status, 0) << slice.err;
  EXPECT_EQ(slice.out, "seq_key\n100\n101\n102\n");
  const CommandResult checked =
      run_polyrt("check " + file + " --set keycount=0 --set cursor=0..1%");
  EXPECT_EQ(checked.status, 1);
  expect_contains(checked.err, {"argument 2 of range fails", "value must be positive"});
  const std::string timed = write_program(
      dir, "main.polydat", "cursor op = until_elapsed(main_chunk, main_ms)\nk := u64_mod(op, 7)\n");
  const CommandResult bounded =
      run_polyrt("run " + timed + " --set main_chunk=10 --set main_ms=50 --rows 3");
  EXPECT_EQ(bounded.out, "k\n0\n1\n2\n");
  const CommandResult parquet = run_polyrt("run " + timed +
                                           " --set main_chunk=10 --set main_ms=50 --format parquet "
                                           "--out " +
                                           dir + "/t.parquet");
  EXPECT_EQ(parquet.status, 2);
  expect_contains(parquet.err, {"cursor 'op' runs until 50 ms have passed",
                                "it writes csv, tsv, jsonl or text, not parquet"});
  EXPECT_FALSE(exists(dir + "/t.parquet"));
  const CommandResult batch =
      run_polyrt("run " + timed + " --set main_chunk=10 --set main_ms=50 --engine batch");
  EXPECT_EQ(batch.status, 2);
  expect_contains(batch.err, {"the batch tier needs the row count up front"});
}

// Without --rows or --cycles a time-boxed cursor runs by its rule, in whole
// extensions: until_elapsed until the clock passes, _and_passes to the
// first target, _or_passes to the later.
TEST(CursorBounds, TimeBoxedRunsStopByTheirRule) {
  const std::string dir = temp_dir();
  const auto rows_of = [&](const std::string& constructor, const std::string& format = "csv") {
    const std::string file =
        write_program(dir, "t.polydat", "cursor op = " + constructor + "\nk := op\n");
    const CommandResult r =
        run_polyrt("run " + file + " --format " + format + " --out " + dir + "/out.txt");
    EXPECT_EQ(r.status, 0) << constructor << ": " << r.err;
    std::ifstream in(dir + "/out.txt");
    uint64_t count = 0, last = 0;
    for (std::string line; std::getline(in, line); ++count) {
      if (count > 0 || format != "csv") last = std::stoull(format == "csv" ? line : line.substr(5));
    }
    const uint64_t rows = format == "csv" ? count - 1 : count;
    EXPECT_EQ(last + 1, rows) << constructor << ": rows 0, 1, ... in order";
    return rows;
  };
  const uint64_t timed = rows_of("until_elapsed(1000, 200)");
  EXPECT_GE(timed, 1000u);
  EXPECT_EQ(timed % 1000, 0u) << "whole passes";
  EXPECT_EQ((rows_of("until_elapsed(100, 200, 30)") - 100) % 30, 0u);
  EXPECT_EQ(rows_of("until_elapsed_and_passes(100, 100000, 3)"), 300u);
  EXPECT_EQ(rows_of("until_elapsed_or_passes(100, 0, 3, 7)"), 303u);
  EXPECT_EQ(rows_of("until_elapsed(5, 0)", "jsonl"), 5u) << "the first pass always runs";
}

}  // namespace
}  // namespace polyrt::test
