// JSON Lines output is valid JSON with a lossless encoding, whatever the
// values: the differential test's random programs, with string externs set
// to random bytes (invalid UTF-8 included) and floats that reach NaN and inf,
// are written as JSON Lines on the per-state and batch paths, and Python's
// json module must read every line back to the same values (strings through
// "surrogateescape", non-finite floats as "NaN", "inf", "-inf").
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>

#include "graph/passes.hpp"
#include "polyrt/batch.hpp"
#include "scheduler/encoding/row_format.hpp"
#include "tests/differential/random_program.hpp"
#include "tests/test_support.hpp"
#include "value/vector_values.hpp"

namespace polyrt::test {
namespace {


std::string random_bytes(std::mt19937_64& rng) {
  std::string s(rng() % 12, ' ');
  for (char& c : s) c = (char)(rng() % 4 == 0 ? rng() % 256 : 'a' + rng() % 26);
  return s;
}

// "b:<hex of the bytes>" for strings, "j:<hex of the JSON text>" for json
// and the partition types (which JSON Lines embeds as JSON),
// "x:<hex>" for bytes (written as that hex), the shortest text for numbers:
// what the Python side compares each decoded field with.
std::string expected(const Value& v) {
  static const char* hex = "0123456789abcdef";
  if (v.type() == Type::Bytes) return "x:" + v.to_string();
  if (!is_payload(v.type())) return v.to_string();
  // A vector is embedded as its JSON array: compared as JSON.
  const std::string text = is_vector(v.type()) ? vector_text(v.type(), v.text()) : v.text();
  std::string out = is_json_text(v.type()) || is_vector(v.type()) ? "j:" : "b:";
  for (unsigned char c : text) {
    out.push_back(hex[c >> 4]);
    out.push_back(hex[c & 15]);
  }
  return out;
}

// One JSON escaper: a JSON Lines field is the escape_json node's text in
// quotes, for every byte (controls, \b and \f, DEL, quotes, backslashes,
// UTF-8 and bytes that are not UTF-8), per state and per batch chunk.
TEST(JsonLines, FieldsAreTheEscapeJsonNodesText) {
  std::string text = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc3 \xed\xa0\x80 \"q\" \\ ";
  for (int c = 0; c < 256; ++c) text.push_back((char)c);
  const auto program = compile("input c\nextern s: str\ne := escape_json(s)\n");
  State state = program->new_state();
  state.set_input("s", Value::str(text));
  const std::string escaped(state.pull("e").text());
  EXPECT_NE(escaped.find("\\b\\t\\n\\u000b\\f\\r"), std::string::npos) << "short forms";
  EXPECT_NE(escaped.find("\\udcc3"), std::string::npos) << "a byte that is not UTF-8";
  std::string per_state;
  scheduler::append_field(per_state, RowFormat::Jsonl, "s", Value::str(text), 0);
  EXPECT_NE(per_state.find("\"" + escaped + "\""), std::string::npos) << per_state;
  const int64_t offsets[] = {0, (int64_t)text.size()};
  ColumnChunk chunk{
      0, 1, {ColumnView{.type = Type::Str, .offsets = offsets, .bytes = text.data()}}};
  std::string batch;
  scheduler::append_rows(batch, RowFormat::Jsonl, {"s"}, chunk);
  EXPECT_EQ(batch, "{\"s\":\"" + escaped + "\"}\n");
}

TEST(JsonLines, PythonReadsEveryLineOfTheRandomProgramsBack) {
  const std::string dir = temp_dir();
  std::ofstream lines(dir + "/rows.jsonl", std::ios::binary);
  std::ofstream want(dir + "/want.txt", std::ios::binary);
  size_t rows = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    std::mt19937_64 rng(seed);
    const difftest::RandomProgram p = difftest::generate_program(seed, 25);
    std::shared_ptr<const Program> program;
    try {
      program = compile(p.source, CompileOptions{.engine = Engine::Interpreter});
    } catch (const Error&) {
      continue;
    }
    State state = program->new_state();
    state.set_log_sink([](std::string_view) {});
    for (const difftest::ExternSpec& e : p.externs) {
      if (e.type == 's') state.set_input(e.name, Value::str(random_bytes(rng)));
      if (e.type == 'f') state.set_input(e.name, Value::f64((double)(rng() % 7) - 3.0));
      if (e.type == 'u') state.set_input(e.name, Value::u64(rng() % 50));
    }
    const auto& names = program->output_names();
    for (int row = 0; row < 4; ++row) {
      std::vector<uint64_t> coords(p.coordinates);
      for (uint64_t& c : coords) c = rng() % 1000;
      state.set_inputs(coords);
      std::string line, expect;
      scheduler::begin_row(line, RowFormat::Jsonl);
      bool complete = true;
      for (size_t k = 0; k < names.size() && complete; ++k) {
        try {
          const Value v = state.pull_at(k);
          if (v.is_none()) {
            complete = false;
            break;
          }
          if (k) scheduler::field_separator(line, RowFormat::Jsonl);
          scheduler::append_field(line, RowFormat::Jsonl, names[k], v,
                                  coords.empty() ? 0 : coords[0]);
          expect += expected(v) + "\t";
        } catch (const EvalError&) {
          complete = false;
        }
      }
      if (!complete) continue;
      scheduler::end_row(line, RowFormat::Jsonl);
      lines << line;
      want << expect << "\n";
      ++rows;
    }
  }
  lines.close();
  want.close();
  ASSERT_GT(rows, 200u);
  const std::string script = dir + "/check.py";
  std::ofstream(script) << R"(import json, math, sys
lines = open(sys.argv[1], encoding="utf-8", errors="strict").read().splitlines()
want = open(sys.argv[2], "rb").read().decode().splitlines()
assert len(lines) == len(want), (len(lines), len(want))
for n, (line, expect) in enumerate(zip(lines, want)):
    row = json.loads(line)
    fields = expect.split("\t")[:-1]
    assert len(row) == len(fields), (n, line)
    for value, field in zip(row.values(), fields):
        if field.startswith("b:"):
            got = value.encode("utf-8", "surrogateescape").hex()
            assert got == field[2:], (n, line, got, field)
        elif field.startswith("j:"):
            assert value == json.loads(bytes.fromhex(field[2:]).decode()), (n, line, field)
        elif field.startswith("x:"):
            assert value == field[2:], (n, line, field)
        elif isinstance(value, str):
            assert value == field and field in ("NaN", "inf", "-inf"), (n, line, field)
        elif isinstance(value, bool):
            assert str(value).lower() == field, (n, line, field)
        else:
            assert float(value) == float(field) or (value == 0 and float(field) == 0), (n, line, field)
print(len(lines))
)";
  const std::string cmd = "python3 " + script + " " + dir + "/rows.jsonl " + dir + "/want.txt > " +
                          dir + "/py.out 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream py(dir + "/py.out");
  const std::string said((std::istreambuf_iterator<char>(py)), {});
  EXPECT_EQ(status, 0) << said;
  EXPECT_EQ(said, std::to_string(rows) + "\n");
}

}  // namespace
}  // namespace polyrt::test
