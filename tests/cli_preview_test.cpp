// polyrt preview: the first rows as an aligned table whose values are the
// run's, None shown distinctly, text made printable and cut to fit,
// display widths respected, the width honoured by eliding middle columns,
// traversal rows, and the refusals. (stdout is a pipe here: ASCII borders,
// "null" and "...".)
#include <gtest/gtest.h>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const std::string kUsers = std::string(POLYRT_SOURCE_DIR) + "/examples/users.polydat";

// The cells of a table's data lines, trimmed.
std::vector<std::vector<std::string>> cells_of(const std::string& table) {
  std::vector<std::vector<std::string>> rows;
  size_t line_start = 0;
  int rules = 0;
  while (line_start < table.size()) {
    const size_t end = table.find('\n', line_start);
    const std::string line = table.substr(line_start, end - line_start);
    line_start = end + 1;
    if (line.rfind("+", 0) == 0) ++rules;
    if (rules != 2 || line.rfind("|", 0) != 0) continue;
    std::vector<std::string> row;
    size_t at = 1;
    while (at < line.size()) {
      const size_t bar = line.find('|', at);
      std::string cell = line.substr(at, bar - at);
      cell.erase(0, cell.find_first_not_of(' '));
      cell.erase(cell.find_last_not_of(' ') + 1);
      row.push_back(cell);
      at = bar + 1;
    }
    rows.push_back(row);
  }
  return rows;
}

TEST(CliPreview, TheFirstRowsAreTheRunsValues) {
  const auto preview = run_polyrt("preview " + kUsers + " --rows 3 --cycles 7..100");
  ASSERT_EQ(preview.status, 0) << preview.err;
  expect_contains(preview.out, {"| seed ", "| u64 ", "| str ", "3 rows from cycle = 7\n"});
  const auto run = run_polyrt("run " + kUsers + " --cycles 7..10");
  ASSERT_EQ(run.status, 0) << run.err;
  std::vector<std::vector<std::string>> csv;
  size_t at = run.out.find('\n') + 1;
  while (at < run.out.size()) {
    const size_t end = run.out.find('\n', at);
    std::vector<std::string> row;
    std::string line = run.out.substr(at, end - at) + ",";
    for (size_t comma; (comma = line.find(',')) != std::string::npos; line.erase(0, comma + 1)) {
      row.push_back(line.substr(0, comma));
    }
    csv.push_back(row);
    at = end + 1;
  }
  EXPECT_EQ(cells_of(preview.out), csv);
  // Numbers align right: the narrowest seed is padded on its left.
  EXPECT_NE(preview.out.find("|  "), std::string::npos);
}

TEST(CliPreview, NoneControlCharactersWideTextAndLongText) {
  const std::string dir = temp_dir();
  const std::string file = write_program(
      dir, "p.polydat",
      "input cycle\nextern nick: str\nn := nick\ns := \"日本語\" + format_u64(cycle)\n"
      "c := \"a\\nb\\t\"\nlong := zero_pad_u64(cycle, 4096) + zero_pad_u64(cycle, 4096)\n");
  const auto r = run_polyrt("preview " + file + " --rows 2");
  ASSERT_EQ(r.status, 0) << r.err;
  // The CJK cell takes 7 columns, so the 3-column header pads to it.
  // A long text is cut at 40 columns, the ellipsis included.
  const std::string cut = "| null | 日本語1 | a\\nb\\t | " + std::string(37, '0') + "... |";
  expect_contains(r.out,
                  {"| n    | s       | c      | long ", cut.c_str(), "2 rows from cycle = 0\n"});
  const auto none = run_polyrt("preview " + file + " --rows 1 --set nick=ana");
  expect_contains(none.out, {"| ana |"});
}

// Nothing reaches the terminal raw: C1 controls (U+009B is CSI, which
// starts an escape sequence as ESC [ does) are escaped, and every invalid
// byte is U+FFFD (lead bytes 0xF5..0xFF were once read as 3-byte sequences,
// passing the bytes after them raw); in preview and in stats' top values,
// which are cut on character boundaries.
TEST(CliPreview, NoTerminalControlReachesTheTerminal) {
  const std::string dir = temp_dir();
  const std::string file =
      write_program(dir, "t.polydat", "input cycle\nextern nick: str\nn := nick\n");
  const std::string set = " --set \"nick=$(printf '\\302\\233[31m\\365\\033x\\377')\"";
  const auto r = run_polyrt("preview " + file + " --rows 1" + set);
  ASSERT_EQ(r.status, 0) << r.err;
  expect_contains(r.out, {"\\u009b[31m\xEF\xBF\xBD\\x1bx\xEF\xBF\xBD"});
  const auto stats = run_polyrt("stats " + file + " --cycles 0..10" + set);
  ASSERT_EQ(stats.status, 0) << stats.err;
  expect_contains(stats.out, {"\\u009b[31m\xEF\xBF\xBD\\x1bx\xEF\xBF\xBD"});
  for (const std::string& out : {r.out, stats.out}) {
    EXPECT_EQ(out.find("\xC2\x9B"), std::string::npos);
    EXPECT_EQ(out.find('\033'), std::string::npos);
    EXPECT_EQ(out.find('\xF5'), std::string::npos);
  }
  // A long top value is cut on a character boundary: 37 columns of 3-byte
  // characters, never a lone lead byte.
  std::string euros;
  for (int k = 0; k < 50; ++k) euros += "\xE2\x82\xAC";  // U+20AC, 3 bytes
  const auto wide = run_polyrt("stats " + file + " --cycles 0..10 --set nick=" + euros);
  ASSERT_EQ(wide.status, 0) << wide.err;
  euros.resize(37 * 3);
  expect_contains(wide.out, {(euros + "...\n").c_str()});
}

