// hashed_lorem_extract and hashed_line_to_string, against the rules of
// polydat's nodes (crates/polydat-nodes/src/random.rs there): extract
// lengths, offsets from XXH3-64 of the input, the bundled text's shape.
#include <gtest/gtest.h>

#include "rtlib/rtlib.h"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

std::string whole_text() {
  State s = compile("t := hashed_lorem_extract(0, 1000000, 1000000)\n")->new_state();
  return s.pull("t").as_str();
}

TEST(Lorem, TheTextIsLatinOfPolydatsSize) {
  const std::string text = whole_text();
  EXPECT_GT(text.size(), 90000u);
  EXPECT_LT(text.size(), 100000u);
  EXPECT_EQ(text.rfind("Lorem ipsum dolor sit amet", 0), 0u);
  for (unsigned char c : text) ASSERT_TRUE(c >= 0x20 && c < 0x7f) << "ASCII, one line";
}

TEST(Lorem, ExtractsHavePolydatsLengthsAndOffsets) {
  const std::string text = whole_text();
  const auto program = compile("input h\nt := hashed_lorem_extract(h, 20, 50)\n");
  State s = program->new_state();
  for (uint64_t i = 0; i < 500; ++i) {
    const uint64_t h = pd_xxh3(i);
    s.set_inputs({h});
    const std::string extract = s.pull("t").as_str();
    const uint64_t length = 20 + h % 31;
    ASSERT_EQ(extract.size(), length) << i;
    EXPECT_EQ(extract, text.substr(pd_xxh3(h) % (text.size() - length + 1), length)) << i;
  }
  EXPECT_EQ(values_everywhere("input x\nt := hashed_lorem_extract(x, 9, 11)\n", 42, {"t"}).size(),
            1u);
  expect_contains(compile_error("input x\nt := hashed_lorem_extract(x, 9, 3)\n"),
                  {"max_len 3 is below min_len 9"});
}

TEST(Lorem, LinesArePickedByInputModTheirCount) {
  const auto program = compile("input x\nt := hashed_line_to_string(x, \"a\\n\\nb\\nc\\n\")\n");
  State s = program->new_state();
  const char* expected[] = {"a", "b", "c", "a"};
  for (uint64_t x = 0; x < 4; ++x) {
    s.set_inputs({x});
    EXPECT_EQ(s.pull("t").as_str(), expected[x]);
  }
  expect_contains(compile_error("input x\nt := hashed_line_to_string(x, \"\\n\\n\")\n"),
                  {"the source has no non-empty line"});
}

}  // namespace
}  // namespace polyrt::test
