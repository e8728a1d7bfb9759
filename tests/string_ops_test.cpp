// The string-operation nodes (polydat's names and meanings): golden values
// computed independently (identifiers with the reference xxHash), case
// mapping against Unicode's rules, and failures.
#include "rtlib/string_ops.hpp"

#include <gtest/gtest.h>

#include <random>

#include "rtlib/unicode_case.hpp"
#include "rtlib/utf8.hpp"
#include "rtlib/web_encoding.hpp"
#include "rtlib/xxh3.hpp"
#include "tests/test_support.hpp"

namespace polyrt {
namespace {

std::string s(const std::string& expr, uint64_t x = 0) {
  return test::eval_expr(expr, x).as_str();
}
uint64_t u(const std::string& expr, uint64_t x = 0) {
  return test::eval_expr(expr, x).as_u64();
}

// XXH3-64 of the eight little-endian bytes, from the reference library.
// The fast check (eight ASCII bytes at a time) says what the character-by-
// character reading says, on every alignment of an invalid byte.
TEST(StringOps, ValidUtf8AgreesWithTheCharacterReading) {
  const auto slow = [](std::string_view text) {
    for (size_t i = 0; i < text.size();) {
      const rt::Utf8Sequence c = rt::utf8_at(text, i);
      if (!c.valid) return false;
      i += c.size;
    }
    return true;
  };
  EXPECT_TRUE(rt::valid_utf8(""));
  EXPECT_TRUE(rt::valid_utf8("plain ascii text, longer than a word"));
  EXPECT_TRUE(rt::valid_utf8("Türkiye, 日本, 😀 and more ascii after"));
  EXPECT_FALSE(rt::valid_utf8("caf\xe9 latin-1"));
  EXPECT_FALSE(rt::valid_utf8("\xed\xa0\x80"));  // a surrogate
  EXPECT_FALSE(rt::valid_utf8("\xc0\xaf"));       // overlong
  EXPECT_FALSE(rt::valid_utf8("ends in a lead byte \xe2\x82"));
  std::mt19937_64 random(11);
  for (int round = 0; round < 2000; ++round) {
    std::string text(random() % 40, 'a');
    for (char& c : text) {
      const uint64_t r = random() % 16;
      c = r < 12 ? (char)('a' + r) : (char)(0x80 + random() % 0x80);
    }
    if (random() % 2) text.insert(random() % (text.size() + 1), "é日");
    EXPECT_EQ(rt::valid_utf8(text), slow(text)) << round;
  }
}

TEST(StringOps, Xxh3MatchesTheReference) {
  EXPECT_EQ(rt::xxh3_u64(0), 0xc77b3abb6f87acd9ULL);
  EXPECT_EQ(rt::xxh3_u64(1), 0x2fbc593564db792eULL);
  EXPECT_EQ(rt::xxh3_u64(42), 0xd5a6f8c838df27c8ULL);
  EXPECT_EQ(rt::xxh3_u64(~0ULL), 0x5111c7e47d784413ULL);
}

TEST(StringOps, HashedUuidAndCharBuf) {
  EXPECT_EQ(s("hashed_uuid(x)", 0), "d9ac876f-bb3a-4bc7-b9f8-382893178079");
  EXPECT_EQ(s("hashed_uuid(x)", 42), "c827df38-c8f8-46d5-a469-fa26ab8ad63c");
  EXPECT_EQ(s("hashed_uuid(x)", 1234567), "03b155d2-791c-44d9-987f-40bd18790e6a");
  EXPECT_EQ(s("char_buf(x, \"A-Z0-9\", 12)", 0), "3RJN3X3Q485H");
  EXPECT_EQ(s("char_buf(x, \"A-Z0-9\", 12)", 42), "2MTQECTHGX2W");
  EXPECT_EQ(s("char_buf(x, \"\", 5)", 42), "ocbmu");  // "" is a-z
  EXPECT_EQ(s("char_buf(x, \"A-Z0-9\", 0)", 42), "");
  EXPECT_EQ(rt::expand_charset("é-ë_"), (std::vector<std::string>{"é", "ê", "ë", "_"}));
  EXPECT_EQ(s("char_buf(x, \"α-γ\", 3)", 7).size(), 6u);  // two bytes a character
  EXPECT_THROW(test::eval_expr("char_buf(x, \"a-z\", x)", 2000000), EvalError);
}

TEST(StringOps, NumberToWords) {
  EXPECT_EQ(s("number_to_words(x)", 0), "zero");
  EXPECT_EQ(s("number_to_words(x)", 13), "thirteen");
  EXPECT_EQ(s("number_to_words(x)", 40), "forty");
  EXPECT_EQ(s("number_to_words(x)", 99), "ninety-nine");
  EXPECT_EQ(s("number_to_words(x)", 100), "one hundred");
  EXPECT_EQ(s("number_to_words(x)", 705), "seven hundred five");
  EXPECT_EQ(s("number_to_words(x)", 1001), "one thousand one");
  EXPECT_EQ(s("number_to_words(x)", 2000040), "two million forty");
  EXPECT_EQ(s("number_to_words(x)", 18446744073709551615ULL),
            "eighteen quintillion four hundred forty-six quadrillion seven hundred forty-four "
            "trillion seventy-three billion seven hundred nine million five hundred fifty-one "
            "thousand six hundred fifteen");
}

TEST(StringOps, CaseMappingIsFullUnicode) {
  EXPECT_EQ(rt::utf8_lower("Hello, World 42"), "hello, world 42");
  EXPECT_EQ(rt::utf8_upper("Hello, World 42"), "HELLO, WORLD 42");
  EXPECT_EQ(rt::utf8_lower("ÄPFEL"), "äpfel");
  EXPECT_EQ(rt::utf8_upper("äpfel"), "ÄPFEL");
  EXPECT_EQ(rt::utf8_upper("straße ﬁ"), "STRASSE FI");  // one character, several
  EXPECT_EQ(rt::utf8_lower("İ"), "i\u0307");
  // Final sigma: after a cased letter (case-ignorable ones skipped), not before one.
  EXPECT_EQ(rt::utf8_lower("ΟΔΟΣ"), "οδος");
  EXPECT_EQ(rt::utf8_lower("ΟΔΟΣ ΣΟΣ"), "οδος σος");
  EXPECT_EQ(rt::utf8_lower("Σ"), "σ");        // nothing cased before it
  EXPECT_EQ(rt::utf8_lower("ΑΣ'Β"), "ασ'β");  // a cased letter follows the apostrophe
  EXPECT_EQ(rt::utf8_lower("Α'Σ."), "α'ς.");  // the apostrophe is skipped before it
  EXPECT_EQ(rt::utf8_lower("\xff"
                           "AB\xc3"),
            "\xff"
            "ab\xc3");  // not UTF-8: kept
  EXPECT_EQ(s("str_upper(str_lower(\"MiXeD\"))"), "MIXED");
}

TEST(StringOps, NumbersFromText) {
  EXPECT_EQ(u("str_to_u64(\"4242\")"), 4242u);
  EXPECT_EQ(u("str_to_u64(\"  12 \")"), 12u);
  EXPECT_EQ(u("str_to_u64(\"+5\")"), 5u);
  EXPECT_EQ(u("str_to_u64(\"4242x\")"), 0u);  // no partial reads
  EXPECT_EQ(u("str_to_u64(\"-1\")"), 0u);
  EXPECT_EQ(u("str_to_u64(\"18446744073709551616\")"), 0u);
  EXPECT_EQ(u("str_to_u64(\"\")"), 0u);
  EXPECT_EQ(u("str_digit_suffix(\"label-17\")"), 17u);
  EXPECT_EQ(u("str_digit_suffix(\"profile_8 \")"), 8u);
  EXPECT_EQ(u("str_digit_suffix(\"sift1m\")"), 0u);                // does not end in a digit
  EXPECT_EQ(u("str_digit_suffix(\"99999999999999999999\")"), 0u);  // too long for a u64
  EXPECT_EQ(u("str_digit_suffix(\"\")"), 0u);
}

TEST(StringOps, UrlAndHtmlEncodings) {
  EXPECT_EQ(s("url_encode(\"hello world\")"), "hello%20world");
  EXPECT_EQ(s("url_encode(\"a=1&b=2\")"), "a%3D1%26b%3D2");
  EXPECT_EQ(s("url_encode(\"hello-world_123.txt~\")"), "hello-world_123.txt~");
  EXPECT_EQ(s("url_encode(\"é\")"), "%C3%A9");
  EXPECT_EQ(s("url_decode(url_encode(\"x & y = é\"))"), "x & y = é");
  EXPECT_EQ(s("url_decode(\"%41%4a%zz%4\")"), "AJ%zz%4");  // not two hex digits: kept
  EXPECT_EQ(s("url_decode(\"%+F\")"), "\x0F");             // a sign, as Rust parses it
  EXPECT_EQ(s("url_decode(\"a%FFb\")"), "a\uFFFDb");
  EXPECT_EQ(s("html_encode(\"<b>it's & \\\"q\\\"</b>\")"),
            "&lt;b&gt;it&#x27;s &amp; &quot;q&quot;&lt;/b&gt;");
  EXPECT_EQ(s("html_decode(html_encode(\"<a href='x'>&</a>\"))"), "<a href='x'>&</a>");
  EXPECT_EQ(s("html_decode(\"&amp;lt; &#39;\")"), "< '");  // entity after entity, in order
}

// Invalid UTF-8 becomes one U+FFFD per maximal invalid sequence, like
// Python's and Rust's lossy decoders (the expectations are Python's).
TEST(StringOps, LossyUtf8) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(rt::utf8_lossy("a\xff"
                           "b"),
            "a" + r + "b");
  EXPECT_EQ(rt::utf8_lossy("\xe0\x80\x80"), r + r + r);
  EXPECT_EQ(rt::utf8_lossy("\xed\xa0\x80"), r + r + r);  // a surrogate
  EXPECT_EQ(rt::utf8_lossy("\xf0\x9f\x98"), r);          // truncated: one
  EXPECT_EQ(rt::utf8_lossy("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
  EXPECT_EQ(rt::utf8_lossy("\xc3"), r);
  EXPECT_EQ(rt::utf8_lossy("\xf4\x90\x80\x80"), r + r + r + r);  // above U+10FFFF
  EXPECT_EQ(rt::utf8_lossy("\xc0\xaf"), r + r);                  // overlong
  EXPECT_EQ(rt::utf8_lossy("\xe1\x80\xe1\x80\x80"), r + "\xe1\x80\x80");
}

// Lengths and cuts count characters; an invalid UTF-8 piece is one
// character (as a lossy decoder sees it), so a cut never splits a sequence.
TEST(StringOps, LengthSubstringAndReplace) {
  EXPECT_EQ(rt::char_count(""), 0u);
  EXPECT_EQ(rt::char_count("\xC3\xA4pfel"), 5u);
  EXPECT_EQ(rt::char_count("a\xF0\x9F\x98\x80"
                           "b"),
            3u);                                   // a, U+1F600, b
  EXPECT_EQ(rt::char_count("\xE2\x82x\xFF"), 3u);  // truncated sequence, x, stray byte
  EXPECT_EQ(rt::substring("h\xC3\xA9llo", 1, 2), "\xC3\xA9l");
  EXPECT_EQ(rt::substring("abc", 1, 100), "bc");
  EXPECT_EQ(rt::substring("abc", 3, 1), "");
  EXPECT_EQ(rt::substring("abc", ~0ULL, ~0ULL), "");
  EXPECT_EQ(rt::substring("a\xE2\x82xyz", 1, 2), "\xE2\x82x");
  EXPECT_EQ(rt::replace_all("a-b-c", "-", "::"), "a::b::c");
  EXPECT_EQ(rt::replace_all("aaaa", "aa", "b"), "bb");
  EXPECT_EQ(rt::replace_all("abc", "x", "y"), "abc");
  EXPECT_EQ(u("str_length(\"d\" + (x as str))", 12345), 6u);
  EXPECT_EQ(s("substring(\"0123456789\", x, 3)", 8), "89");
  EXPECT_EQ(s("str_replace(\"{x}-{x}\", \"-\", \"\")", 7), "77");
  EXPECT_EQ(u("identity(x) + 1", 41), 42u);
  EXPECT_EQ(s("identity(\"s\")"), "s");
  EXPECT_EQ(rt::escape_json("a\"b\\c\nd\te\x01\x7f\xC3\xA4"),
            "a\\\"b\\\\c\\nd\\te\\u0001\x7f\xC3\xA4");
  EXPECT_EQ(s("escape_json(\"q\\\"\" + (x as str))", 5), "q\\\"5");
  test::expect_contains(test::compile_error("input x\nv := str_replace(\"a\", \"\", \"b\")"),
                        {"from must not be empty"});
}

}  // namespace
}  // namespace polyrt
