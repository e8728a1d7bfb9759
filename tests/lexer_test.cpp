#include "syntax/lexer.hpp"

#include <gtest/gtest.h>

#include "polyrt/error.hpp"
#include "tests/test_support.hpp"

namespace polyrt::syntax {
namespace {

std::vector<Token> lex(const std::string& text) {
  static std::vector<std::unique_ptr<SourceText>> keep;
  keep.push_back(std::make_unique<SourceText>("t.polydat", text));
  return tokenize(*keep.back(), 0, text.size());
}

TEST(Lexer, IntegersHexFloatsAndStrings) {
  auto t = lex("42 0xFF 1.5 2.5e3 3.14e-2 'a\\'b' \"x\\ny\\q\"");
  ASSERT_EQ(t.size(), 8u);
  EXPECT_EQ(t[0].u, 42u);
  EXPECT_EQ(t[1].u, 255u);
  EXPECT_EQ(t[2].kind, Tok::Float);
  EXPECT_DOUBLE_EQ(t[3].f, 2500.0);
  EXPECT_DOUBLE_EQ(t[4].f, 0.0314);
  EXPECT_EQ(t[5].text, "a'b");
  EXPECT_EQ(t[6].text, "x\ny\\q");  // unknown escapes keep the backslash
}

TEST(Lexer, SiSuffixes) {
  auto t = lex("1K 1Ki 1.5K 5m 2Gi 3u 7n 1M");
  EXPECT_EQ(t[0].kind, Tok::Int);
  EXPECT_EQ(t[0].u, 1000u);
  EXPECT_EQ(t[1].u, 1024u);
  EXPECT_EQ(t[2].kind, Tok::Int);
  EXPECT_EQ(t[2].u, 1500u);
  EXPECT_EQ(t[3].kind, Tok::Float);
  EXPECT_DOUBLE_EQ(t[3].f, 0.005);
  EXPECT_EQ(t[4].u, 2ull << 30);
  EXPECT_DOUBLE_EQ(t[5].f, 3e-6);
  EXPECT_DOUBLE_EQ(t[6].f, 7e-9);
  EXPECT_EQ(t[7].u, 1000000u);
}

TEST(Lexer, SuffixNeedsNoIdentifierAfterIt) {
  auto t = lex("5min 1_000");
  EXPECT_EQ(t[0].kind, Tok::Int);
  EXPECT_EQ(t[0].u, 5u);
  EXPECT_EQ(t[1].text, "min");
  EXPECT_EQ(t[2].u, 1u);
  EXPECT_EQ(t[3].text, "_000");
}

TEST(Lexer, DotNeedsADigit) {
  auto t = lex("1. .5");
  EXPECT_EQ(t[0].kind, Tok::Int);
  EXPECT_EQ(t[1].kind, Tok::Dot);
  EXPECT_EQ(t[2].kind, Tok::Dot);
  EXPECT_EQ(t[3].u, 5u);
}

TEST(Lexer, CommentsAreSkipped) {
  auto t = lex("a # one\n b // two\n /* three\n four */ c");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[2].text, "c");
  EXPECT_TRUE(t[1].newline_before);
  EXPECT_TRUE(t[2].newline_before);
}

TEST(Lexer, OperatorsLongestMatch) {
  auto t = lex("** << >> && || == != <= >= := -> = :");
  const Tok want[] = {Tok::StarStar, Tok::Shl,   Tok::Shr,  Tok::AndAnd, Tok::OrOr,
                      Tok::EqEq,     Tok::NotEq, Tok::Le,   Tok::Ge,     Tok::ColonEq,
                      Tok::Arrow,    Tok::Eq,    Tok::Colon};
  for (size_t i = 0; i < std::size(want); ++i) EXPECT_EQ(t[i].kind, want[i]) << i;
}

TEST(Lexer, ErrorsNamePositions) {
  EXPECT_THROW(lex("x := 99999999999999999999"), CompileError);
  EXPECT_THROW(lex("x := \"open"), CompileError);
  EXPECT_THROW(lex("/* never closed"), CompileError);
  EXPECT_THROW(lex("x := 0x"), CompileError);
  EXPECT_THROW(lex("x := 20000P"), CompileError);
  try {
    lex("a := 1\nb := $");
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 6);
    EXPECT_NE(std::string(e.what()).find("t.polydat:2:6: error: unexpected character '$'"),
              std::string::npos);
  }
}

// A command-line count reads as the program's literal would, and only one.
TEST(Lexer, IntegerLiteralOfACount) {
  EXPECT_EQ(integer_literal("10M"), 10000000u);
  EXPECT_EQ(integer_literal("1Gi"), uint64_t{1} << 30);
  EXPECT_EQ(integer_literal("0x10"), 16u);
  EXPECT_EQ(integer_literal("1.5K"), 1500u);
  EXPECT_EQ(integer_literal("18446744073709551615"), ~uint64_t{0});
  for (const char* bad :
       {"", "-1", "1.5", "x", "1 2", "2x", "18446744073709551616", "20000P", "1m", "+3", "3 # c"}) {
    EXPECT_EQ(integer_literal(bad), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace polyrt::syntax
