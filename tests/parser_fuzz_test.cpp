// The front end never crashes or hangs: random garbage, random token soup and
// every truncation and mutation of real programs either compile or raise a
// polyrt::Error (CompileError / ConstantFoldError). Seeds are fixed.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// Compiles (and makes a state) or raises a user-facing Error; returns
// whether it compiled. An InternalError is a bug: the test fails.
bool must_not_crash(const std::string& source) {
  try {
    auto p = compile(source);
    State s = p->new_state();
    (void)s;
    return true;
  } catch (const InternalError& e) {
    ADD_FAILURE() << e.what() << "\nfor the program:\n" << source;
  } catch (const Error&) {
    // a clear, typed error is the expected outcome for most inputs
  }
  return false;
}

std::string read_example(const char* name) {
  std::ifstream in(std::string(POLYRT_SOURCE_DIR) + "/examples/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(ParserFuzz, RandomBytes) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 3000; ++i) {
    std::string s(rng() % 80, ' ');
    for (char& c : s) c = (char)(rng() % 256);
    must_not_crash(s);
  }
}

TEST(ParserFuzz, TokenSoup) {
  const char* pieces[] = {
      "input",  "extern",    "const", "volatile",    "x",      "y",   ":=",       "=",    ":",
      "u64",    "f64",       "str",   "(",           ")",      "[",   "]",        "{",    "}",
      ",",      "+",         "-",     "*",           "/",      "%",   "**",       "<<",   "&&",
      "||",     "!",         "==",    "<",           "as",     "if",  "else",     "hash", "mod",
      "printf", "\"a{x}b\"", "\"{\"", "1",           "0x1F",   "2.5", "1Ki",      "5m",   "#c\n",
      "/*",     "*/",        "\n",    "mixed_radix", "one_of", "'q'", "in_range", ".",    "->"};
  std::mt19937_64 rng(2);
  for (int i = 0; i < 5000; ++i) {
    std::string s;
    const int n = (int)(rng() % 40);
    for (int k = 0; k < n; ++k) s += std::string(pieces[rng() % std::size(pieces)]) + " ";
    must_not_crash(s);
  }
}

TEST(ParserFuzz, TruncationsAndMutationsOfExamples) {
  const std::string program = read_example("users.polydat");
  ASSERT_FALSE(program.empty());
  for (size_t len = 0; len <= program.size(); ++len) must_not_crash(program.substr(0, len));
  EXPECT_TRUE(must_not_crash(program)) << "the untruncated example compiles";
  std::mt19937_64 rng(3);
  const std::string alphabet = "()[]{},:=+-*/%<>!&|^\"'#.0123456789abcxyz_ \n";
  for (int i = 0; i < 3000; ++i) {
    std::string s = program;
    for (int k = 0; k < 3; ++k) {
      const size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0:
          s[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          s.erase(at, 1 + rng() % 5);
          break;
        default:
          s.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
      }
    }
    must_not_crash(s);
  }
}

}  // namespace
}  // namespace polyrt::test