// A lattice too large for one per-state opening previews the rows run
// writes (it was refused: "more than the 16777216 tuples one opening
// materializes").
TEST(CliPreview, ALargeLatticePreviewsAsItRuns) {
  const std::string file =
      write_program(temp_dir(), "l.polydat",
                    "input cycle\nfor a in 0..100000000, b in 0..100000 { x := a * b + 1 }\n");
  const auto preview = run_polyrt("preview " + file + " --rows 3 --cycles 4..9");
  ASSERT_EQ(preview.status, 0) << preview.err;
  EXPECT_EQ(cells_of(preview.out),
            (std::vector<std::vector<std::string>>{
                {"4", "0", "0", "1"}, {"4", "0", "1", "1"}, {"4", "0", "2", "1"}}));
  expect_contains(preview.out, {"| cycle | a   | b   | x   |", "3 rows from cycle = 4"});
  // The same rows as run writes them (a small lattice: the per-state path).
  const std::string small = write_program(
      temp_dir(), "s.polydat", "input cycle\nfor a in 0..3, b in 0..2 { x := a * b + 1 }\n");
  const auto lattice = run_polyrt("preview " + small + " --rows 4 --cycles 4..9");
  const auto run = run_polyrt("run " + small + " --cycles 4..5 --format csv");
  EXPECT_EQ(run.out.substr(0, 44), "cycle,a,b,x\n4,0,0,1\n4,0,1,1\n4,1,0,1\n4,1,1,2\n");
  EXPECT_EQ(
      cells_of(lattice.out),
      (std::vector<std::vector<std::string>>{
          {"4", "0", "0", "1"}, {"4", "0", "1", "1"}, {"4", "1", "0", "1"}, {"4", "1", "1", "2"}}));
}

TEST(CliPreview, AWidthElidesMiddleColumns) {
  const auto r = run_polyrt_with("COLUMNS=70", "preview " + kUsers + " --rows 2");
  ASSERT_EQ(r.status, 0) << r.err;
  size_t at = 0, lines = 0;
  while (at < r.out.size()) {
    const size_t end = r.out.find('\n', at);
    EXPECT_LE(end - at, 70u) << r.out.substr(at, end - at);
    at = end + 1;
    ++lines;
  }
  EXPECT_EQ(lines, 8u);  // 3 rules, 2 header lines, 2 rows, the footer
  expect_contains(r.out, {"| seed ", "| ... |", "| label "});
  const auto given = run_polyrt("preview " + kUsers + " --rows 2 --width 70");
  EXPECT_EQ(given.out, r.out);
}

TEST(CliPreview, TraversalsAndRanges) {
  const std::string dir = temp_dir();
  const std::string nested = write_program(
      dir, "n.polydat",
      "input cycle\nfor a in 1..3 {\n  base := a * 100\n  for b in 1..3 { v := base + b }\n}\n");
  const auto r = run_polyrt("preview " + nested + " --rows 3 --cycles 4..9");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(cells_of(r.out),
            (std::vector<std::vector<std::string>>{
                {"4", "1", "1", "101"}, {"4", "1", "2", "102"}, {"4", "2", "1", "201"}}));
  const auto last = run_polyrt("preview " + kUsers + " --rows 5 --cycles 18446744073709551614..");
  ASSERT_EQ(last.status, 0) << last.err;
  expect_contains(last.out, {"2 rows from cycle = 18446744073709551614"});
  const auto empty = run_polyrt("preview " + kUsers + " --cycles 5..5");
  ASSERT_EQ(empty.status, 0) << empty.err;
  expect_contains(empty.out, {"0 rows from cycle = 5"});
  for (const char* bad : {"--rows 0", "--rows -1", "--rows x", "--width 3", "--cycles 9..2"}) {
    const auto refused = run_polyrt(std::string("preview " + kUsers + " ") + bad);
    EXPECT_EQ(refused.status, 2) << bad;
    expect_contains(refused.err, {"polyrt preview: "});
  }
  expect_contains(run_polyrt("preview " + kUsers + " --outputs nope").err, {"nope"});
}

}  // namespace
}  // namespace polyrt::test
