// polydat's diagnostic nodes (nodes/nodes_diagnostic.cpp): polydat's tests
// of type_of, debug_repr and inspect, on every engine, and inspect's line
// in the log sink.
#include <gtest/gtest.h>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

TEST(DiagnosticNodes, TypeOfAndDebugReprAsPolydatShowsThem) {
  const std::string program =
      "input c\nu := type_of(42)\nf := type_of(3.14)\ns := type_of(\"hello\")\n"
      "v := type_of(hash_vec(c, 2))\nn := type_of((-(c as i64)) as i32)\n"
      "du := debug_repr(42)\nds := debug_repr(\"he said \\\"hi\\\"\")\ndf := debug_repr(1.0)\n"
      "di := debug_repr(-(c as i64) - 3)\ndb := debug_repr(u64_to_bytes(258))\n"
      "dv := debug_repr(str_to_vec_f32(\"[1, 2.5]\"))\ndj := debug_repr(to_json(7))\n";
  EXPECT_EQ(
      values_everywhere(program, 0, {"u", "f", "s", "v", "n"}),
      (std::vector<std::string>{"str u64", "str f64", "str String", "str vec_f32", "str i32"}));
  EXPECT_EQ(values_everywhere(program, 0, {"du", "ds", "df", "di", "db", "dv", "dj"}),
            (std::vector<std::string>{
                "str U64(42)", "str Str(\"he said \\\"hi\\\"\")", "str F64(1.0)", "str I64(-3)",
                "str Bytes([2, 1, 0, 0, 0, 0, 0, 0])", "str VecF32([1.0, 2.5])", "str Json(7)"}));
}

TEST(DiagnosticNodes, InspectPassesThroughAndLogsItsLine) {
  State s = compile("input c\nx := inspect(c * 2, \"test\")\n")->new_state();
  std::vector<std::string> lines;
  s.set_log_sink([&](std::string_view line) { lines.emplace_back(line); });
  s.set_inputs({21});
  EXPECT_EQ(s.pull("x").as_u64(), 42u);
  EXPECT_EQ(lines, (std::vector<std::string>{"[inspect:test] U64(42)"}));
  EXPECT_EQ(values_everywhere("input c\nx := inspect(c)\n", 5, {"x"})[0], "u64 5");
}

}  // namespace
}  // namespace polyrt::test
