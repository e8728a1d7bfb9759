// polydat's body and bracket-array nodes (nodes/nodes_json_bodies.cpp):
// the assertions of polydat's json.rs and exactly_one.rs tests, on every
// engine, and the failures of a body that is not unary.
#include <gtest/gtest.h>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// "<type> <text>" of `expr` on every engine (one must not differ).
std::string everywhere(const std::string& expr) {
  return values_everywhere("input c\nx := " + expr + "\n", 0, {"x"})[0];
}

std::string body(const std::string& json) {
  return "'" + json + "' as json";
}

TEST(JsonBodies, BodyColumnI32ReadsRowsEnvelopesAndSkips) {
  EXPECT_EQ(everywhere("body_column_i32(" +
                       body(R"([{{"key": 4, "value": 0.5}}, {{"key": 17}}, {{"key": 42}}])") +
                       ", \"key\")"),
            "vec_i32 [4,17,42]");
  EXPECT_EQ(everywhere("body_column_i32(" +
                       body(R"({{"rows": [{{"id": 1}}, {{"id": 7}}], "metadata": "ignored"}})") +
                       ", \"id\")"),
            "vec_i32 [1,7]");
  EXPECT_EQ(
      everywhere("body_column_i32(" +
                 body(R"([{{"key": 1}}, {{"other": 2}}, {{"key": "not_an_int"}}, {{"key": 3}},)"
                      R"( {{"key": "42"}}, {{"key": "-7"}}, {{"key": 1e12}}, {{"key": -2.7}}])") +
                 ", \"key\")"),
      "vec_i32 [1,3,42,-7,2147483647,-2]");
  EXPECT_EQ(everywhere("body_column_i32(" + body("[]") + ", \"key\")"), "vec_i32 []");
  EXPECT_EQ(everywhere("body_column_i32(\"not json\", \"key\")"), "vec_i32 []");
  EXPECT_EQ(everywhere("body_column_i32(" + body(R"({{"id": 5}})") + ", \"id\")"), "vec_i32 [5]");
}

TEST(JsonBodies, JsonTextFlattensLeavesForRegexes) {
  const std::string describe = body(
      R"([{{"name": "sai", "create_statement": "CREATE TABLE sv.sai (\\n    k text\\n);"}},)"
      R"( {{"name": "idx", "create_statement": "CREATE VIRTUAL TABLE sv.idx (\\n);", "n": null}}])");
  EXPECT_EQ(
      everywhere("json_text(" + describe + ")"),
      "str CREATE TABLE sv.sai (\n    k text\n);\nsai\nCREATE VIRTUAL TABLE sv.idx (\n);\nidx");
  EXPECT_EQ(everywhere("regex_match(json_text(" + describe +
                       "), \"(?im)^\\\\s*(?:CREATE\\\\s+)?TABLE\\\\s+sv\\\\.sai\\\\s*\\\\(\")"),
            "bool true");
  EXPECT_EQ(everywhere("json_text(42)"), "str 42");
}

TEST(JsonBodies, ExactlyOneValueUnwrapsUnaryBodies) {
  EXPECT_EQ(everywhere("exactly_one_value(\"hello\")"), "str hello");
  EXPECT_EQ(everywhere("exactly_one_value(42)"), "str 42");
  EXPECT_EQ(everywhere("exactly_one_value(2.5)"), "str 2.5");
  EXPECT_EQ(everywhere("exactly_one_value(1.0)"), "str 1.0");  // Debug form
  EXPECT_EQ(everywhere("exactly_one_value(str_to_vec_f32(\"[1.5]\"))"), "str 1.5");
  EXPECT_EQ(everywhere("exactly_one_value(" + body(R"([{{"value": "hello"}}])") + ")"),
            "str hello");
  EXPECT_EQ(everywhere("exactly_one_value(" + body(R"([{{"n": 42}}])") + ")"), "str 42");
  EXPECT_EQ(everywhere("exactly_one_value(" + body(R"([{{"b": true}}])") + ")"), "str true");
  const auto failure = [](const std::string& expr) {
    return thrown_message<Error>([&] {
      State s = compile("input c\nx := " + expr + "\n")->new_state();
      s.set_inputs({0});
      s.pull("x");
    });
  };
  expect_contains(failure("exactly_one_value(" + body("[]") + ")"), {"found 0 rows"});
  expect_contains(failure("exactly_one_value(" + body(R"([{{"a": 1}}, {{"a": 2}}])") + ")"),
                  {"found 2 rows"});
  expect_contains(failure("exactly_one_value(" + body(R"([{{"a": 1, "b": 2}}])") + ")"),
                  {"found 1 row x 2 columns"});
  expect_contains(failure("exactly_one_value(" + body(R"([{{"a": null}}])") + ")"),
                  {"leaf cell is null"});
  expect_contains(failure("exactly_one_value(" + body(R"([{{"a": {{"nested": 1}}}}])") + ")"),
                  {"leaf cell is itself structural (object)"});
  expect_contains(failure("exactly_one_value(str_to_vec_f32(\"[1, 2]\"))"),
                  {"found vec_f32 of length 2"});
}

TEST(JsonBodies, PrettyTextAndBracketArrays) {
  EXPECT_EQ(everywhere("json_to_str_pretty(" +
                       body(R"({{"a": 1, "b": [1, {{"c": []}}], "d": {{}}}})") + ")"),
            "str {\n  \"a\": 1,\n  \"b\": [\n    1,\n    {\n      \"c\": []\n    }\n  ],\n  \"d\": "
            "{}\n}");
  EXPECT_EQ(everywhere("array_len(\"[1, 2, 3]\")"), "u64 3");
  EXPECT_EQ(everywhere("array_len(\" [] \")"), "u64 0");
  EXPECT_EQ(everywhere("array_len(\"1, 2\")"), "u64 0");
  EXPECT_EQ(everywhere("array_at(\"[a, b, c]\", 4)"), "str b");
  EXPECT_EQ(everywhere("array_at(\"[]\", 4)"), "str ");
  EXPECT_EQ(everywhere("normalize_vector(\"[3, 4]\")"), "str [0.6,0.8]");
  EXPECT_EQ(everywhere("normalize_vector(\"[0, 0]\")"), "str [0, 0]");
  EXPECT_EQ(everywhere("normalize_vector(\"3, 4\")"), "str 3, 4");
  // xxh3 chained from the seed, from the xxhash package.
  EXPECT_EQ(everywhere("random_vector(1, 3)"),
            "str [0.18646771958888833,0.8163596403794244,0.16909702271339574]");
}

}  // namespace
}  // namespace polyrt::test
