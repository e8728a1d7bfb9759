// The partitions family: the spec language against golden bounds (from an
// independent Python rendering of polydat's partition resolver, compared on
// about 1,400 spec-and-extent pairs), the value's JSON form, the projections
// and their failures, the native forms bound when a partition is a constant,
// and the whole-text XXH3-64 that seeds the random order.
#include <gtest/gtest.h>

#include <cstring>
#include <regex>
#include <tuple>
#include <vector>

#include "rtlib/xxh3.hpp"
#include "tests/test_support.hpp"

namespace polyrt {
namespace {

using Bounds = std::vector<std::tuple<uint64_t, uint64_t, uint64_t>>;  // start, end, idx

Bounds bounds_of(const std::string& spec, uint64_t extent) {
  const auto got = test::values_everywhere(
      "input x\nv := partitions(\"" + spec + "\", " + std::to_string(extent) + ")\n", 0, {"v"});
  const std::regex one(R"("end_ord":(\d+),"end_pct":[^,]+,"idx":(\d+),"start_ord":(\d+),)");
  Bounds out;
  for (std::sregex_iterator it(got[0].begin(), got[0].end(), one), end; it != end; ++it) {
    out.emplace_back(std::stoull((*it)[3]), std::stoull((*it)[1]), std::stoull((*it)[2]));
  }
  return out;
}

std::vector<std::string> values(const std::string& lines, uint64_t x,
                                const std::vector<std::string>& names) {
  return test::values_everywhere("input x\nparts := " + lines, x, names);
}

TEST(Partitions, SizeListsRangesAndWindows) {
  EXPECT_EQ(bounds_of("20%,30%,*", 1000000),
            (Bounds{{0, 200000, 0}, {200000, 500000, 1}, {500000, 1000000, 2}}));
  EXPECT_EQ(bounds_of("0..50%", 1000), (Bounds{{0, 500, 0}}));
  EXPECT_EQ(bounds_of("[25%..75%)", 7), (Bounds{{2, 5, 0}}));
  EXPECT_EQ(bounds_of("10%,20%,* in 100..900", 1000),
            (Bounds{{100, 180, 0}, {180, 340, 1}, {340, 900, 2}}));
  EXPECT_EQ(bounds_of("1%x5,*", 100),
            (Bounds{{0, 1, 0}, {1, 2, 1}, {2, 3, 2}, {3, 4, 3}, {4, 5, 4}, {5, 100, 5}}));
  EXPECT_EQ(bounds_of("~10%,20%,*", 100), (Bounds{{10, 30, 0}, {30, 100, 1}}));
  EXPECT_EQ(bounds_of("~1%,~2%,3%", 100), (Bounds{{3, 6, 0}}));
  EXPECT_EQ(bounds_of("*/7", 100), (Bounds{{0, 14, 0},
                                           {14, 29, 1},
                                           {29, 43, 2},
                                           {43, 57, 3},
                                           {57, 71, 4},
                                           {71, 86, 5},
                                           {86, 100, 6}}));
  EXPECT_EQ(bounds_of("10%,...", 100).size(), 10u);
  EXPECT_EQ(bounds_of("90%,*/fib:5", 1000), (Bounds{{0, 900, 0},
                                                    {900, 905, 1},
                                                    {905, 916, 2},
                                                    {916, 932, 3},
                                                    {932, 958, 4},
                                                    {958, 1000, 5}}));
  EXPECT_EQ(bounds_of("10%,20%,*", 0), (Bounds{{0, 0, 0}, {0, 0, 1}, {0, 0, 2}}));
}

TEST(Partitions, Recipes) {
  EXPECT_EQ(bounds_of("linear:4", 1000),
            (Bounds{{0, 250, 0}, {250, 500, 1}, {500, 750, 2}, {750, 1000, 3}}));
  EXPECT_EQ(bounds_of("ratios:1,3,6", 1000), (Bounds{{0, 100, 0}, {100, 400, 1}, {400, 1000, 2}}));
  EXPECT_EQ(bounds_of("geom:8,1.5", 1000), (Bounds{{0, 20, 0},
                                                   {20, 51, 1},
                                                   {51, 96, 2},
                                                   {96, 165, 3},
                                                   {165, 268, 4},
                                                   {268, 422, 5},
                                                   {422, 653, 6},
                                                   {653, 1000, 7}}));
  EXPECT_EQ(bounds_of("zipf:1.2,10", 1000), (Bounds{{0, 405, 0},
                                                    {405, 582, 1},
                                                    {582, 690, 2},
                                                    {690, 767, 3},
                                                    {767, 826, 4},
                                                    {826, 873, 5},
                                                    {873, 912, 6},
                                                    {912, 945, 7},
                                                    {945, 974, 8},
                                                    {974, 1000, 9}}));
  EXPECT_EQ(bounds_of("front_heavy:6", 1000), (Bounds{{0, 286, 0},
                                                      {286, 524, 1},
                                                      {524, 714, 2},
                                                      {714, 857, 3},
                                                      {857, 952, 4},
                                                      {952, 1000, 5}}));
  EXPECT_EQ(bounds_of("back_heavy:4", 1000),
            (Bounds{{0, 100, 0}, {100, 300, 1}, {300, 600, 2}, {600, 1000, 3}}));
  EXPECT_EQ(bounds_of("pareto:1.5,6", 1000), (Bounds{{0, 547, 0},
                                                     {547, 740, 1},
                                                     {740, 846, 2},
                                                     {846, 914, 3},
                                                     {914, 963, 4},
                                                     {963, 1000, 5}}));
  EXPECT_EQ(
      bounds_of("bin:6", 1000),
      (Bounds{
          {0, 31, 0}, {31, 188, 1}, {188, 500, 2}, {500, 813, 3}, {813, 969, 4}, {969, 1000, 5}}));
  EXPECT_EQ(bounds_of("ln:5", 1000),
            (Bounds{{0, 105, 0}, {105, 272, 1}, {272, 483, 2}, {483, 728, 3}, {728, 1000, 4}}));
  EXPECT_EQ(bounds_of("mul:0.5", 100).size(), 11u);  // sizes that round to 0 stay partitions
  EXPECT_EQ(bounds_of("fib:5", 12345678901), (Bounds{{0, 649772574, 0},
                                                     {649772574, 1949317721, 1},
                                                     {1949317721, 3898635442, 2},
                                                     {3898635442, 7147498311, 3},
                                                     {7147498311, 12345678901, 4}}));
}

TEST(Partitions, OrdersVisitBySizeOrBySeededShuffle) {
  EXPECT_EQ(bounds_of("fib:5 largest_first", 100),
            (Bounds{{58, 100, 4}, {32, 58, 3}, {16, 32, 2}, {5, 16, 1}, {0, 5, 0}}));
  EXPECT_EQ(
      bounds_of("fib:6 random", 1000),
      (Bounds{
          {31, 94, 1}, {344, 594, 4}, {94, 188, 2}, {0, 31, 0}, {188, 344, 3}, {594, 1000, 5}}));
  EXPECT_EQ(bounds_of("20%,30%,* random", 1000),
            (Bounds{{200, 500, 1}, {0, 200, 0}, {500, 1000, 2}}));
  EXPECT_EQ(bounds_of("1000,5000,* in 0.1..0.9 random", 100000),
            (Bounds{{16000, 90000, 2}, {11000, 16000, 1}, {10000, 11000, 0}}));
  EXPECT_EQ(bounds_of("linear:7 random", 10000), (Bounds{{8571, 10000, 6},
                                                         {0, 1429, 0},
                                                         {7143, 8571, 5},
                                                         {2857, 4286, 2},
                                                         {1429, 2857, 1},
                                                         {5714, 7143, 4},
                                                         {4286, 5714, 3}}));
}

TEST(Partitions, ValueFormAndProjections) {
  const auto got = values(
      "partitions(\"10%,20%,* in 100..900\", 1000)\np := partition_at(parts, x % 3)\n"
      "n := partition_count(parts)\nc := cardinality(p)\ns := start_of(p)\ne := end_of(p)\n"
      "i := idx_of(p)\nk := count_of(p)\n",
      4, {"p", "n", "c", "s", "e", "i", "k"});
  EXPECT_EQ(got, (std::vector<std::string>{
                     "partition {\"base_extent\":1000,\"cardinality\":160,\"count\":3,\"end_ord\":"
                     "340,\"end_pct\":34.0,\"idx\":1,\"start_ord\":180,\"start_pct\":18.0}",
                     "u64 3", "u64 160", "u64 180", "u64 340", "u64 1", "u64 3"}));
}

TEST(Partitions, OrdinalsInsideAPartition) {
  // The same nodes over a constant partition (bound to native forms) and over
  // a per-row one (host steps) must agree.
  for (const char* pick : {"partition_at(parts, 2)", "partition_at(parts, x % 1 + 2)"}) {
    const std::string program = std::string("partitions(\"linear:4\", 1000)\np := ") + pick +
                                "\nm := mod_in(x, p)\nc := clamp_in(x, p)\nr := random_in(p, x)\n"
                                "a := at(p, x % 250)\n";
    EXPECT_EQ(values(program, 1234, {"m", "c", "a"}),
              (std::vector<std::string>{"u64 734", "u64 749", "u64 734"}))
        << pick;
    EXPECT_EQ(values(program, 12, {"m", "c", "a"}),
              (std::vector<std::string>{"u64 512", "u64 500", "u64 512"}))
        << pick;
    for (uint64_t x : {0ULL, 1ULL, 99ULL, 123456789ULL}) {
      const uint64_t r = std::stoull(values(program, x, {"r"})[0].substr(4));
      EXPECT_GE(r, 500u);
      EXPECT_LT(r, 750u);
    }
  }
  // An empty partition keeps its start.
  EXPECT_EQ(values("partitions(\"10%,20%,*\", 0)\np := partition_at(parts, 1)\n"
                   "m := mod_in(x, p)\nc := clamp_in(x, p)\nr := random_in(p, x)\n",
                   77, {"m", "c", "r"}),
            (std::vector<std::string>{"u64 0", "u64 0", "u64 0"}));
}

TEST(Partitions, AConstantPartitionCompilesToNativeCode) {
  const std::string dir = test::temp_dir();
  const auto plan = test::run_polyrt(
      "plan " + test::write_program(dir, "p.polydat",
                                    "input c: u64\nparts := partitions(\"linear:4\", 1000)\n"
                                    "x := mod_in(c, partition_at(parts, 2))\n"
                                    "y := at(partition_at(parts, 1), c % 7)\n"));
  ASSERT_EQ(plan.status, 0) << plan.err;
  test::expect_contains(plan.out,
                        {"native segment [mod_in -> x]", "nodes: 3 native-capable, 0 host"});
}

TEST(Partitions, Subdivide) {
  const auto got = values(
      "partitions(\"900..1000\", 1000)\nsub := subdivide(partition_at(parts, 0), 10)\n"
      "third := partition_at(sub, 3)\nn := partition_count(sub)\n",
      0, {"third", "n"});
  EXPECT_EQ(got, (std::vector<std::string>{
                     "partition {\"base_extent\":1000,\"cardinality\":10,\"count\":10,\"end_ord\":"
                     "940,\"end_pct\":94.0,\"idx\":3,\"start_ord\":930,\"start_pct\":93.0}",
                     "u64 10"}));
}

TEST(Partitions, BadSpecsFailTheBuildSayingWhy) {
  const auto error = [](const std::string& spec) {
    return test::thrown_message<ConstantFoldError>([&] {
      compile("input x\nv := partitions(\"" + spec + "\", 1000)\n",
              CompileOptions{.file_name = "t.polydat"});
    });
  };
  test::expect_contains(error("60%,60%"), {"add up to 1200 ordinals, more than the extent of 1000",
                                           "end it with '*'", "t.polydat:2:6"});
  test::expect_contains(error("fib:5 ascending"), {"'ascending' is ambiguous", "smallest_first"});
  test::expect_contains(error("*/0"), {"'*/0'", "at least 1 chunk"});
  test::expect_contains(error("nope:3"), {"unknown recipe 'nope'", "linear, ratios"});
  test::expect_contains(error(""), {"empty partition spec"});
  test::expect_contains(error("linear:2000000"), {"count 2000000", "1048576"});
  test::expect_contains(error("50%..10%"), {"50%..10%"});
  test::expect_contains(
      test::compile_error("extern p: partition\ninput x\nv := cardinality(p)\n"),
      {"extern 'p' cannot be a partition", "an extern can carry the spec as a str"});
}

TEST(Partitions, OutOfRangePicksFailWithTheValues) {
  const std::string dir = test::temp_dir();
  const std::string file = test::write_program(
      dir, "p.polydat",
      "input c: u64\nparts := partitions(\"linear:4\", 1000)\n"
      "x := at(partition_at(parts, c % 4), c * 100)\ny := partition_at(parts, c)\n");
  for (const char* engine : {"interpreter", "closures", "native", "batch"}) {
    const auto at = test::run_polyrt("run " + file + " --cycles 0..10 --outputs x --engine " +
                                     engine + " --out " + dir + "/x.csv");
    EXPECT_NE(at.status, 0) << engine;
    test::expect_contains(at.err, {"node 'at'",
                                   "index 300 is out of range for partition #3 of "
                                   "250 ordinals"});
    EXPECT_FALSE(test::exists(dir + "/x.csv")) << engine;
    const auto pick = test::run_polyrt("run " + file + " --cycles 0..10 --outputs y --engine " +
                                       engine + " --out " + dir + "/y.csv");
    EXPECT_NE(pick.status, 0) << engine;
    test::expect_contains(pick.err, {"node 'partition_at'", "c=4"});
  }
  EXPECT_THROW(test::eval_expr("subdivide(partition_at(partitions(\"linear:4\", 1000), 0), x)", 0),
               EvalError);
}

TEST(Partitions, Xxh3OfWholeTextsMatchesTheReference) {
  // The reference library's XXH3_64bits of bytes (i * 7 + 3) % 256, one length
  // from each of the algorithm's length classes.
  const std::pair<size_t, uint64_t> expected[] = {
      {0, 0x2d06800538d394c2ULL},    {1, 0x13e608bc156defedULL},   {3, 0xa9088dda485b481cULL},
      {4, 0x6d9253b16c8b1ed3ULL},    {8, 0x60539db630471163ULL},   {9, 0xfeff668361d723a8ULL},
      {16, 0xb8c859b0f030b585ULL},   {17, 0x714a04408e79b80fULL},  {128, 0x67425a03650261bfULL},
      {129, 0xc664bf3311c6abc4ULL},  {240, 0x64556dc6b462a6cfULL}, {241, 0x8beadd3a8874fe17ULL},
      {1024, 0x9b81661c641c72b1ULL}, {1500, 0x636eb3103aa644e2ULL}};
  for (auto [length, hash] : expected) {
    std::string bytes(length, '\0');
    for (size_t i = 0; i < length; ++i) bytes[i] = char((i * 7 + 3) % 256);
    EXPECT_EQ(rt::xxh3_64(bytes), hash) << length;
  }
  std::string eight(8, '\0');
  for (int i = 0; i < 8; ++i) eight[i] = char(i * 37 + 1);
  uint64_t word = 0;
  for (int i = 7; i >= 0; --i) word = (word << 8) | uint8_t(eight[i]);
  EXPECT_EQ(rt::xxh3_u64(word), rt::xxh3_64(eight));
  // The 16-byte path kernels take (xxhash3_vec's seed, index), for words
  // with every byte varying.
  uint64_t lo = 0x0123456789abcdefULL, hi = 0;
  for (int k = 0; k < 1000; ++k, lo = lo * 6364136223846793005ULL + 1442695040888963407ULL) {
    hi = lo ^ (lo >> 29) ^ (uint64_t)k;
    std::string sixteen(16, '\0');
    std::memcpy(sixteen.data(), &lo, 8);
    std::memcpy(sixteen.data() + 8, &hi, 8);
    ASSERT_EQ(pd_xxh3_16_inline(lo, hi), rt::xxh3_64(sixteen)) << k;
  }
}

}  // namespace
}  // namespace polyrt
