// The alias-table picks (weighted_u64, weighted_pick, weighted_strings,
// histribution, alias_sample), the empirical and Pareto tables, counter,
// thread_id, shuffle, combinations' length form and select. Golden picks come
// from an independent Python rendering of polydat's AliasTableU64.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <thread>

#include "rtlib/rtlib.h"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// Raw selector inputs (the alias nodes do not hash theirs).
const uint64_t kInputs[] = {0,
                            1,
                            0x9E3779B97F4A7C15ULL,
                            0xFFFFFFFFFFFFFFFFULL,
                            12345678901234567ULL,
                            0x7FFFFFFF00000003ULL,
                            0x5555555555555555ULL,
                            0xDEADBEEFCAFEBABEULL};

Value at(const std::string& expr, uint64_t x) {
  return eval_expr(expr, x);
}

TEST(WeightedNodes, PicksMatchPolydatsAliasTables) {
  const uint64_t u64s[] = {1, 2, 1, 1, 2, 2, 1, 1};
  const char* strs[] = {"red", "blue", "blue", "red", "blue", "blue", "green", "red"};
  const uint64_t hist[] = {100, 200, 100, 100, 200, 100, 100, 100};
  const uint64_t hist2[] = {0, 1, 0, 1, 3, 1, 1, 0};
  const uint64_t alias[] = {0, 1, 1, 0, 3, 0, 1, 0};
  const uint64_t zero[] = {0, 0, 0, 0, 0, 0, 2, 0};
  for (size_t i = 0; i < std::size(kInputs); ++i) {
    const uint64_t x = kInputs[i];
    EXPECT_EQ(at("weighted_u64(x, \"1:0.7;2:0.2;3:0.1\")", x).as_u64(), u64s[i]) << i;
    EXPECT_EQ(at("weighted_pick(x, \"1:0.7,2:0.2,3:0.1\")", x).as_u64(), u64s[i]) << i;
    EXPECT_EQ(at("weighted_strings(x, \"red:0.5;blue:0.3;green:0.2\")", x).as_str(), strs[i]) << i;
    EXPECT_EQ(at("histribution(x, \"100:80 200:15 300:5\")", x).as_u64(), hist[i]) << i;
    EXPECT_EQ(at("histribution(x, \"50 25 13 12\")", x).as_u64(), hist2[i]) << i;
    EXPECT_EQ(at("alias_sample(x, 60.0, 20.0, 15.0, 5.0)", x).as_u64(), alias[i]) << i;
    EXPECT_EQ(at("alias_sample(x, 3, 0, 1)", x).as_u64(), zero[i]) << i;
  }
}

TEST(WeightedNodes, FrequenciesFollowTheWeights) {
  auto p = compile(
      "input x\nh := hash(x)\nw := weighted_strings(h, \"a:1;b:3\")\n"
      "k := histribution(h, \"50  25\")\n");  // two spaces: outcomes 0 and 2
  State s = p->new_state();
  size_t b = 0, two = 0;
  constexpr size_t kRows = 40000;
  for (uint64_t x = 0; x < kRows; ++x) {
    s.set_inputs({x});
    b += s.pull("w").as_str() == "b";
    const uint64_t k = s.pull("k").as_u64();
    ASSERT_TRUE(k == 0 || k == 2) << k;
    two += k == 2;
  }
  EXPECT_NEAR(b / double(kRows), 0.75, 0.01);
  EXPECT_NEAR(two / double(kRows), 1.0 / 3.0, 0.01);
}

