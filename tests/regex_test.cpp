// The regex nodes (nodes/nodes_regex.cpp): polydat's tests of regex_match,
// regex_replace, regex_extract and pattern_match, Rust's replacement and
// empty-match rules, every engine and the batch tier alike, and what bad
// or hostile patterns get.
#include <gtest/gtest.h>

#include <chrono>

#include "polyrt/batch.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

std::string value_of(const std::string& expr) {
  State s = compile("input c\nx := " + expr + "\n")->new_state();
  s.set_inputs({0});
  return s.pull("x").to_string();
}

TEST(Regex, PolydatsNodeTests) {
  EXPECT_EQ(value_of(R"p(regex_replace("abc 123 def 456", "\\d+", "NUM"))p"), "abc NUM def NUM");
  EXPECT_EQ(value_of(R"p(regex_replace("no numbers here", "\\d+", "NUM"))p"), "no numbers here");
  EXPECT_EQ(value_of(R"p(regex_match("123-4567", "^\\d{{3}}-\\d{{4}}$"))p"), "true");
  EXPECT_EQ(value_of(R"p(regex_match("hello", "^\\d{{3}}-\\d{{4}}$"))p"), "false");
  EXPECT_EQ(value_of(R"p(regex_extract("name=Alice age=30", "name=(\\w+)"))p"), "Alice");
  EXPECT_EQ(value_of(R"p(regex_extract("abc 42 def", "\\d+"))p"), "42");
  EXPECT_EQ(value_of(R"p(regex_extract("no digits", "\\d+"))p"), "");
  // A group that took no part: the whole match.
  EXPECT_EQ(value_of(R"p(regex_extract("b", "(a)|b"))p"), "b");
}

TEST(Regex, PatternPromotionAsPolydatPromotes) {
  const auto matches = [](const char* input, const char* pattern) {
    return value_of(std::string("pattern_match(\"") + input + "\", \"" + pattern + "\")");
  };
  EXPECT_EQ(matches("schema", "schema"), "true");  // a literal: the whole text
  EXPECT_EQ(matches("schema_v2", "schema"), "false");
  EXPECT_EQ(matches("pre_schema", "schema"), "false");
  EXPECT_EQ(matches("100m", "*m"), "true");  // a glob
  EXPECT_EQ(matches("100mi", "*m"), "false");
  EXPECT_EQ(matches("100mi", "*mi"), "true");
  EXPECT_EQ(matches("200m", "(100|200)m"), "true");  // a regex, anchored whole
  EXPECT_EQ(matches("300m", "(100|200)m"), "false");
  EXPECT_EQ(matches("a+b", "a+b"), "false");  // `+` makes it a regex
}

TEST(Regex, ReplacementAndEmptyMatchesFollowRust) {
  // $name, ${N}, $$; the longest name after `$` ($2x is the group "2x").
  EXPECT_EQ(value_of(R"p(regex_replace("John Smith", "(?P<first>\\w+)\\s+(?P<last>\\w+)",)p"
                     R"p( "$last, $first $$ ${{1}}x $2x $9"))p"),
            "Smith, John $ Johnx  ");
  // An empty match right after a match is skipped; others count, between
  // characters (never inside one).
  EXPECT_EQ(value_of(R"p(regex_replace("baaa", "a*", "-"))p"), "-b-");
  EXPECT_EQ(value_of(R"p(regex_replace("hé!", "", "-"))p"), "-h-é-!-");
  EXPECT_EQ(value_of(R"p(regex_replace("aaa", "a", ""))p"), "");
}

TEST(Regex, EveryEngineAndTheBatchTierAgree) {
  const std::string program =
      "input c\ns := printf(\"id-{}-{}\", c, hash(c) % 1000)\n"
      "r := regex_replace(s, \"(\\\\d)(\\\\d)\", \"$2$1\")\nm := regex_match(s, \"-\\\\d{{3}}$\")\n"
      "e := regex_extract(s, \"-(\\\\d+)$\")\np := pattern_match(s, \"id-1*\")\n";
  for (uint64_t x : {0ull, 1ull, 17ull, 123456ull})
    values_everywhere(program, x, {"r", "m", "e", "p"});
  BatchOptions options;
  options.chunk_rows = 100;
  const auto columns = BatchEvaluator(compile(program), options).evaluate(0, 500);
  State state = compile(program, CompileOptions{.engine = Engine::Interpreter})->new_state();
  for (uint64_t row = 0; row < 500; ++row) {
    state.set_inputs({row});
    for (const Column& column : columns) {
      const Value want = state.pull(column.name);
      if (column.type == Type::Str) {
        ASSERT_EQ(column.text(row), want.as_str()) << column.name << " " << row;
      } else {
        ASSERT_EQ(column.words[row], word_of(want)) << column.name << " " << row;
      }
    }
  }
}

TEST(Regex, BadAndHostilePatterns) {
  expect_contains(compile_error("input c\nx := regex_match(\"a\", \"(a\")\n"),
                  {"pattern \"(a\" does not compile: missing ): (a", "regex_match"});
  expect_contains(compile_error("input c\nx := pattern_match(\"a\", \"[\")\n"),
                  {"pattern \"[\" does not compile"});
  expect_contains(
      compile_error("input c\nx := regex_replace(\"a\", \"a{{100}}{{100}}{{100}}\", \"\")\n"),
      {"does not compile"});
  // A pattern that backtracking engines take exponential time on: linear here.
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(value_of("regex_match(\"" + std::string(5000, 'a') + "b\", \"^(a+)+$\")"), "false");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

}  // namespace
}  // namespace polyrt::test
