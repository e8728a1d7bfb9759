// polydat's data file nodes (nodes/nodes_data_files.cpp, io/data_files):
// the assertions of polydat's datafile.rs tests (RFC 4180 quoting, headers,
// dot paths), files found from the program's directory, every engine and
// the batch tier alike, data files protected from output, and the compile
// errors of files that cannot be read or parsed.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <fstream>

#include "polyrt/batch.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir + "/" + name, std::ios::binary) << text;
  return dir + "/" + name;
}

// Row `ordinal` of `expr` (which names the file by `path`) on every engine.
std::string pick(const std::string& expr, uint64_t ordinal) {
  return values_everywhere("input c\nx := " + expr + "\n", ordinal, {"x"})[0];
}

TEST(DataFiles, CsvFieldsRowsAndCounts) {
  const std::string dir = temp_dir();
  const std::string people =
      write_file(dir, "people.csv", "name,age,city\nalice,30,paris\nbob,25,london\n");
  const std::string field = "csv_field(c, \"" + people + "\", ";
  EXPECT_EQ(pick(field + "\"name\")", 0), "str alice");
  EXPECT_EQ(pick(field + "\"name\")", 1), "str bob");
  EXPECT_EQ(pick(field + "\"name\")", 2), "str alice");  // ordinals wrap
  EXPECT_EQ(pick(field + "\"1\")", 0), "str 30");        // a column by index
  const std::string counts = write_file(dir, "counts.csv", "h1,h2\na,b\nc,d\ne,f\n");
  EXPECT_EQ(pick("csv_row_count(\"" + counts + "\")", 0), "u64 3");
  EXPECT_EQ(pick("csv_row(c, \"" + write_file(dir, "r.csv", "a,b,c\n1,2,3\n4,5,6\n") + "\")", 0),
            "str 1,2,3");
}

TEST(DataFiles, CsvQuotingFollowsRfc4180) {
  const std::string dir = temp_dir();
  const std::string quoted = write_file(
      dir, "q.csv",
      "id,note,who\n1,\"line one\nline two\",\"Shook, Jonathan\"\n2,\"crlf\r\nhere\",\"say "
      "\"\"hi\"\"\"\r\n3,plain, spaced \n");
  const auto field = [&](const char* column, uint64_t row) {
    return pick("csv_field(c, \"" + quoted + "\", \"" + column + "\")", row);
  };
  EXPECT_EQ(field("note", 0), "str line one\nline two");
  EXPECT_EQ(field("note", 1), "str crlf\r\nhere");
  EXPECT_EQ(field("note", 2), "str plain");
  EXPECT_EQ(field("who", 0), "str Shook, Jonathan");
  EXPECT_EQ(field("who", 1), "str say \"hi\"");
  EXPECT_EQ(field("who", 2), "str spaced");  // trimmed
  EXPECT_EQ(pick("csv_row_count(\"" + quoted + "\")", 0), "u64 3");
  EXPECT_EQ(pick("csv_row(c, \"" + quoted + "\")", 1), "str 2,\"crlf\r\nhere\",\"say \"\"hi\"\"\"");
  const std::string empty = write_file(dir, "e.csv", "a,b,c\n1,\"\",3\n");
  EXPECT_EQ(pick("csv_field(c, \"" + empty + "\", \"b\")", 0), "str ");
}

TEST(DataFiles, JsonlFieldsAndRows) {
  const std::string dir = temp_dir();
  const std::string users =
      write_file(dir, "u.jsonl",
                 "{\"name\":\"alice\",\"age\":30,\"user\":{\"tags\":[\"x\",\"y\"]}}\n\n"
                 "{\"name\":\"bob\",\"age\":25,\"nothing\":null}\r\n");
  const auto field = [&](const char* path, uint64_t row) {
    return pick("jsonl_field(c, \"" + users + "\", \"" + path + "\")", row);
  };
  EXPECT_EQ(field("name", 0), "str alice");
  EXPECT_EQ(field("name", 1), "str bob");
  EXPECT_EQ(field("age", 1), "str 25");
  EXPECT_EQ(field("user.tags.1", 0), "str y");
  EXPECT_EQ(field("user", 0), "str {\"tags\":[\"x\",\"y\"]}");
  EXPECT_EQ(field("user.tags.7", 0), "str ");
  EXPECT_EQ(field("nothing", 1), "str ");
  EXPECT_EQ(pick("jsonl_row(c, \"" + users + "\")", 1),
            "str {\"name\":\"bob\",\"age\":25,\"nothing\":null}");
  EXPECT_EQ(pick("jsonl_row_count(\"" + users + "\")", 0), "u64 2");
  const std::string text = write_file(dir, "t.txt", "one\r\n\nthree\n");
  EXPECT_EQ(pick("file_line_at(c, \"" + text + "\")", 0), "str one");
  EXPECT_EQ(pick("file_line_at(c, \"" + text + "\")", 1), "str ");  // blank lines count
  EXPECT_EQ(pick("file_line_at(c, \"" + text + "\")", 5), "str three");
}