// one_of_weighted's index (pd_weighted_index, a branch-free lower bound) is
// std::lower_bound's over all entries but the last, for tables with repeated
// entries (zero weights) and hashed points that fall exactly on an entry.
TEST(WeightedNodes, WeightedIndexIsTheLowerBound) {
  std::mt19937_64 rng(8);
  for (uint64_t count = 1; count <= 40; ++count) {
    for (int round = 0; round < 20; ++round) {
      std::vector<double> cumulative(count);
      for (double& c : cumulative)
        c = round % 3 == 0 ? (double)(rng() % 4) / 4 : pd_unit_interval(rng());
      if (round % 4 == 1) cumulative[rng() % count] = pd_unit_interval(pd_hash(round));
      std::sort(cumulative.begin(), cumulative.end());
      cumulative.back() = 1.0;
      for (uint64_t i = 0; i < 200; ++i) {
        const uint64_t x = i < 2 ? (uint64_t)round : rng();
        const double u = pd_unit_interval(pd_hash(x));
        const auto want = (uint64_t)(std::lower_bound(cumulative.begin(), cumulative.end() - 1, u) -
                                     cumulative.begin());
        ASSERT_EQ(pd_weighted_index(x, cumulative.data(), count), want)
            << "count " << count << " round " << round << " x " << x;
      }
    }
  }
}

TEST(WeightedNodes, BadSpecsAreCompileErrors) {
  expect_contains(compile_error("input x\nv := weighted_u64(x, \"1:a\")"), {"is not value:weight"});
  expect_contains(compile_error("input x\nv := weighted_u64(x, \"one:1\")"),
                  {"value \"one\" is not a u64"});
  expect_contains(compile_error("input x\nv := weighted_strings(x, \" ; \")"),
                  {"no value:weight entry"});
  expect_contains(compile_error("input x\nv := weighted_strings(x, \"a:0;b:0\")"),
                  {"positive finite sum"});
  expect_contains(compile_error("input x\nv := histribution(x, \"5:1 7\")"),
                  {"is not label:weight"});
  expect_contains(compile_error("input x\nv := histribution(x, \"1 -2\")"),
                  {"non-negative finite number"});
  expect_contains(compile_error("input x\nv := alias_sample(x, 0.0)"), {"positive finite sum"});
  // Empty entries are skipped, as polydat does.
  EXPECT_EQ(eval_expr("weighted_u64(x, \";7:1;\")", 3).as_u64(), 7u);
}

TEST(WeightedNodes, EmpiricalAndParetoTables) {
  const std::string data = "\"0.5 1.2 2.0 3.5 5.0 8.0 12.0 20.0 50.0 100.0\"";
  auto empirical = [&](double u) {
    return eval_expr("dist_empirical(" + std::to_string(u) + " + to_f64(x), " + data + ")", 0)
        .as_f64();
  };
  EXPECT_EQ(empirical(0.5), 6.5);
  EXPECT_EQ(empirical(0.0), 0.5);
  EXPECT_EQ(empirical(1.0), 100.0);
  EXPECT_EQ(empirical(0.25), 2.375);
  EXPECT_EQ(empirical(-3.0), 0.5);                                                      // clamped
  EXPECT_EQ(eval_expr("dist_empirical(0.5 + to_f64(x), \"9,1;5\")", 0).as_f64(), 5.0);  // sorted
  EXPECT_NEAR(eval_expr("dist_pareto(0.5 + to_f64(x), 1.0, 2.0)", 0).as_f64(), std::sqrt(2.0),
              1e-15);
  EXPECT_EQ(eval_expr("dist_pareto(to_f64(x), 3.0, 2.0)", 0).as_f64(), 3.0);
  EXPECT_TRUE(std::isfinite(eval_expr("dist_pareto(1.0 + to_f64(x), 3.0, 2.0)", 0).as_f64()));
  // NaN passes through a table, as polydat's clamp lets it.
  EXPECT_TRUE(std::isnan(eval_expr("dist_normal(sqrt(0.0 - 1.0 - to_f64(x)), 0.0, 1.0)").as_f64()));
  expect_contains(compile_error("input x\nv := dist_empirical(0.5, \"1\")"), {"at least 2"});
  expect_contains(compile_error("input x\nv := dist_empirical(0.5, \"1 two\")"),
                  {"\"two\" is not a finite number"});
  expect_contains(compile_error("input x\nv := dist_pareto(0.5, 0.0, 1.0)"), {"scale must be"});
}

