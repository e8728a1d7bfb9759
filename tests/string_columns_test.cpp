// The batch tier's str columns (Arrow's LargeString layout) and the row
// writers that copy them: a column written in pieces across buffer growth
// reads back row for row, a recycled column keeps its buffer, and a chunk's
// rows are the bytes the per-value writer gives, on the memcpy path and the
// escaping path alike.
#include <gtest/gtest.h>

#include <random>

#include "columns/string_column.hpp"
#include "polyrt/batch.hpp"
#include "scheduler/encoding/row_format.hpp"

namespace polyrt::test {
namespace {

using columns::StringColumn;

std::string random_text(std::mt19937_64& rng, const std::string& alphabet, size_t max_size) {
  std::string s(rng() % (max_size + 1), ' ');
  for (char& c : s) c = alphabet[rng() % alphabet.size()];
  return s;
}

TEST(StringColumn, RowsWrittenInPiecesAcrossGrowthReadBack) {
  std::mt19937_64 rng(7);
  StringColumn column;
  std::vector<std::string> want;
  for (int r = 0; r < 20000; ++r) {
    std::string row;
    char* p = column.cursor();
    for (size_t piece = rng() % 4; piece > 0; --piece) {
      const std::string text = random_text(rng, "abc,\"\n", 300);
      p = column.ensure(p, text.size());
      p = std::copy(text.begin(), text.end(), p);
      row += text;
    }
    column.finish_row(p);
    want.push_back(row);
  }
  ASSERT_EQ(column.rows(), want.size());
  EXPECT_EQ(column.offsets()[0], 0);
  for (size_t r = 0; r < want.size(); ++r) ASSERT_EQ(column[r], want[r]) << r;
  EXPECT_EQ((size_t)column.offsets()[want.size()], column.byte_size());
}

TEST(StringColumn, ARecycledColumnKeepsItsBuffer) {
  StringColumn column;
  column.append_repeated("lineitem", 1000);
  const char* buffer = column.bytes();
  column.clear(1000);
  EXPECT_EQ(column.rows(), 0u);
  column.append_repeated("lineitem", 1000);
  EXPECT_EQ(column.bytes(), buffer);
  EXPECT_EQ(column[999], "lineitem");
  column.clear();
  column.append_repeated("", 3);
  column.append("x");
  ASSERT_EQ(column.rows(), 4u);
  EXPECT_EQ(column[0], "");
  EXPECT_EQ(column[2], "");
  EXPECT_EQ(column[3], "x");
}

// Padded copies read and write 16 bytes whatever the length: a column of
// empty rows (a one_of_weighted table of "" values) still has a buffer.
TEST(StringColumn, EmptyRowsStillHaveAPaddedBuffer) {
  StringColumn table;
  table.append("");
  table.append("");
  ASSERT_NE(table.bytes(), nullptr);
  StringColumn out;
  out.append_padded(table[1]);
  out.append_padded(table[0]);
  ASSERT_EQ(out.rows(), 2u);
  EXPECT_EQ(out[0], "");
  EXPECT_NE(out.bytes(), nullptr);
}

// The chunk's rows through append_rows, and the same rows field by field
// through append_field (the per-state tiers' writer).
void expect_chunk_equals_fields(RowFormat format, const std::vector<StringColumn>& texts,
                                const std::vector<uint64_t>& numbers) {
  const uint64_t rows = numbers.size();
  ColumnChunk chunk{.first = 0, .rows = rows, .columns = {}};
  std::vector<std::string> names;
  for (size_t k = 0; k < texts.size(); ++k) {
    chunk.columns.push_back(
        ColumnView{.type = Type::Str, .offsets = texts[k].offsets(), .bytes = texts[k].bytes()});
    names.push_back("s" + std::to_string(k));
  }
  chunk.columns.push_back(ColumnView{.type = Type::U64, .words = numbers.data()});
  names.push_back("n");
  std::string got;
  scheduler::append_rows(got, format, names, chunk);
  std::string want;
  for (uint64_t r = 0; r < rows; ++r) {
    scheduler::begin_row(want, format);
    for (size_t k = 0; k < names.size(); ++k) {
      if (k) scheduler::field_separator(want, format);
      const Value v =
          k < texts.size() ? Value::str(std::string(texts[k][r])) : Value::u64(numbers[r]);
      scheduler::append_field(want, format, names[k], v, r);
    }
    scheduler::end_row(want, format);
  }
  ASSERT_EQ(got, want);
}

// format_f64's columnar form (two decimals with the precision folded in,
// any other as given) writes the per-value text of every kind of double:
// negative, huge, tiny, signed zeros, not finite.
TEST(StringColumn, FixedDecimalColumnsAreTheValuesText) {
  const auto program = compile(
      "input x: u64\nh := hash(x)\nu := unit_interval(h) - 0.5\n"
      "price := to_f64(h % 2000000) / 100.0 - 10000.0\n"
      "p2 := format_f64(price, 2)\np3 := format_f64(price, 3)\np0 := format_f64(price, 0)\n"
      "b2 := format_f64(u * 1e300, 2)\nt2 := format_f64(u * 1e-310, 2)\n"
      "i2 := format_f64(u / 0.0, 2)\nn2 := format_f64(u / 0.0 * 0.0, 2)\n"
      "z2 := format_f64(u * 0.0, 2)\n");
  BatchOptions options;
  options.outputs = {"p2", "p3", "p0", "b2", "t2", "i2", "n2", "z2"};
  const std::vector<Column> columns = BatchEvaluator(program, options).evaluate(0, 20000);
  State state = program->new_state();
  for (uint64_t x = 0; x < 20000; ++x) {
    state.set_inputs({x});
    for (size_t o = 0; o < columns.size(); ++o) {
      ASSERT_EQ(columns[o].text(x), state.pull(options.outputs[o]).as_str())
          << options.outputs[o] << " at " << x;
    }
  }
}

TEST(RowFormats, ChunkRowsAreTheBytesOfTheFieldWriterOnEitherPath) {
  std::mt19937_64 rng(11);
  for (RowFormat format : {RowFormat::Csv, RowFormat::Tsv, RowFormat::Jsonl}) {
    for (int round = 0; round < 20; ++round) {
      // Column 0 is plain text of every size near the 16-byte copy; column 1
      // holds special characters (in its last row only, every other round).
      std::vector<StringColumn> texts(2);
      std::vector<uint64_t> numbers;
      const uint64_t rows = 1 + rng() % 64;
      for (uint64_t r = 0; r < rows; ++r) {
        texts[0].append(random_text(rng, "abcdefgh 0123", 40));
        const bool special = round % 2 == 0 || r + 1 == rows;
        texts[1].append(random_text(rng, special ? "ab,\"\t\n\r\\\x01\xc3\xa9\xff" : "xyz", 20));
        numbers.push_back(rng());
      }
      SCOPED_TRACE("format " + std::to_string((int)format) + " round " + std::to_string(round));
      expect_chunk_equals_fields(format, texts, numbers);
    }
  }
}

// A str column whose rows are all empty may have no byte buffer at all: its
// rows are written without reading one (UBSan flagged the copy's bound,
// computed from a null pointer, once the differential test wrote rows).
TEST(RowFormats, AStrColumnWithoutBytesWritesEmptyFields) {
  const int64_t offsets[3] = {0, 0, 0};
  const uint64_t numbers[2] = {7, 8};
  ColumnChunk chunk{.first = 0, .rows = 2, .columns = {}};
  chunk.columns.push_back(ColumnView{.type = Type::Str, .offsets = offsets, .bytes = nullptr});
  chunk.columns.push_back(ColumnView{.type = Type::U64, .words = numbers});
  const std::vector<std::string> names = {"s", "n"};
  for (const auto& [format, want] :
       {std::pair{RowFormat::Csv, ",7\n,8\n"}, std::pair{RowFormat::Tsv, "\t7\n\t8\n"},
        std::pair{RowFormat::Jsonl, "{\"s\":\"\",\"n\":7}\n{\"s\":\"\",\"n\":8}\n"}}) {
    std::string got;
    scheduler::append_rows(got, format, names, chunk);
    EXPECT_EQ(got, want);
  }
}

}  // namespace
}  // namespace polyrt::test
