// polydat's other hashing names: xxh3 and xxhash3 give XXH3-64 of the
// input's eight little-endian bytes (the values the xxHash library's
// xxh3_64, PyPI xxhash 4.1.0, gives), splitmix64 and scatter are hash; every
// engine and tier alike, with a seed too.
#include <gtest/gtest.h>

#include "polyrt/polyrt.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

TEST(HashNodes, Xxh3IsTheReferenceDigestOfTheInputsBytes) {
  const auto p = compile("input x\na := xxh3(x)\nb := xxhash3(x)\n");
  State s = p->new_state();
  const std::pair<uint64_t, uint64_t> reference[] = {{0, 0xC77B3ABB6F87ACD9ULL},
                                                     {1, 3439722301264460078ULL}};
  for (const auto& [x, want] : reference) {
    s.set_inputs({x});
    EXPECT_EQ(s.pull("a").as_u64(), want) << x;
    EXPECT_EQ(s.pull("b").as_u64(), want) << x;
  }
}

TEST(HashNodes, Splitmix64AndScatterAreHash) {
  const auto p = compile("input x\nh := hash(x)\ns := splitmix64(x)\nc := scatter(x)\n");
  State s = p->new_state();
  for (uint64_t x : {0ull, 1ull, 12345ull, ~0ull}) {
    s.set_inputs({x});
    EXPECT_EQ(s.pull("s").as_u64(), s.pull("h").as_u64());
    EXPECT_EQ(s.pull("c").as_u64(), s.pull("h").as_u64());
  }
}

TEST(HashNodes, EveryEngineAndTierAgree) {
  const char* program = "input x\na := xxh3(x)\nb := xxhash3(x + 1)\nc := scatter(x)\n";
  for (uint64_t x : {0ull, 7ull, 99999ull, ~0ull}) {
    values_everywhere(program, x, compile(program)->output_names());
  }
}

}  // namespace
}  // namespace polyrt::test