TEST(ContextNodes, CounterCountsAcrossStatesAndThreadIdsDiffer) {
  auto p = compile("input x\nc := counter(10)\n");
  State a = p->new_state(), b = p->new_state();
  std::vector<uint64_t> seen;
  for (uint64_t x = 0; x < 3; ++x) {
    a.set_inputs({x});
    seen.push_back(a.pull("c").as_u64());
    b.set_inputs({x});
    seen.push_back(b.pull("c").as_u64());
  }
  EXPECT_EQ(seen, (std::vector<uint64_t>{10, 11, 12, 13, 14, 15}));
  auto t = compile("input x\nt := thread_id()\n");
  auto id_here = [&] {
    State s = t->new_state();
    s.set_inputs({0});
    return s.pull("t").as_u64();
  };
  const uint64_t mine = id_here();
  EXPECT_EQ(id_here(), mine);
  uint64_t other = mine;
  std::thread([&] { other = id_here(); }).join();
  EXPECT_NE(other, mine);
}

// polydat's shuffle (crates/polydat-nodes/src/sampling/metashift.rs): input
// mod size + 1 stepped by the Galois LFSR until it is at most size, minus
// 1, plus min. Over [0, 10) with the 4-bit polynomial 0x9, by hand: 0 -> 1
// steps to 9 (8), 1 -> 2 to 1 (0), 2 -> 3 to 8 (7), 9 -> 10 to 5 (4).
TEST(PermutationNodes, ShuffleIsPolydatsLfsrWalk) {
  const char* source = "input x\ns := shuffle(x, 9, 10, 100)\n";
  const std::pair<uint64_t, const char*> expected[] = {
      {0, "u64 108"}, {1, "u64 100"}, {2, "u64 107"}, {9, "u64 104"}, {19, "u64 104"}};
  for (const auto& [x, value] : expected) {
    EXPECT_EQ(values_everywhere(source, x, {"s"}), (std::vector<std::string>{value})) << x;
  }
  expect_contains(compile_error("input x\ns := shuffle(x, 7, 1000)\n"),
                  {"feedback 0x7 is no Galois LFSR polynomial of 10 bits for size 1000",
                   "its top bit must be 2^9"});
}

TEST(PermutationNodes, ShuffleIsABijectionOfItsRange) {
  // A 10-bit polynomial (not maximal: still a permutation) and feedback 0,
  // polyrt's cycle walk, where polydat's default is no permutation.
  auto p = compile(
      "input x\ns := shuffle(x, 0x240, 1000, 5)\nw := shuffle(x, 0, 1000, 5)\n"
      "z := shuffle(x, 0x240, 0, 42)\n");
  State s = p->new_state();
  std::set<uint64_t> seen, walked;
  for (uint64_t x = 0; x < 1000; ++x) {
    s.set_inputs({x});
    const uint64_t v = s.pull("s").as_u64(), w = s.pull("w").as_u64();
    ASSERT_GE(v, 5u);
    ASSERT_LT(v, 1005u);
    ASSERT_GE(w, 5u);
    ASSERT_LT(w, 1005u);
    seen.insert(v);
    walked.insert(w);
    ASSERT_EQ(s.pull("z").as_u64(), 42u);
  }
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_EQ(walked.size(), 1000u);
}