TEST(DataFiles, FoundFromTheProgramsDirectoryAndProtectedFromOutput) {
  const std::string dir = temp_dir();
  write_file(dir, "cities.csv", "city\nparis\nlondon\n");
  const std::string program =
      write_program(dir, "p.polydat", "input c\ncity := csv_field(c, \"cities.csv\", \"city\")\n");
  const CommandResult run = run_polyrt("run " + program + " --cycles 0..3 --format jsonl");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "{\"city\":\"paris\"}\n{\"city\":\"london\"}\n{\"city\":\"paris\"}\n");
  const auto compiled = compile_file(program);
  const std::vector<std::string>& files = compiled->source_files();
  EXPECT_NE(std::find(files.begin(), files.end(), dir + "/cities.csv"), files.end());
  const CommandResult over =
      run_polyrt("run " + program + " --cycles 0..3 --out " + dir + "/cities.csv");
  EXPECT_NE(over.status, 0);
  expect_contains(over.err, {"a source file of the program"});
  EXPECT_EQ(read_file(dir + "/cities.csv"), "city\nparis\nlondon\n");
  // The batch tier picks rows with a native index.
  BatchOptions options;
  const auto columns = BatchEvaluator(compiled, options).evaluate(0, 5);
  EXPECT_EQ(columns[0].text(3), "london");
}

TEST(DataFiles, FilesThatCannotBeReadOrParsedAreCompileErrors) {
  const std::string dir = temp_dir();
  const auto error = [](const std::string& expr) {
    return compile_error("input c\nx := " + expr + "\n");
  };
  expect_contains(error("csv_field(c, \"" + dir + "/missing.csv\", \"a\")"),
                  {"csv_field: failed to read '", "/missing.csv'"});
  expect_contains(error("csv_row(c, \"" + dir + "\")"), {"a directory, not a data file"});
  const std::string open = write_file(dir, "open.csv", "a,b\n1,\"open\n2,x\n");
  expect_contains(error("csv_field(c, \"" + open + "\", \"b\")"),
                  {"unterminated quoted field starting at line 2"});
  expect_contains(error("csv_row_count(\"" + open + "\")"),
                  {"unterminated quoted field starting at line 2"});
  const std::string after = write_file(dir, "after.csv", "a,b\n\"a\"b,c\n");
  expect_contains(error("csv_field(c, \"" + after + "\", \"a\")"),
                  {"row 1: unexpected text after the closing quote of field 1"});
  const std::string people = write_file(dir, "people.csv", "name,age\nalice,30\n");
  expect_contains(error("csv_field(c, \"" + people + "\", \"email\")"),
                  {"column 'email' not found", "Available: name, age"});
  expect_contains(error("csv_row(c, \"" + write_file(dir, "h.csv", "only,header\n") + "\")"),
                  {"has no data rows"});
  const std::string bad = write_file(dir, "bad.jsonl", "{\"a\":1}\n{\"a\":\n");
  expect_contains(error("jsonl_field(c, \"" + bad + "\", \"a\")"), {"parse error at line 2"});
  expect_contains(error("jsonl_row(c, \"" + write_file(dir, "e.jsonl", "\n \n") + "\")"),
                  {"has no lines"});
}

// A data file costs about its size (one buffer of its rows and their
// offsets), not a string per row: 10-12 times its size once (issue 48 #16).
// Measured as the peak resident memory of `polyrt run` child processes (the
// largest of this test's children so far: a tiny program's first), on the
// CPU (the tests' CUDA double would add a GPU's buffers).
TEST(DataFiles, AFileCostsAboutItsSizeInMemory) {
  const std::string dir = temp_dir();
  std::string lines;
  for (int i = 0; i < 2'000'000; ++i) lines += "row-" + std::to_string(10'000'000 + i) + "-abc\n";
  const std::string data = write_file(dir, "rows.txt", lines);
  const auto peak_kib = [] {
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return (uint64_t)usage.ru_maxrss;
  };
  const CommandResult tiny = run_polyrt(
      "run " + write_program(dir, "tiny.polydat", "input c\nx := c\n") + " --rows 3 --device cpu");
  ASSERT_EQ(tiny.status, 0) << tiny.err;
  const uint64_t baseline = peak_kib();
  const CommandResult read = run_polyrt(
      "run " +
      write_program(dir, "big.polydat", "input c\nx := file_line_at(c, \"" + data + "\")\n") +
      " --rows 3 --device cpu");
  ASSERT_EQ(read.status, 0) << read.err;
  EXPECT_EQ(read.out, "x\nrow-10000000-abc\nrow-10000001-abc\nrow-10000002-abc\n");
  const uint64_t file_kib = lines.size() / 1024;
  EXPECT_LT(peak_kib() - baseline, 3 * file_kib)
      << "the data file of " << file_kib << " KiB took " << peak_kib() - baseline << " KiB";
}

}  // namespace
}  // namespace polyrt::test
