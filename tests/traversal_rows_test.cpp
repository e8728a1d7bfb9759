// The one runner of a traversal's rows (polyrt/traversal_rows.hpp): every
// tier hands over the same columns, chunks number their rows, a limit and
// a stop end the rows, and bad options are refused before any row runs.
#include "polyrt/traversal_rows.hpp"

#include <gtest/gtest.h>

#include "polyrt/traversal.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// Opens from the parent's values: the per-state path.
constexpr const char* kOpening =
    "input cycle\nn := cycle % 4\n"
    "for i in 0..{n}, j in x, y where i > 0 {\n  z := hash(i) % 1000\n  s := \"{j}-{i}\"\n"
    "  maybe := if(i == 2, None, z)\n}\n";
// A literal lattice: the batch tier's lattice body.
constexpr const char* kLattice =
    "input cycle\nfor a in 0..3, t in p, q {\n  v := hash(a) % 100\n  s := t + \"!\"\n}\n";
// A body whose cursor runs 5000 cycles per activation: each one a batch.
constexpr const char* kCursor =
    "input cycle\nfor k in 0..2 {\n  cursor rows = range(0, 5000)\n  h := hash(rows + k)\n"
    "  t := format_u64(h % 1000, 16)\n}\n";

std::vector<Column> rows_of(const char* source, bool batch, uint64_t first, uint64_t count,
                            uint64_t chunk_rows = 0) {
  TraversalRowsOptions options;
  options.batch = batch;
  options.chunk_rows = chunk_rows;
  return TraversalRows(compile(source), options).evaluate(first, count);
}

void expect_same_columns(const std::vector<Column>& a, const std::vector<Column>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].name, b[k].name);
    const size_t rows = is_payload(a[k].type) ? a[k].offsets.size() - 1 : a[k].words.size();
    const size_t rows_b = is_payload(b[k].type) ? b[k].offsets.size() - 1 : b[k].words.size();
    ASSERT_EQ(rows, rows_b) << a[k].name;
    for (size_t r = 0; r < rows; ++r) {
      EXPECT_TRUE(a[k].value(r).same_as(b[k].value(r))) << a[k].name << " row " << r;
    }
  }
}

// A str element before another, over batched activations whose last chunk
// has one row: its constant column's few bytes live in the column itself
// (short-string storage), which must not move while the chunk's view reads
// it (the columns were held in a growing vector).
constexpr const char* kShortTextElements =
    "input cycle\nfor t in p, q, k in 0..2 {\n  cursor rows = range(0, 4097)\n"
    "  h := hash(rows + k) % 7\n}\n";

TEST(TraversalRows, EveryTierHandsOverTheSameColumns) {
  expect_same_columns(rows_of(kShortTextElements, true, 0, 1, 4096),
                      rows_of(kShortTextElements, false, 0, 1));
  // The lattice body and the per-state openings; batched activations and
  // cycle-by-cycle ones, in chunks smaller than an activation.
  expect_same_columns(rows_of(kLattice, true, 5, 4), rows_of(kLattice, false, 5, 4));
  expect_same_columns(rows_of(kCursor, true, 1, 2), rows_of(kCursor, false, 1, 2, 777));
  const std::vector<Column> opening = rows_of(kOpening, true, 0, 8, 3);
  expect_same_columns(opening, rows_of(kOpening, false, 0, 8));
  ASSERT_EQ(opening.size(), 6u);
  EXPECT_EQ(opening[0].words, (std::vector<uint64_t>{2, 2, 3, 3, 3, 3, 6, 6, 7, 7, 7, 7}));
  EXPECT_EQ(opening[3].value(0).as_u64(), 465u);
  // The nullable output: null where i == 2, a value elsewhere.
  EXPECT_TRUE(opening[5].value(4).is_none());
  EXPECT_EQ(opening[5].value(0).as_u64(), 465u);
  EXPECT_EQ(std::string(opening[4].text(5)), "y-2");
}

TEST(TraversalRows, ChunksNumberTheirRowsAndCarryTheParentCoordinate) {
  for (const bool batch : {true, false}) {
    TraversalRowsOptions options;
    options.chunk_rows = 5;
    options.batch = batch;
    const TraversalRows rows(compile(kLattice), options);
    EXPECT_EQ(rows.names(), (std::vector<std::string>{"cycle", "a", "t", "v", "s"}));
    EXPECT_EQ(rows.types(),
              (std::vector<Type>{Type::U64, Type::U64, Type::Str, Type::U64, Type::Str}));
    EXPECT_EQ(rows.rows_of(3), batch ? std::optional<uint64_t>(18) : std::nullopt);
    uint64_t next = 0;
    std::vector<uint64_t> parents;
    const uint64_t made = rows.stream(
        10, 3, [](const ColumnChunk&, std::string& bytes) { bytes = "x"; },
        [&](const ColumnChunk& chunk, std::string& bytes) {
          EXPECT_EQ(bytes, "x");
          EXPECT_EQ(chunk.first, next);
          next += chunk.rows;
          parents.insert(parents.end(), chunk.columns[0].words,
                         chunk.columns[0].words + chunk.rows);
        });
    EXPECT_EQ(made, 18u);
    EXPECT_EQ(next, 18u);
    EXPECT_EQ(parents, (std::vector<uint64_t>{10, 10, 10, 10, 10, 10, 11, 11, 11, 11, 11, 11, 12,
                                              12, 12, 12, 12, 12}));
  }
}