TEST(TextNodes, CombinationsWithALengthSpellsOneCharsetThatManyTimes) {
  for (uint64_t x : kInputs) {
    EXPECT_EQ(eval_expr("combinations(x, \"A-Z0-9\", 4)", x).as_str(),
              eval_expr("combinations(x, \"A-Z0-9;A-Z0-9;A-Z0-9;A-Z0-9\")", x).as_str());
    EXPECT_EQ(eval_expr("combinations(seed: x, charset: \"a-f\", length: 3)", x).as_str(),
              eval_expr("combinations(x, \"a-f;a-f;a-f\")", x).as_str());
  }
  // More combinations than 2^64: the count saturates at 2^64 - 1, as polydat's
  // does, so the largest input wraps to all first characters.
  EXPECT_EQ(eval_expr("combinations(x, \"0-9\", 24)", ~0ULL).as_str(), std::string(24, '0'));
  EXPECT_EQ(eval_expr("combinations(x, \"0-9\", 24)", ~0ULL - 1).as_str(),
            "416155907370447644810000");  // 2^64 - 2, least significant digit first
  expect_contains(compile_error("input x\nv := combinations(x, \"A-Z;0-9\", 3)"),
                  {"with a length, the pattern is one charset"});
  expect_contains(compile_error("input x\nv := combinations(x, \"A-Z\", 5000)"),
                  {"length must be at most 4096"});
}

TEST(Intrinsics, SelectIsPolydatsNameOfIf) {
  auto p = compile(
      "input x\na := select(x & 1, 10, 20)\nb := select(x > 5, 1.5, x)\n"
      "c := select(x == 3, \"three\", \"other\")\n");
  State s = p->new_state();
  s.set_inputs({3});
  EXPECT_EQ(s.pull("a").as_u64(), 10u);
  EXPECT_EQ(s.pull("b").as_f64(), 3.0);
  EXPECT_EQ(s.pull("c").as_str(), "three");
  expect_contains(compile_error("input x\nv := select(x, 1)"),
                  {"select(cond, if_true, if_false) takes 3 arguments"});
  // A program's own module of that name comes first.
  auto q = compile("input x\nselect(a: u64) -> (o: u64) := {\n o := a + 1\n}\nv := select(x)\n");
  State t = q->new_state();
  t.set_inputs({4});
  EXPECT_EQ(t.pull("v").as_u64(), 5u);
}

TEST(WordLists, NamesFollowTheCensusAndListsAreComplete) {
  auto p = compile(
      "input x\nh := hash(x)\nf := first_names(h)\nm := first_names_male(h)\n"
      "n := full_names(x)\ns := state_codes(x)\nc := country_names(x)\nk := country_codes(x)\n");
  State st = p->new_state();
  size_t mary = 0, james = 0;
  std::set<std::string> states, countries, codes;
  constexpr size_t kRows = 20000;
  for (uint64_t x = 0; x < kRows; ++x) {
    st.set_inputs({x});
    mary += st.pull("f").as_str() == "Mary";
    james += st.pull("m").as_str() == "James";
    const std::string full = st.pull("n").as_str();
    const size_t space = full.find(' ');
    ASSERT_NE(space, std::string::npos) << full;
    ASSERT_EQ(full.find(' ', space + 1), std::string::npos) << full;
    states.insert(st.pull("s").as_str());
    countries.insert(st.pull("c").as_str());
    codes.insert(st.pull("k").as_str());
  }
  // The census's most common names: Mary 2.629 of 89.7 percent of women,
  // James 3.318 of 90.0 percent of men.
  EXPECT_NEAR(mary / double(kRows), 2.629 / 89.7, 0.004);
  EXPECT_NEAR(james / double(kRows), 3.318 / 90.0, 0.004);
  EXPECT_EQ(states.size(), 51u);
  EXPECT_TRUE(states.count("DC") && states.count("WY"));
  EXPECT_EQ(countries.size(), 249u);
  EXPECT_TRUE(countries.count("Côte d'Ivoire"));
  EXPECT_EQ(codes.size(), 249u);
  // Uniform lists pick input mod n, in code order.
  EXPECT_EQ(eval_expr("state_codes(x)", 0).as_str(), "AK");
  EXPECT_EQ(eval_expr("country_codes(x)", 249).as_str(), "AD");
  EXPECT_EQ(eval_expr("country_names(x)", 0).as_str(), "Andorra");
}

TEST(ProbabilityNodes, ChanceAndNOf) {
  for (uint64_t x = 0; x < 200; ++x) {
    const uint64_t coin = eval_expr("unfair_coin(x, 0.3)", x).as_u64();
    EXPECT_EQ(eval_expr("chance(x, 0.3)", x).as_u64(), coin ? 0x3FF0000000000000ULL : 0u);
  }
  // Exactly n of every m consecutive inputs, and which ones moves between windows.
  auto p = compile("input x\nk := n_of(x, 3, 10)\n");
  State s = p->new_state();
  std::set<uint64_t> first, second;
  for (uint64_t window = 0; window < 50; ++window) {
    size_t ones = 0;
    for (uint64_t q = 0; q < 10; ++q) {
      s.set_inputs({window * 10 + q});
      const uint64_t v = s.pull("k").as_u64();
      ones += v;
      if (v && window == 0) first.insert(q);
      if (v && window == 1) second.insert(q);
    }
    ASSERT_EQ(ones, 3u) << window;
  }
  EXPECT_NE(first, second);
  EXPECT_EQ(eval_expr("n_of(x, 0, 5)", 3).as_u64(), 0u);
  EXPECT_EQ(eval_expr("n_of(x, 5, 5)", 3).as_u64(), 1u);
  expect_contains(compile_error("input x\nv := n_of(x, 3, 0)"), {"m must be in [1, 65536]"});
  expect_contains(compile_error("input x\nv := n_of(x, 6, 5)"), {"n must be at most m"});
}

TEST(ConversionNodes, DiscretizeAndTheRoundingAliases) {
  auto d = [](const std::string& x) {
    return eval_expr("discretize(" + x + " + to_f64(x), 100.0, 10)", 0).as_u64();
  };
  EXPECT_EQ(d("0.0"), 0u);
  EXPECT_EQ(d("9.999"), 0u);
  EXPECT_EQ(d("10.0"), 1u);
  EXPECT_EQ(d("99.99"), 9u);
  EXPECT_EQ(d("100.0"), 9u);
  EXPECT_EQ(d("1e300"), 9u);
  EXPECT_EQ(d("-5.0"), 0u);
  EXPECT_EQ(d("sqrt(-1.0)"), 0u);
  EXPECT_EQ(eval_expr("discretize(55.0 + to_f64(x))", 0).as_u64(), 5u);  // defaults 100, 10
  expect_contains(compile_error("input x\nv := discretize(1.0, 0.0, 3)"), {"range must be"});
  EXPECT_EQ(eval_expr("trunc_u64(2.7 + to_f64(x))", 0).as_u64(), 2u);
  EXPECT_EQ(eval_expr("round_u64(2.5 + to_f64(x))", 0).as_u64(), 3u);
}

TEST(ContextNodes, EnvironmentAndSessionClock) {
  ASSERT_EQ(setenv("POLYRT_TEST_ENV", "from the shell", 1), 0);
  EXPECT_EQ(eval_expr("env(\"POLYRT_TEST_ENV\")").as_str(), "from the shell");
  EXPECT_EQ(eval_expr("env_or(\"POLYRT_TEST_ENV\", \"d\")").as_str(), "from the shell");
  unsetenv("POLYRT_TEST_ENV");
  EXPECT_EQ(eval_expr("env_or(\"POLYRT_TEST_ENV\", \"d\")").as_str(), "d");
  expect_contains(compile_error("input x\nv := env(\"POLYRT_TEST_ENV\")"),
                  {"environment variable POLYRT_TEST_ENV is not set"});
  auto p = compile("input x\ns := session_start_millis()\ne := elapsed_millis()\n");
  State s = p->new_state();
  s.set_inputs({0});
  const uint64_t start = s.pull("s").as_u64();
  EXPECT_GT(start, 1700000000000u);
  EXPECT_LT(s.pull("e").as_u64(), 60000u);
  s.set_inputs({1});
  EXPECT_EQ(s.pull("s").as_u64(), start);
}

}  // namespace
}  // namespace polyrt::test