TEST(TraversalRows, ALimitEndsTheRowsOfEndlessCoordinates) {
  for (const char* source : {kLattice, kOpening, kCursor}) {
    const TraversalRows rows(compile(source), TraversalRowsOptions{});
    const std::vector<Column> seven = rows.evaluate(0, ~uint64_t{0}, 7);
    EXPECT_EQ(seven[0].words.size(), 7u) << source;
  }
}

TEST(TraversalRows, AStopEndsTheRows) {
  std::atomic<bool> stop{true};
  for (const char* source : {kLattice, kOpening, kCursor}) {
    TraversalRowsOptions options;
    options.stop = &stop;
    EXPECT_THROW(TraversalRows(compile(source), options).evaluate(0, 1000), StoppedError) << source;
  }
}

TEST(TraversalRows, BadOptionsAreRefusedBeforeAnyRowRuns) {
  const auto refused = [](TraversalRowsOptions options, const std::string& says) {
    try {
      TraversalRows(compile(kOpening), options);
      ADD_FAILURE() << "accepted; expected " << says;
    } catch (const WriteError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused({.traversal = 1}, "traversal");
  refused({.outputs = {"z", "z"}}, "name 'z' twice");
  refused({.outputs = {"nope"}}, "nope");
  refused({.coordinates = {1, 2}}, "need a value for each of the program's 1 input(s), got 2");
  refused({.externs = {{"nope", Value::u64(1)}}}, "nope");
  try {
    TraversalRows(compile("extern e: u64\nfor a in 0..2 { v := a }\n"), {});
    ADD_FAILURE() << "a program without an input was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("input"), std::string::npos) << e.what();
  }
}

// The batched activations wrote no row and no error for an output an
// unset extern fed (the per-state rows failed it): every path fails its
// first row, placed.
TEST(TraversalRows, AnOutputAnUnsetExternFeedsFailsItsFirstRowOnEveryPath) {
  const std::string dir = temp_dir();
  const std::string file =
      write_program(dir, "none.polydat",
                    "input cycle\nextern e: u64\nfor k in 0..2 {\n  cursor rows = range(0, 5000)\n"
                    "  z := e + rows\n}\n");
  for (const std::string engine : {"", " --engine interpreter"}) {
    const CommandResult r = run_polyrt("run " + file + " --cycles 1..3" + engine);
    EXPECT_EQ(r.status, 1) << engine;
    expect_contains(r.err, {"output 'z' is None at coordinate 1", "coordinates: cycle=1; k=0"});
  }
  TraversalRowsOptions options;
  for (const bool batch : {true, false}) {
    options.batch = batch;
    EXPECT_THROW(TraversalRows(compile_file(file), options).evaluate(1, 1), EvalError);
  }
}

}  // namespace
}  // namespace polyrt::test

namespace polyrt::test {
namespace {

// polyrt run refused a program of several traversals ("split the
// program"); nmbrs's workloads have them: each one's rows in source order,
// a header each, on every engine alike.
TEST(TraversalRows, SeveralTraversalsRunOneAfterAnotherWithAHeaderEach) {
  const std::string dir = temp_dir();
  const std::string file = write_program(
      dir, "two.polydat",
      "input cycle\nbase := cycle * 100\nfor a in 0..2 {\n  v := base + a\n}\n"
      "n := cycle % 3\nfor i in 0..{n} {\n  s := \"i{i}\"\n}\n");
  const CommandResult csv = run_polyrt("run " + file + " --cycles 0..3");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out,
            "cycle,a,v\n0,0,0\n0,1,1\n1,0,100\n1,1,101\n2,0,200\n2,1,201\n"
            "cycle,i,s\n1,0,i0\n2,0,i0\n2,1,i1\n");
  EXPECT_EQ(run_polyrt("run " + file + " --cycles 0..3 --engine interpreter").out, csv.out);
  const CommandResult jsonl = run_polyrt("run " + file + " --cycles 1..2 --format jsonl");
  EXPECT_EQ(jsonl.out, "{\"cycle\":1,\"a\":0,\"v\":100}\n{\"cycle\":1,\"a\":1,\"v\":101}\n"
                       "{\"cycle\":1,\"i\":0,\"s\":\"i0\"}\n");
  const CommandResult parquet =
      run_polyrt("run " + file + " --cycles 0..3 --format parquet --out " + dir + "/t.parquet");
  EXPECT_EQ(parquet.status, 2);
  expect_contains(parquet.err, {"2 traversals", "write csv, tsv or jsonl, not parquet"});
  const CommandResult outputs = run_polyrt("run " + file + " --cycles 0..3 --outputs v");
  EXPECT_EQ(outputs.status, 2);
  expect_contains(outputs.err, {"--outputs names the outputs of one traversal's body"});
  // preview shows each traversal's rows too, its comprehension above them.
  const CommandResult preview = run_polyrt("preview " + file + " --cycles 1..3 --rows 2");
  ASSERT_EQ(preview.status, 0) << preview.err;
  expect_contains(preview.out, {"traversal 0: for a in 0..2\n", "| cycle | a   | v   |",
                                "|     1 |   1 | 101 |", "\ntraversal 1: for i in 0..{n}\n",
                                "| cycle | i   | s   |", "|     2 |   0 | i0  |"});
  const CommandResult preview_outputs = run_polyrt("preview " + file + " --outputs v");
  EXPECT_EQ(preview_outputs.status, 2);
  expect_contains(preview_outputs.err, {"--outputs names the outputs of one traversal's body"});
}

}  // namespace
}  // namespace polyrt::test
