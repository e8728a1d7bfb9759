// polydat's comprehensions and traversals (`for ... { body }`): the
// sources with polydat's typing, the cartesian order (rightmost clause
// fastest, dependent sources), `where` with polydat's rules, the ten
// orders with their counts and seeds; a traversal as a flat map from a parent
// coordinate to one row per tuple, the same on every engine and through
// `polyrt run`; and what bad input gets.
#include "comprehension/comprehension.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "comprehension/derivation.hpp"
#include "nodes/registry.hpp"
#include "polyrt/traversal.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// A comprehension parsed as a program's are: told the registry's node sources.
comprehension::Parsed parse_text(std::string_view text) {
  return comprehension::parse(text, nodes::comprehension_call_element);
}

comprehension::Tuples tuples_of(const std::string& text, const comprehension::Scope& scope = {}) {
  const comprehension::Parsed parsed = parse_text(text);
  if (parsed.error) ADD_FAILURE() << text << ": " << parsed.error->message;
  const comprehension::Scope none = [](std::string_view) { return std::nullopt; };
  return comprehension::evaluate(*parsed.comprehension, scope ? scope : none);
}

// Each tuple as "v1/v2/...".
std::vector<std::string> rows(const comprehension::Tuples& t) {
  std::vector<std::string> out;
  for (const std::vector<Value>& row : t.rows) {
    std::string line;
    for (const Value& v : row) line += (line.empty() ? "" : "/") + v.to_string();
    out.push_back(line);
  }
  return out;
}

std::string error_of(const std::string& text) {
  const comprehension::Parsed parsed = parse_text(text);
  return parsed.error ? parsed.error->message : "(no error)";
}

TEST(Comprehension, SourcesTypeTheirValuesAsPolydatDoes) {
  using V = std::vector<std::string>;
  EXPECT_EQ(rows(tuples_of("a in 2..5")), (V{"2", "3", "4"}));
  EXPECT_EQ(rows(tuples_of("a in 2..=5 step 2")), (V{"2", "4"}));
  EXPECT_EQ(rows(tuples_of("a in 0..10..4")), (V{"0", "4", "8"}));
  // Steps near 2^64 count their values without wrapping.
  EXPECT_EQ(rows(tuples_of("a in 0..18446744073709551615 step 18446744073709551615")), (V{"0"}));
  EXPECT_EQ(rows(tuples_of("a in 5..18446744073709551615 step 9223372036854775808")),
            (V{"5", "9223372036854775813"}));
  EXPECT_EQ(rows(tuples_of("limit in 10,20,30")), (V{"10", "20", "30"}));
  EXPECT_EQ(rows(tuples_of("x in 1, 2.5")), (V{"1", "2.5"}));              // ints widen to f64
  EXPECT_EQ(rows(tuples_of("op in load,verify")), (V{"load", "verify"}));  // bare words: str
  EXPECT_EQ(rows(tuples_of("b in [true, FALSE]")), (V{"true", "false"}));
  EXPECT_EQ(rows(tuples_of("w in \"a, b; c d\"")), (V{"a", "b", "c", "d"}));
  EXPECT_EQ(rows(tuples_of("w in 'a, b'")), (V{"a, b"}));
  const comprehension::Tuples t = tuples_of("a in 0..2, tag in p, q");
  EXPECT_EQ(t.names, (V{"a", "tag"}));
  EXPECT_EQ(tuples_of("x in 1, 2.5").rows[0][0].type(), Type::F64);
  EXPECT_EQ(parse_text("limit in 10,20,30").comprehension->canonical, "limit in 10, 20, 30");
}

TEST(Comprehension, TheRightmostClauseIsFastestAndSourcesMayReadEarlierOnes) {
  using V = std::vector<std::string>;
  EXPECT_EQ(rows(tuples_of("a in 1..3, b in x, y")), (V{"1/x", "1/y", "2/x", "2/y"}));
  const comprehension::Scope scope = [](std::string_view name) -> std::optional<Value> {
    if (name == "n") return Value::u64(7);
    return std::nullopt;
  };
  EXPECT_EQ(rows(tuples_of("a in 0..2, b in {a}", scope)), (V{"0/0", "1/1"}));
  EXPECT_EQ(rows(tuples_of("a in {n}, b in 0..2", scope)), (V{"7/0", "7/1"}));
  // A reference to nothing reads None: its source yields nothing.
  EXPECT_TRUE(tuples_of("a in {missing}, b in 0..2", scope).rows.empty());
  // A range's bounds may name values, read when it opens: `{name}` inside
  // a source's text.
  EXPECT_EQ(rows(tuples_of("a in 5..{n} step 1", scope)), (V{"5", "6"}));
  EXPECT_EQ(rows(tuples_of("a in 1..=3, b in {a}..=4 step {a}", scope)),
            (V{"1/1", "1/2", "1/3", "1/4", "2/2", "2/4", "3/3"}));
  EXPECT_EQ(parse_text("a in 0..= {n} step 2").comprehension->canonical, "a in 0..={n} step 2");
  EXPECT_TRUE(tuples_of("a in 0..{missing}", scope).rows.empty());
  EXPECT_THROW(tuples_of("a in 0..5 step {z}",
                         [](std::string_view) -> std::optional<Value> { return Value::u64(0); }),
               EvalError);
  try {
    tuples_of("a in 0..{s}",
              [](std::string_view) -> std::optional<Value> { return Value::str("x"); });
    ADD_FAILURE() << "a str bound was accepted";
  } catch (const EvalError& e) {
    EXPECT_NE(std::string(e.what()).find("range bound {s} is a str (x)"), std::string::npos);
  }
}

TEST(Comprehension, WhereKeepsTuplesThatAreExactlyTrue) {
  using V = std::vector<std::string>;
  EXPECT_EQ(rows(tuples_of("a in 0..6 where {a} >= 2 && {a} != 4")), (V{"2", "3", "5"}));
  EXPECT_EQ(rows(tuples_of("a in 0..4, t in p, q where {a} in [1, 3] && {t} == \"q\"")),
            (V{"1/q", "3/q"}));
  EXPECT_EQ(rows(tuples_of("a in 0..3 where !({a} == 1) || {a} > 5")), (V{"0", "2"}));
  // A bare word is a name, never a string: unbound, it reads None and the
  // tuple is dropped.
  EXPECT_TRUE(tuples_of("r in us-east, eu where {r} == us").rows.empty());
  EXPECT_EQ(rows(tuples_of("x in 0.5, 2.5 where {x} > 1")), (V{"2.5"}));
  // Equality across kinds is false; ordering across kinds is an error.
  EXPECT_TRUE(tuples_of("t in p, q where {t} == 1").rows.empty());
  EXPECT_THROW(tuples_of("t in p, q where {t} < 1"), EvalError);
  // Arithmetic binds tighter than the comparisons; u64 wraps, a zero
  // divisor gives 0, a float makes f64; `!` and && take numbers as truth.
  EXPECT_EQ(rows(tuples_of("a in 0..6, b in 1, 2 where {a} + 1 > {b} * 3")),
            (V{"3/1", "4/1", "5/1"}));
  EXPECT_EQ(rows(tuples_of("a in 0..5 where {a} % 2 == 0 && {a} / 0 == 0")), (V{"0", "2", "4"}));
  EXPECT_EQ(rows(tuples_of("a in 0..4 where {a} - 1 > 2")), (V{"0"}));  // 0 - 1 wraps
  EXPECT_EQ(rows(tuples_of("a in 0..4 where {a} * 0.5 >= 1")), (V{"2", "3"}));
  // A float's zero divisor gives 0.0 too (it once gave C's inf and NaN).
  EXPECT_EQ(rows(tuples_of("a in 0..3 where {a} / 0.0 == 0.0 && {a} % 0.0 == 0.0")),
            (V{"0", "1", "2"}));
  EXPECT_EQ(rows(tuples_of("a in 0..3 where {a} * 1.5 / 0.0 < 1")), (V{"0", "1", "2"}));
  EXPECT_EQ(rows(tuples_of("a in 0..4 where !{a} || {a} % 3")), (V{"0", "1", "2"}));
  EXPECT_EQ(rows(tuples_of("t in p, q where {t} + \"x\" == \"qx\"")), (V{"q"}));
  EXPECT_THROW(tuples_of("t in p, q where {t} * 2 > 1"), EvalError);
}

TEST(Comprehension, OrdersAndTruncation) {
  using V = std::vector<std::string>;
  EXPECT_EQ(rows(tuples_of("a in 0..5 order reverse_lex")), (V{"4", "3", "2", "1", "0"}));
  EXPECT_EQ(rows(tuples_of("a in 0..5 order reverse_lex/2")), (V{"4", "3"}));
  EXPECT_EQ(rows(tuples_of("a in 0..5 where {a} > 0 order lex/3")), (V{"1", "2", "3"}));
}

TEST(Comprehension, ShapeOrdersSortTheLatticeStablyInLexOrder) {
  using V = std::vector<std::string>;
  const std::string grid = "a in 0..3, b in 0..3 order ";
  EXPECT_EQ(rows(tuples_of(grid + "diagonal")),
            (V{"0/0", "0/1", "1/0", "0/2", "1/1", "2/0", "1/2", "2/1", "2/2"}));
  EXPECT_EQ(rows(tuples_of(grid + "diagonal/4")), (V{"0/0", "0/1", "1/0", "0/2"}));
  EXPECT_EQ(rows(tuples_of(grid + "antidiagonal/3")), (V{"2/2", "1/2", "2/1"}));
  EXPECT_EQ(rows(tuples_of(grid + "shells")),
            (V{"0/0", "0/1", "0/2", "1/0", "1/2", "2/0", "2/1", "2/2", "1/1"}));
  // extrema/n keeps n whole strata: /1 is the 2^N corners.
  EXPECT_EQ(rows(tuples_of(grid + "extrema/1")), (V{"0/0", "0/2", "2/0", "2/2"}));
  EXPECT_EQ(rows(tuples_of(grid + "extrema")),
            (V{"0/0", "0/2", "2/0", "2/2", "0/1", "1/0", "1/2", "2/1", "1/1"}));
  EXPECT_EQ(rows(tuples_of("x in 0..5 order diagonal")), (V{"0", "1", "2", "3", "4"}));
  EXPECT_NE(error_of("a in 0..3, b in {a} order shells").find("needs a lattice"),
            std::string::npos);
}

// The sampling orders, bit for bit: polydat's documented halton and sobol
// points, and shuffle and lhs as an independent reference computes them
// (PCG-RXS-M-XS stepped, not sought; Fisher-Yates from the top).
TEST(Comprehension, SamplingOrdersDrawPolydatsPoints) {
  using V = std::vector<std::string>;
  const std::string grid = "a in 0..3, b in 0..3 order ";
  // illustrations.md: halton/5 over a 3x3 lattice, and 1-D halton/4 over 99.
  EXPECT_EQ(rows(tuples_of(grid + "halton/5")), (V{"1/1", "0/2", "2/0", "0/1", "1/2"}));
  EXPECT_EQ(rows(tuples_of("a in 0..99 order halton/4")), (V{"49", "24", "74", "12"}));
  // The published Sobol points 1/2, 3/4, 1/4, 3/8, 7/8, 5/8, 1/8, then
  // 1/16 (after seven repeats) on eight cells; in 2-D (1/2, 1/2), (3/4,
  // 1/4), (1/4, 3/4), (3/8, 3/8), (7/8, 7/8), (5/8, 1/8), (1/8, 5/8).
  EXPECT_EQ(rows(tuples_of("a in 0..8 order sobol")), (V{"4", "6", "2", "3", "7", "5", "1", "0"}));
  EXPECT_EQ(rows(tuples_of("a in 0..8, b in 0..8 order sobol/7")),
            (V{"4/4", "6/2", "2/6", "3/3", "7/7", "5/1", "1/5"}));
  EXPECT_EQ(rows(tuples_of("a in 0..10 order shuffle")),
            (V{"0", "9", "7", "4", "2", "8", "3", "1", "5", "6"}));
  EXPECT_EQ(rows(tuples_of("a in 0..10 order shuffle/3")), (V{"6", "5", "1"}));
  EXPECT_EQ(rows(tuples_of("a in 0..4, b in 0..5 order shuffle(count=4, seed=42)")),
            (V{"1/1", "3/1", "1/3", "3/3"}));
  EXPECT_EQ(rows(tuples_of("a in 0..10, b in 0..10 order lhs/5")),
            (V{"4/2", "8/4", "2/8", "0/0", "6/6"}));
  // An axis with fewer indices than samples wraps its strata.
  EXPECT_EQ(rows(tuples_of("a in 0..3, b in 0..8 order lhs(seed=7, count=5)")),
            (V{"1/1", "2/0", "1/3", "0/4", "0/6"}));
}

// polydat's named generators: values, types, limits and arguments read
// from the scope or from earlier elements.
TEST(Comprehension, NamedGeneratorsGivePolydatsSequences) {
  using V = std::vector<std::string>;
  EXPECT_EQ(rows(tuples_of("f in fib(8)")), (V{"1", "1", "2", "3", "5", "8", "13", "21"}));
  EXPECT_EQ(rows(tuples_of("f in fib_until(20)")), (V{"1", "1", "2", "3", "5", "8", "13"}));
  EXPECT_EQ(rows(tuples_of("p in pow2(5)")), (V{"1", "2", "4", "8", "16"}));
  EXPECT_EQ(rows(tuples_of("p in pow2_until(100)")), (V{"1", "2", "4", "8", "16", "32", "64"}));
  EXPECT_EQ(rows(tuples_of("c in binomial(4)")), (V{"1", "4", "6", "4", "1"}));
  EXPECT_EQ(rows(tuples_of("g in geometric(1, 2, 4)")), (V{"1", "2", "4", "8"}));
  EXPECT_EQ(tuples_of("g in geometric(1, 2, 4)").rows[0][0].type(), Type::F64);
  EXPECT_EQ(rows(tuples_of("g in geometric_until(1.5, 2, 10)")), (V{"1.5", "3", "6"}));
  // As documented (it accepted a start of 0 and a factor of 1 or below).
  for (const char* bad : {"g in geometric(0, 2, 3)", "g in geometric(1, 1, 3)"}) {
    test::expect_contains(error_of(bad),
                          {"geometric(start, factor, n) grows only from start > 0 by factor > 1"});
  }
  EXPECT_EQ(rows(tuples_of("x in linear_starts(0, 1, 4)")), (V{"0", "0.25", "0.5", "0.75"}));
  EXPECT_EQ(rows(tuples_of("x in linear_steps(0, 1, 5)")), (V{"0", "0.25", "0.5", "0.75", "1"}));
  // exp(log(start) + i * step), rounding as polydat's does.
  EXPECT_EQ(rows(tuples_of("x in log_steps(1, 16, 5)")),
            (V{"1", "2", "4", "7.999999999999998", "15.999999999999998"}));
  // The last Fibonacci number below 2^64, and binomial(67)'s middle.
  EXPECT_EQ(rows(tuples_of("f in fib(93)")).back(), "12200160415121876738");
  EXPECT_EQ(rows(tuples_of("f in fib_until(18446744073709551615)")).size(), 92u);
  EXPECT_EQ(rows(tuples_of("c in binomial(67)"))[33], "14226520737620288370");
  const comprehension::Scope scope = [](std::string_view name) -> std::optional<Value> {
    if (name == "n") return Value::u64(5);
    return std::nullopt;
  };
  EXPECT_EQ(rows(tuples_of("f in fib({n})", scope)), (V{"1", "1", "2", "3", "5"}));
  EXPECT_EQ(rows(tuples_of("a in 1..4, f in fib({a})")),
            (V{"1/1", "2/1", "2/1", "3/1", "3/1", "3/2"}));
  EXPECT_TRUE(tuples_of("f in fib({missing})", scope).rows.empty());
  EXPECT_EQ(parse_text("f in fib( 8 ), g in geometric({n},2.5,3)").comprehension->canonical,
            "f in fib(8), g in geometric({n}, 2.5, 3)");
  const comprehension::Scope big = [](std::string_view) { return Value::u64(94); };
  EXPECT_THROW(tuples_of("f in fib({n})", big), EvalError);
}

// Zips advance their sources together; a union concatenates its
// alternatives, each with its own where and order, and the union's where
// and order see one axis.
TEST(Comprehension, ZipsAndUnions) {
  using V = std::vector<std::string>;
  EXPECT_EQ(rows(tuples_of("(a, b) in (1..4, 10..13)")), (V{"1/10", "2/11", "3/12"}));
  EXPECT_EQ(rows(tuples_of("(a, b) in zip_truncate(1..4, 10..20)")), (V{"1/10", "2/11", "3/12"}));
  EXPECT_EQ(rows(tuples_of("(a, b) in zip_cycle(1..3, [x, y, z])")), (V{"1/x", "2/y", "1/z"}));
  EXPECT_TRUE(tuples_of("(a, b) in zip_cycle(1..1, 1..3)").rows.empty());
  EXPECT_EQ(rows(tuples_of("k in p, q, (a, b) in (0..2, [x, y])")),
            (V{"p/0/x", "p/1/y", "q/0/x", "q/1/y"}));
  EXPECT_EQ(tuples_of("k in p, (a, b) in (0..2, [x, y])").names, (V{"k", "a", "b"}));
  test::expect_contains(
      test::thrown_message<EvalError>([] { tuples_of("(a, b) in (1..4, 1..9)"); }),
      {"(a 3, b 8) has sources of unequal length", "zip_truncate"});
  EXPECT_EQ(rows(tuples_of("[for k in 1..4, for k in 10..13]")),
            (V{"1", "2", "3", "10", "11", "12"}));
  EXPECT_EQ(rows(tuples_of("[ for k in 1..4 where {k} > 1, for k in 10..13 order lex/2 ]")),
            (V{"2", "3", "10", "11"}));
  EXPECT_EQ(rows(tuples_of("[ for k in 1..4, for k in 10..13 ] where {k} > 2 order halton/2")),
            (V{"10", "11"}));
  EXPECT_EQ(rows(tuples_of("[for a in 0..2, b in 'x', for a in 5..6, b in 'z'] order reverse_lex")),
            (V{"5/z", "1/x", "0/x"}));
  // One bare word is a name, as polydat reads it (a list of several is
  // text): `b in x` reads x from the scope, not the text "x".
  EXPECT_TRUE(tuples_of("a in 0..2, b in x").rows.empty());
  const auto scope = [](std::string_view name) -> std::optional<Value> {
    if (name == "x") return Value::u64(7);
    return std::nullopt;
  };
  EXPECT_EQ(rows(tuples_of("a in 0..2, b in x", scope)), (V{"0/7", "1/7"}));
  EXPECT_EQ(parse_text("b in x").comprehension->canonical, "b in x");
  EXPECT_EQ(parse_text("[ for k in 1..4,for k in 10..13 ]  where {k} > 2").comprehension->canonical,
            "[for k in 1..4, for k in 10..13] where {k} > 2");
  EXPECT_EQ(parse_text("(a,b) in zip_cycle(1..3,[x,y,z])").comprehension->canonical,
            "(a, b) in zip_cycle(1..3, [x, y, z])");
  EXPECT_NE(error_of("[for a in 1..3, for b in 1..3]").find("bind the same names"),
            std::string::npos);
  EXPECT_NE(error_of("[for a in 1..3, for a in 4..6] order lhs/2").find("a union is one sequence"),
            std::string::npos);
  EXPECT_NE(error_of("(a, b) in (1..3)").find("binds 2 names from 1 sources"), std::string::npos);
  EXPECT_NE(error_of("(a, b) in [1..3, 4..6]").find("zip_truncate"), std::string::npos);
  EXPECT_NE(error_of("(a, a) in (1..3, 4..6)").find("bound by two clauses"), std::string::npos);
  std::string nested = "a in 1..3";
  for (int k = 0; k < 40; ++k) nested = "[for " + nested + "]";
  EXPECT_NE(error_of(nested).find("unions nest more than 16 deep"), std::string::npos);
  EXPECT_EQ(rows(tuples_of("[for [for a in 1..3], for a in 7..8]")), (V{"1", "2", "7"}));
  // polydat's legacy union: every clause binds one name.
  EXPECT_EQ(rows(tuples_of("k in 1..3, k in 10..12 where {k} > 1")), (V{"2", "10", "11"}));
  EXPECT_EQ(parse_text("k in 1..3, k in 10..12 order lex/3").comprehension->canonical,
            "[for k in 1..3, for k in 10..12] order lex/3");
  EXPECT_NE(error_of("k in 1..3, j in 2..3, k in 5..6").find("'k' is bound by two clauses"),
            std::string::npos);
  // polydat's for_runtime.rs: members over lines, each with its where or
  // order, the last with a trailing comma.
  EXPECT_EQ(rows(tuples_of("[\n    for k in 1..4 where {k} > 1,\n    for k in 10..13 order "
                           "lex/2,\n]")),
            (V{"2", "3", "10", "11"}));
}

// A derivation composes with its producer as polydat composes them.
TEST(Comprehension, DerivationsComposeWithTheirProducer) {
  const auto derive = [](const std::string& base, const std::string& derivation) {
    return comprehension::derive(*parse_text(base).comprehension,
                                 *parse_text("sweep " + derivation).comprehension)
        .comprehension->canonical;
  };
  EXPECT_EQ(derive("a in 0..3", "where {a} > 0"), "a in 0..3 where {a} > 0");
  EXPECT_EQ(derive("a in 0..3 where {a} < 2", "where {a} > 0 order lex/1"),
            "a in 0..3 where ({a} < 2) && ({a} > 0) order lex/1");
  // Over an ordered producer a filter sees the selected tuples...
  EXPECT_EQ(derive("a in 0..3 order lex/2", "where {a} > 0"),
            "[for a in 0..3 order lex/2] where {a} > 0");
  // ...and a lattice order reads through an untruncated order, not a truncated one.
  EXPECT_EQ(derive("a in 0..3 order reverse_lex", "order halton/2"), "a in 0..3 order halton/2");
  EXPECT_EQ(derive("a in 0..3 order reverse_lex/2", "order halton/2"),
            "[for a in 0..3 order reverse_lex/2] order halton/2");
  EXPECT_EQ(derive("a in 0..3 order halton", "order reverse_lex"),
            "[for a in 0..3 order halton] order reverse_lex");
}

// polydat's sampled spaces (its crates/polydat/tests/for_sampling.rs): extrema
// takes a continuous axis's two ends (an open end the last float inside),
// a hybrid of discrete and continuous axes is sampled with the discrete
// positions first (halton's base 2 on k, base 3 on theta), and a where
// keeps the first passing points of the sequence.
TEST(Comprehension, SampledSpacesOfContinuousAndDiscreteAxes) {
  using V = std::vector<std::string>;
  const std::string top4 = Value::f64(std::nextafter(4.0, 0.0)).to_string();
  const std::string top1 = Value::f64(std::nextafter(1.0, 0.0)).to_string();
  EXPECT_EQ(rows(tuples_of("x in 2.0..4.0, y in 0.0..1.0 order extrema/1")),
            (V{"2/0", "2/" + top1, top4 + "/0", top4 + "/" + top1}));
  EXPECT_EQ(rows(tuples_of("theta in 0.0..1.0, k in 1,2,4,8 order extrema/1")),
            (V{"0/1", "0/8", top1 + "/1", top1 + "/8"}));
  EXPECT_EQ(rows(tuples_of("x in 0.0..=1.0, k in 0..3 order extrema")),
            (V{"0/0", "0/2", "1/0", "1/2", "0/1", "1/1"}));
  EXPECT_EQ(rows(tuples_of("k in 1,2,4,8, theta in 0.0..1.0 order halton/3")),
            (V{"4/0.33333333333333326", "2/0.6666666666666666", "8/0.11111111111111105"}));
  // Latin hypercube over a hybrid: eight draws, one in each eighth of theta.
  std::vector<int> bins;
  for (const std::string& row : rows(tuples_of("k in 1,2,4,8, theta in 0.0..1.0 order lhs/8"))) {
    const size_t slash = row.find('/');
    const std::string k = row.substr(0, slash);
    EXPECT_TRUE(k == "1" || k == "2" || k == "4" || k == "8") << row;
    bins.push_back((int)(std::stod(row.substr(slash + 1)) * 8));
  }
  std::sort(bins.begin(), bins.end());
  EXPECT_EQ(bins, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  for (const char* order : {"shuffle/6", "sobol/6"}) {
    EXPECT_EQ(tuples_of(std::string("k in 1,2,4,8, theta in 0.0..1.0 order ") + order).rows.size(),
              6u)
        << order;
  }
  // The where keeps the first passing points of halton's sequence.
  V all = rows(tuples_of("x in 0.0..1.0, y in 0.0..1.0 order halton/16")), passing;
  for (const std::string& row : all) {
    if (std::stod(row.substr(0, row.find('/'))) > 0.5 && passing.size() < 4) passing.push_back(row);
  }
  EXPECT_EQ(rows(tuples_of("x in 0.0..1.0, y in 0.0..1.0 where {x} > 0.5 order halton/4")),
            passing);
  // An empty discrete axis samples nothing.
  EXPECT_TRUE(tuples_of("k in 3..3, x in 0.0..1.0 order halton/4").rows.empty());
}

// Continuous intervals, sampled by a counted halton, sobol, lhs or shuffle:
// each code a 53-bit fraction u carried onto [lo, hi) as lo + u * (hi - lo)
// (shuffle and lhs from the independent PCG reference).
TEST(Comprehension, IntervalsAreSampled) {
  using V = std::vector<std::string>;
  EXPECT_EQ(rows(tuples_of("x in 0.0..1.0 order halton/4")), (V{"0.5", "0.25", "0.75", "0.125"}));
  EXPECT_EQ(rows(tuples_of("x in 0.0..1.0, y in 2.0..4.0 order sobol/3")),
            (V{"0.5/3", "0.75/2.5", "0.25/3.5"}));
  EXPECT_EQ(rows(tuples_of("x in 0.0..10.0 order shuffle(count=3, seed=5)")),
            (V{"4.669747391057846", "5.880244022294255", "8.943080926713055"}));
  EXPECT_EQ(rows(tuples_of("x in 0.0..1.0, y in 0.0..=1.0 order lhs/4")),
            (V{"0.6515107041078161/0.8010741869421121", "0.763299230148133/0.5743879801836694",
               "0.15219281968616438/0.415776354570232", "0.333891196846257/0.13198330495905897"}));
  EXPECT_EQ(tuples_of("x in 0.0..1.0 order halton/1").rows[0][0].type(), Type::F64);
  EXPECT_EQ(parse_text("x in 0..2.5 order halton/2").comprehension->canonical,
            "x in 0.0..2.5 order halton/2");
  for (const char* unsampled : {"x in 0.0..1.0", "x in 0.0..1.0 order halton",
                                "x in 0.0..1.0 order lex/3", "x in 0.0..1.0, k in 1..3"}) {
    EXPECT_NE(error_of(unsampled).find("polydat's V8"), std::string::npos) << unsampled;
  }
  EXPECT_NE(error_of("x in 0.0..1.0, k in 0..{x} order shuffle/4").find("needs a lattice"),
            std::string::npos);
  EXPECT_NE(error_of("(a, b) in (0.0..1.0, 1..3) order halton/2").find("polydat's V7"),
            std::string::npos);
  EXPECT_NE(error_of("x in 1.0..0.5 order halton/2")
                .find("the interval '1.0..0.5' must start below its end (1.0 is not below 0.5)"),
            std::string::npos);
  EXPECT_THROW(tuples_of("x in 0.0..1.0 order halton/20000000"), EvalError);  // past 2^24
  // 13 axes of 16,000,000 points are 10 GB of tuples: refused before any is
  // built (they were built, and ended in std::bad_alloc after 50 s).
  std::string axes;
  for (int k = 0; k < 13; ++k) axes += (k ? ", x" : "x") + std::to_string(k) + " in 0.0..1.0";
  expect_contains(
      test::thrown_message<EvalError>([&] { tuples_of(axes + " order lhs/16000000"); }),
      {"more than 16000000 tuples of 13 elements", "1024 MiB one opening materializes"});
}

// polydat's named measures: the order's unit points carried through the
// inverse CDF, restricted to an `on` interval (u lands between the CDF
// values of its ends), over the support without one. Checked against the
// closed forms (halton/3's points are 1/2, 1/4, 3/4).
TEST(Comprehension, NamedMeasuresDrawThroughTheirInverseCdf) {
  const auto draws = [](const std::string& source) {
    std::vector<double> out;
    for (const auto& row : tuples_of("x in " + source + " order halton/3").rows) {
      out.push_back(row[0].as_f64());
    }
    return out;
  };
  const double u[] = {0.5, 0.25, 0.75};
  const std::vector<double> exponential = draws("exponential(1) on 0.0..1.0");
  const std::vector<double> pareto = draws("pareto(2, 3)");
  const std::vector<double> uniform = draws("uniform01()");
  const std::vector<double> normal = draws("normal(10, 2)");
  const std::vector<double> log_normal = draws("log_normal(0, 0.5)");
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_NEAR(exponential[k], -std::log(1.0 - u[k] * (1.0 - std::exp(-1.0))), 1e-12);
    EXPECT_NEAR(pareto[k], 2.0 / std::cbrt(1.0 - u[k]), 1e-12);
    EXPECT_EQ(uniform[k], u[k]);
    // The A&S 26.2.23 probit: within 4.5e-4 of the true normal quantile.
    static const double z[] = {0.0, -0.6744897501960817, 0.6744897501960817};
    EXPECT_NEAR(normal[k], 10.0 + 2.0 * z[k], 2 * 4.5e-4);
    EXPECT_NEAR(log_normal[k], std::exp(0.5 * z[k]), 1e-3);
  }
  // Symmetric about the mean, restricted to [0, 2] when asked.
  EXPECT_EQ(normal[1] - 10.0, -(normal[2] - 10.0));
  for (double x : draws("normal(0, 1) on 0.0..=2.0")) EXPECT_TRUE(x >= 0.0 && x <= 2.0) << x;
  EXPECT_EQ(draws("normal()"), draws("normal(0, 1)"));
  EXPECT_EQ(parse_text("x in normal() order halton/2").comprehension->canonical,
            "x in normal(0, 1) order halton/2");
  EXPECT_EQ(parse_text("x in exponential(2) on 0..1 order sobol/2").comprehension->canonical,
            "x in exponential(2) on 0.0..1.0 order sobol/2");
  EXPECT_NE(error_of("x in normal(1) order halton/2").find("normal takes 2 parameter(s)"),
            std::string::npos);
  EXPECT_NE(error_of("x in exponential(0) order halton/2")
                .find("rate is 0; it is a positive finite number"),
            std::string::npos);
  EXPECT_NE(error_of("x in gamma(2, 2) order halton/2").find("not sampled by polyrt yet"),
            std::string::npos);
  EXPECT_NE(error_of("x in normal(0, 1) order halton").find("polydat's V8"), std::string::npos);
  EXPECT_NE(error_of("x in normal(0, 1) in 0..1 order halton/2").find("after normal(...)"),
            std::string::npos);
}

// An order after a where ranks the survivors by their place in the
// unfiltered lattice (polydat's V5): halton/n is the first n survivors of
// the unfiltered halton sequence; extrema/k the first k strata that hold a
// survivor; survivors an order does not reach follow in ascending order.
TEST(Comprehension, AnOrderAfterAWhereRanksTheSurvivors) {
  using V = std::vector<std::string>;
  const std::string grid = "a in 0..3, b in 0..3 ";
  EXPECT_EQ(rows(tuples_of(grid + "where {a} != 1 order halton/3")), (V{"0/2", "2/0", "0/1"}));
  EXPECT_EQ(rows(tuples_of(grid + "where {a} == 1 order extrema/1")), (V{"1/0", "1/2"}));
  EXPECT_EQ(rows(tuples_of(grid + "where {a} == 1 order diagonal")), (V{"1/0", "1/1", "1/2"}));
  EXPECT_EQ(rows(tuples_of("a in 0..3 where {a} > 0 order shells")), (V{"2", "1"}));
  EXPECT_EQ(rows(tuples_of("a in 0..6 where {a} > 3 order reverse_lex")), (V{"5", "4"}));
  EXPECT_TRUE(tuples_of(grid + "where {a} > 5 order sobol/2").rows.empty());
}

TEST(Comprehension, BadTextIsRefusedWithTheRule) {
  EXPECT_NE(error_of("a in 0..3, b in 1..2, a in 1..2").find("bound by two clauses"),
            std::string::npos);
  EXPECT_NE(error_of("a in 1, x").find("mixes numbers"), std::string::npos);
  EXPECT_NE(error_of("a in 0..3 order wobble").find("unknown order"), std::string::npos);
  EXPECT_NE(error_of("a in 0..3 order halton(seed=4)").find("takes no seed"), std::string::npos);
  EXPECT_NE(error_of("a in 0..3 order lhs(count=2, count=3)").find("given twice"),
            std::string::npos);
  EXPECT_NE(error_of("a in 0..3 order lhs(size=2)").find("not count or seed"), std::string::npos);
  EXPECT_NE(error_of("a in 0..3, b in {a} order halton/2").find("needs a lattice"),
            std::string::npos);
  std::string fourteen_axes = "a0 in 0..2";
  for (int k = 1; k < 14; ++k) fourteen_axes += ", a" + std::to_string(k) + " in 0..2";
  EXPECT_NE(error_of(fourteen_axes + " order sobol").find("at most 13 axes"), std::string::npos);
  EXPECT_NE(error_of("a in hash(3)").find("the calls a comprehension takes"), std::string::npos);
  EXPECT_NE(error_of("a in fib(94)").find("fib(94) passes 2^64: n is at most 93"),
            std::string::npos);
  EXPECT_NE(error_of("a in pow2(65)").find("at most 64"), std::string::npos);
  EXPECT_NE(error_of("a in binomial(68)").find("at most 67"), std::string::npos);
  EXPECT_NE(error_of("a in fib(1, 2)").find("fib(n) takes 1 argument, not 2"), std::string::npos);
  EXPECT_NE(error_of("a in fib(-1)").find("not an integer"), std::string::npos);
  EXPECT_NE(error_of("a in geometric_until(1, 1, 10)").find("factor > 1"), std::string::npos);
  EXPECT_NE(error_of("a in log_steps(0, 1, 3)").find("bounds must be positive"), std::string::npos);
  EXPECT_NE(error_of("a in linear_steps(0, 1, 20000000)").find("one opening materializes"),
            std::string::npos);
  EXPECT_NE(error_of("a in geometric_until(1, 1.0000001, 1e300)").find("one opening materializes"),
            std::string::npos);
  EXPECT_NE(error_of("a in 0..x").find("not an integer"), std::string::npos);
  EXPECT_NE(error_of("a in 0..3 step 0").find("step must be at least 1"), std::string::npos);
  EXPECT_NE(error_of("0..3").find("NAME in SOURCE"), std::string::npos);
  EXPECT_THROW(tuples_of("a in 0..100000, b in 0..1000"), EvalError);  // past kMaxTuples
  // Hostile predicates: a bounded tree, never a stack overflow.
  EXPECT_NE(error_of("a in 0..3 where " + std::string(100000, '!') + "true").find("1024"),
            std::string::npos);
  std::string chain = "a in 0..3 where true";
  for (int k = 0; k < 100000; ++k) chain += " && true";
  EXPECT_NE(error_of(chain).find("operators and values"), std::string::npos);
  EXPECT_NE(error_of("a in 0..3 where " + std::string(100000, '(') + "true").find("1024"),
            std::string::npos);
}

// The opening at parent coordinate 0 of `source`'s traversal, compiled
// for `engine`.
Traversal open_at_zero(const std::string& source, Engine engine) {
  const auto program = compile(source, CompileOptions{.engine = engine});
  State parent = program->new_state();
  parent.set_inputs(std::vector<uint64_t>{0});
  return open_traversal(parent, std::vector<uint64_t>{0}, 0);
}

const char* kSweep = R"(input cycle
base := cycle * 100
for a in 0..2, tag in p, q where {a} > 0 || {tag} == "p" {
  const scaled := a * 10
  v := base + scaled
  label := "{tag}-{a}"
}
)";

TEST(Traversal, EachTupleIsAnActivationOnEveryEngine) {
  std::vector<std::string> first;
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    const auto program = compile(kSweep, CompileOptions{.engine = engine});
    EXPECT_EQ(program->output_names(), std::vector<std::string>{"base"});
    ASSERT_EQ(program->traversal_count(), 1u);
    State parent = program->new_state();
    const std::vector<uint64_t> at{7};
    parent.set_inputs(at);
    const Traversal t = open_traversal(parent, at, 0);
    EXPECT_EQ(t.comprehension(), "a in 0..2, tag in p, q where {a} > 0 || {tag} == \"p\"");
    std::vector<std::string> got;
    for (size_t a = 0; a < t.tuples().size(); ++a) {
      State body = t.activation(a);
      got.push_back(body.pull("v").to_string() + " " + body.pull("label").to_string());
    }
    EXPECT_EQ(got, (std::vector<std::string>{"700 p-0", "710 p-1", "710 q-1"})) << (int)engine;
    EXPECT_THROW(t.activation(3), WriteError);
  }
  const auto program = compile(kSweep);
  State parent = program->new_state();
  EXPECT_THROW(open_traversal(parent, std::vector<uint64_t>{0}, 1), WriteError);
  EXPECT_THROW(open_traversal(parent, std::vector<uint64_t>{}, 0), WriteError);
}

TEST(Traversal, RunWritesOneRowPerTupleForEachParentCoordinate) {
  const std::string dir = temp_dir();
  const std::string file = write_program(dir, "sweep.polydat", kSweep);
  const auto r = run_polyrt("run " + file + " --cycles 7..9");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "cycle,a,tag,scaled,v,label\n7,0,p,0,700,p-0\n7,1,p,10,710,p-1\n7,1,q,10,710,q-1\n"
            "8,0,p,0,800,p-0\n8,1,p,10,810,p-1\n8,1,q,10,810,q-1\n");
  const auto one = run_polyrt("run " + file + " --cycles 7..8 --format jsonl --outputs label");
  EXPECT_EQ(one.out,
            "{\"cycle\":7,\"a\":0,\"tag\":\"p\",\"label\":\"p-0\"}\n"
            "{\"cycle\":7,\"a\":1,\"tag\":\"p\",\"label\":\"p-1\"}\n"
            "{\"cycle\":7,\"a\":1,\"tag\":\"q\",\"label\":\"q-1\"}\n");
  const auto eval = run_polyrt("eval " + file + " 7");
  expect_contains(eval.out, {"base = 700", "3 tuple(s)", "[2] a=1 tag=q -> scaled = 10, v = 710"});
  const auto gpu = run_polyrt("run " + file + " --cycles 0..2 --device gpu");
  EXPECT_EQ(gpu.status, 2);
  expect_contains(gpu.err, {"this traversal's rows run on a per-state engine"});
  EXPECT_EQ(run_polyrt("run " + file + " --cycles 0..2 --format npy --out " + dir + "/n").status,
            2);
}

TEST(Traversal, TheSweepExampleRunsAndOpensAsEvalShows) {
  const std::string file = std::string(POLYRT_SOURCE_DIR) + "/examples/sweep.polydat";
  const auto r = run_polyrt("run " + file + " --cycles 0..2 --outputs label");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "cycle,clients,payload,label");
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1 + 2 * 5);  // 5 of 6 tuples kept
  expect_contains(run_polyrt("eval " + file + " 0").out,
                  {"5 tuple(s)", "[4] clients=64 payload=large -> weight = 16"});
  // The body is a program of its own: plan shows its plan after the parent's.
  expect_contains(run_polyrt("plan " + file).out,
                  {"traversal 0: for clients in 1, 8, 64", "slot 1: clients (u64", "-> label]"});
  expect_contains(run_polyrt("plan " + file + " --engine batch").out,
                  {"runs its body on a per-state engine"});
}

// A zip may open the comprehension (`for (a, t) in ...`), a union may span
// lines, and a union's alternatives must agree on each element's type.
TEST(Traversal, ZipsAndUnionsRunThroughTheCli) {
  const std::string dir = temp_dir();
  const std::string zip =
      write_program(dir, "zip.polydat",
                    "input cycle\nfor (a, t) in zip_cycle(1..4, [x, y]) {\n  v := a * 2\n}\n");
  EXPECT_EQ(run_polyrt("run " + zip + " --cycles 2..3").out,
            "cycle,a,t,v\n2,1,x,2\n2,2,y,4\n2,3,x,6\n");
  const std::string union_file =
      write_program(dir, "union.polydat",
                    "input cycle\nx := cycle + 1\nfor [ for k in 1..3,\n      for k in 10..12 ] "
                    "where {k} != {x} {\n  v := k * 2\n}\n");
  EXPECT_EQ(run_polyrt("run " + union_file + " --cycles 1..2").out,
            "cycle,k,v\n1,1,2\n1,10,20\n1,11,22\n");
  expect_contains(compile_error("input cycle\nfor [for k in 1..3, for k in 1.5, 2.5] { v := k }\n"),
                  {"t.polydat:2:5", "'k' is a u64 in one alternative of the union and a f64"});
}

// Producers bind comprehensions; derivations narrow and reorder them; a
// traversal runs over one by name; the value is the producer's text.
TEST(Traversal, ProducersAndDerivations) {
  const std::string source =
      "input cycle\nsweep := for limit in 10, 20, 30, tier in gold, silver\n"
      "big := for sweep where {limit} > 10\ntop := for big order reverse_lex/2\n"
      "label := \"plan: {sweep}\"\nfor top {\n  v := limit * 2\n}\n";
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    const auto program = compile(source, CompileOptions{.engine = engine});
    State parent = program->new_state();
    parent.set_inputs(std::vector<uint64_t>{0});
    EXPECT_EQ(parent.pull("label").text(), "plan: for limit in 10, 20, 30, tier in gold, silver");
    EXPECT_EQ(parent.pull("top").text(),
              "for limit in 10, 20, 30, tier in gold, silver where {limit} > 10 order "
              "reverse_lex/2");
    const Traversal t = open_traversal(parent, std::vector<uint64_t>{0}, 0);
    ASSERT_EQ(t.tuples().size(), 2u);
    EXPECT_EQ(t.tuples()[0][1].text(), "silver");
    EXPECT_EQ(t.activation(1).pull("v").as_u64(), 60u);
  }
  const std::string head = "input cycle\nsweep := for limit in 10, 20, 30\n";
  expect_contains(compile_error(head + "x := for sweep\n"), {"t.polydat:3:10", "derives nothing"});
  expect_contains(compile_error(head + "y := sweep + \"a\"\n"),
                  {"t.polydat:3:6", "'sweep' is a producer (sweep := for ...), not a plain value"});
  expect_contains(compile_error(head + "for nope { v := 1 }\n"),
                  {"'nope' is not a producer bound before this line"});
  expect_contains(compile_error(head + "z := 1 + for a in 0..3\n"),
                  {"compiles only as the whole value of a binding"});
  // A producer of one element as a clause's whole source: its tuples'
  // values (taken when the program compiles), on every engine.
  const std::string as_source =
      "input cycle\nevens := for a in 0..5 where {a} % 2 == 0 order reverse_lex\n"
      "for k in 1..3, t in {evens} {\n  v := t * k\n}\n";
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    State at = compile(as_source, CompileOptions{.engine = engine})->new_state();
    at.set_inputs(std::vector<uint64_t>{0});
    const Traversal t = open_traversal(at, std::vector<uint64_t>{0}, 0);
    ASSERT_EQ(t.tuples().size(), 6u);
    EXPECT_EQ(t.tuples()[0][1].as_u64(), 4u);
    EXPECT_EQ(t.activation(4).pull("v").as_u64(), 4u);
  }
  expect_contains(compile_error(head + "pair := for x in 1..2, y in 3..4\n"
                                       "q := for a in 0..3, b in {pair}\n"),
                  {"'{pair}' reads a producer of 2 elements"});
  expect_contains(compile_error("input cycle\nn := cycle\np := for a in 0..{n}\n"
                                "for t in {p} { v := t }\n"),
                  {"'{p}' reads a producer that reads 'n'"});
  expect_contains(compile_error("input cycle\nlater := for early where {a} > 1\n"
                                "early := for a in 0..3\n"),
                  {"'early' is not a producer bound before this line"});
  // A derivation is composed on the parsed producer: list items holding a
  // comma or a quote keep their values (composed as text, 'x,y' became the
  // items x and y").
  const auto quoted = compile(
      "input cycle\nsweep := for a in 0..2, b in ['x,y', \"q'r\"]\n"
      "for sweep where {a} > 0 {\n  v := b\n}\n");
  State at = quoted->new_state();
  at.set_inputs(std::vector<uint64_t>{0});
  const Traversal derived = open_traversal(at, std::vector<uint64_t>{0}, 0);
  ASSERT_EQ(derived.tuples().size(), 2u);
  EXPECT_EQ(derived.tuples()[0][1].text(), "x,y");
  EXPECT_EQ(derived.tuples()[1][1].text(), "q'r");
  // Derivations chained past the predicate bound are refused, not evaluated
  // by a recursion as deep as the chain.
  std::string chain = "input cycle\nd0 := for a in 0..3\n";
  for (int k = 1; k <= 1100; ++k) {
    chain += "d" + std::to_string(k) + " := for d" + std::to_string(k - 1) + " where {a} > 0\n";
  }
  expect_contains(compile_error(chain), {"the derived predicate has more than 1024"});
  // polydat 0.6.1's composed names: {k_{k}_limits} reads the name k's value
  // composes, when the traversal opens, on every engine; the names it can
  // compose must have one type, and it must compose one.
  const std::string composed =
      "input cycle\nk_10_limits := 100 + cycle\nk_20_limits := 200 + cycle\n"
      "for k in 10, 20, limit in {k_{k}_limits} {\n  v := k + limit\n}\n";
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    State at = compile(composed, CompileOptions{.engine = engine})->new_state();
    at.set_inputs(std::vector<uint64_t>{3});
    const Traversal t = open_traversal(at, std::vector<uint64_t>{3}, 0);
    ASSERT_EQ(t.tuples().size(), 2u);
    EXPECT_EQ(t.tuples()[1][1].as_u64(), 203u);
    EXPECT_EQ(t.activation(1).pull("v").as_u64(), 223u);
  }
  expect_contains(
      compile_error(
          "input cycle\nk_1_x := 1\nk_2_x := \"a\"\nfor k in 1, 2, l in {k_{k}_x} { v := l }\n"),
      {"t.polydat:4:5", "'{k_{k}_x}' composes 'k_1_x', a u64, and 'k_2_x', a str"});
  expect_contains(compile_error("input cycle\nfor k in 1, l in {q_{k}_x} { v := l }\n"),
                  {"'{q_{k}_x}' composes no name of the program's outputs or inputs"});
  // Many placeholders against a long name: matched in |template| x |name|
  // steps (trying every split once hung the compile).
  std::string many = "{";
  for (int k = 0; k < 25; ++k) many += "{a}";
  expect_contains(compile_error("input cycle\n" + std::string(60, 'k') +
                                " := 1\nfor a in 1, l in " + many + "x} { v := l }\n"),
                  {"composes no name of the program's outputs or inputs"});
  // A bare word as a source is a name (polydat's reading, never its own
  // text); one that names nothing is refused with the quoting hint.
  const auto bare = compile(
      "input cycle\nsizes := hash_vec(cycle, 3)\nfor s in sizes {\n"
      "  v := s\n}\n");
  State parent = bare->new_state();
  parent.set_inputs(std::vector<uint64_t>{5});
  EXPECT_EQ(open_traversal(parent, std::vector<uint64_t>{0}, 0).tuples().size(), 3u);
  expect_contains(
      compile_error("input cycle\nfor s in sizes { v := s }\n"),
      {"t.polydat:2:5", "the source 'sizes' names no output or input", "quote it: 'sizes'"});
  expect_contains(compile_error(head + "d := for sweep where {limit} >\n"),
                  {"t.polydat:3:31", "the predicate ends where a value was expected"});
}

// A traversal over a literal lattice whose body reads nothing of the parent
// has a lattice body: the batch tier (CPU and GPU) writes the bytes the
// per-state activations write, in every format; the others have none.
// Refusals give advice a user can take: text cannot hold a traversal's
// columns whatever --outputs names; an element is always a column, so npy
// refuses a str element by name; bench says it does not measure the rows.
TEST(Traversal, RefusalsGiveAdviceThatCanBeTaken) {
  const std::string dir = temp_dir();
  const std::string file =
      write_program(dir, "t.polydat",
                    "input cycle\nfor a in 0..3, b in p, q {\n  v := a * 2\n  s := b + \"!\"\n}\n");
  const auto text = run_polyrt("run " + file + " --cycles 0..2 --format text --outputs s");
  EXPECT_EQ(text.status, 2);
  expect_contains(text.err, {"--format text writes one text column, but a traversal's rows hold"});
  EXPECT_EQ(text.err.find("name one str output"), std::string::npos) << text.err;
  const auto npy =
      run_polyrt("run " + file + " --cycles 0..2 --format npy --outputs v --out " + dir + "/n");
  EXPECT_EQ(npy.status, 2);
  expect_contains(npy.err, {"the traversal's element 'b' is str (every element is a column"});
  EXPECT_FALSE(exists(dir + "/n"));
  const auto bench = run_polyrt("bench " + file + " --seconds 0.05");
  EXPECT_EQ(bench.status, 2);
  expect_contains(bench.err, {"has no top-level output",
                              "its traversal 'for a in 0..3, b in p, q' "
                              "is not measured by bench"});
  const std::string both =
      write_program(dir, "b.polydat", "input cycle\nk := cycle * 3\nfor a in 0..3 { v := a }\n");
  expect_contains(
      run_polyrt("bench " + both + " --seconds 0.05").err,
      {"measures its top-level outputs; its traversal 'for a in 0..3' is not measured"});
}

// A failing row names the parent coordinate and the tuple, the same on
// every path (the lattice path named its internal "tuple_row=45", the
// per-state one the body's "cycle=0"); a body with a cursor adds its cycle.
TEST(Traversal, AFailingRowNamesTheCoordinateAndTheTupleOnEveryPath) {
  const std::string dir = temp_dir();
  const std::string lattice = write_program(
      dir, "l.polydat", "input cycle\nfor a in 40..60, f in 0.5 { x := in_range(a, 0, 49) }\n");
  const std::string per_state = write_program(
      dir, "p.polydat",
      "input cycle\nfor a in 40..60, f in 0.5 where {a} != 1 { x := in_range(a, 0, 49) }\n");
  ASSERT_TRUE(traversal_info(*compile_file(lattice), 0).lattice_body);
  for (const std::string& run :
       {"run " + lattice + " --cycles 7..9", "run " + lattice + " --cycles 7..9 --engine native",
        "run " + per_state + " --cycles 7..9"}) {
    const auto r = run_polyrt(run);
    EXPECT_EQ(r.status, 1) << run;
    expect_contains(r.err,
                    {"value 50 is not in range [0, 49]", "coordinates: cycle=7; a=50, f=0.5\n"});
  }
  const std::string cursor = write_program(
      dir, "c.polydat",
      "input cycle\nfor p in partitions(\"*/2\", 100) {\n  cursor rows = range(0, 100) over p\n"
      "  x := in_range(rows.ordinal, 0, 70)\n}\n");
  expect_contains(run_polyrt("run " + cursor + " --cycles 3..4").err,
                  {"coordinates: cycle=3; p={", "\"idx\":1", "; body cycle=21"});
}

TEST(Traversal, LatticeBodiesRunInTheBatchTierWithTheSameBytes) {
  const std::string dir = temp_dir();
  const std::vector<std::string> lattices = {
      // ranges and steps; a u64 list that is no progression, an f64 list, a
      // str list, a generator; lex/n cuts the lattice
      "for a in 0..3, t in p, q, x in 0.5, 0.25, k in fib(4) order lex/7 {\n  v := a * 10 + k\n"
      "  s := t + \"!\"\n  f := x * 2.0\n}\n",
      "for a in 5..=20 step 5, b in 30, 20, 10 {\n  v := hash(a * b)\n}\n",
      "for g in geometric(1, 2.5, 3), w in \"a b; c\" {\n  v := g + 1.0\n  n := w + \"-\" + "
      "format_u64(cycle)\n}\n",
  };
  const bool gpu = run_polyrt("devices").out.find("gpu 0:") != std::string::npos;
  for (size_t k = 0; k < lattices.size(); ++k) {
    const std::string file = write_program(dir, "l" + std::to_string(k) + ".polydat",
                                           "input cycle\nbase := cycle * 3\n" + lattices[k]);
    ASSERT_TRUE(traversal_info(*compile_file(file), 0).lattice_body) << lattices[k];
    expect_contains(run_polyrt("plan " + file + " --engine batch").out,
                    {"runs in the batch tier as its lattice body", "native kernel"});
    for (const char* format : {"csv", "jsonl"}) {
      const std::string run = "run " + file + " --cycles 5..8 --format " + std::string(format);
      const auto batch = run_polyrt(run);
      ASSERT_EQ(batch.status, 0) << batch.err;
      EXPECT_EQ(batch.out, run_polyrt(run + " --engine interpreter").out) << lattices[k];
      EXPECT_EQ(batch.out, run_polyrt(run + " --threads 2").out);
      if (gpu) {
        EXPECT_EQ(batch.out, run_polyrt(run + " --device gpu").out) << lattices[k];
      }
    }
  }
  const auto npy = run_polyrt("run " +
                              write_program(dir, "n.polydat",
                                            "input cycle\nfor a in 0..4, b in 7, 9 {\n"
                                            "  v := a * b\n}\n") +
                              " --cycles 2..4 --format npy --out " + dir + "/npy");
  ASSERT_EQ(npy.status, 0) << npy.err;
  EXPECT_TRUE(exists(dir + "/npy/v.npy") && exists(dir + "/npy/cycle.npy"));
  // No lattice body: a where, a {name}, a body reading the parent, a union.
  for (const char* other :
       {"for a in 0..3 where {a} > 0 { v := a }\n", "for a in fib({base}) { v := a }\n",
        "for a in {base} { v := a }\n", "for a in 0..3 { v := a + base }\n",
        "for [for a in 0..3, for a in 5..6] { v := a }\n",
        "for a in 0..3 order shuffle { v := a }\n"}) {
    const auto program = compile("input cycle\nbase := cycle * 3\n" + std::string(other));
    EXPECT_FALSE(traversal_info(*program, 0).lattice_body) << other;
  }
}

// A vector peels into its elements, from a node call or a {name}, on every
// engine alike; a vector argument of a call is passed whole.
TEST(Traversal, VectorSourcesPeelIntoElements) {
  const std::string source =
      "input cycle\nids := str_to_vec_i32(\"[10, 20]\")\nemb := hash_vec(cycle, 2)\n"
      "for e in hash_vec(7, 3), k in {ids} {\n"
      "  x := e * 2.0\n  y := k + 1\n}\nfor v in {emb}, n in vec_norm({emb}) { z := v }\n";
  const auto program = compile(source);
  EXPECT_EQ(traversal_info(*program, 0).types[0], Type::F32);
  EXPECT_EQ(traversal_info(*program, 0).types[1], Type::I32);
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    const Traversal t = open_at_zero(source, engine);
    ASSERT_EQ(t.tuples().size(), 6u);
    State body = t.activation(1);
    EXPECT_EQ(body.pull("y").to_string(), "21");
    EXPECT_EQ(body.pull("x").to_string(), "-0.44068101048469543");
  }
  State parent = program->new_state();
  parent.set_inputs(std::vector<uint64_t>{0});
  const Traversal over_emb = open_traversal(parent, std::vector<uint64_t>{0}, 1);
  ASSERT_EQ(over_emb.tuples().size(), 4u);
  EXPECT_EQ(over_emb.activation(0).pull("z").to_string(), "0.7666216");
}

// A str a {name} reads peels into its string comprehension's tokens (runs of
// ',', ';' and whitespace separate them), as polydat's source_values.rs
// peels it; in single quotes it is one element.
TEST(Traversal, AStrSourcePeelsIntoItsTokens) {
  const std::string source =
      "input cycle\nextern names: str = \"users, orders;events  audit\"\n"
      "for t in {names} { a := t }\nfor w in '{names}' { b := w }\n";
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    const Traversal t = open_at_zero(source, engine);
    ASSERT_EQ(t.tuples().size(), 4u);
    EXPECT_EQ(t.activation(2).pull("a").to_string(), "events");
    EXPECT_EQ(t.activation(3).pull("a").to_string(), "audit");
  }
  State parent = compile(source)->new_state();
  parent.set_inputs(std::vector<uint64_t>{0});
  const Traversal whole = open_traversal(parent, std::vector<uint64_t>{0}, 1);
  ASSERT_EQ(whole.tuples().size(), 1u);
  EXPECT_EQ(whole.activation(0).pull("b").to_string(), "users, orders;events  audit");
}

// Node calls as sources: partitions(...) and subdivide(...) peeled into
// partitions (an element of type partition), their arguments literals,
// {name}s of the parent or earlier elements; on every engine alike.
TEST(Traversal, PartitionSourcesPeelIntoPartitions) {
  const std::string source =
      "input cycle\ntotal := 100 + cycle\n"
      "for p in partitions(\"20%,30%,*\", {total}), q in subdivide(p, 2) {\n"
      "  a := start_of(q)\n  n := cardinality(q) + idx_of(p) * 1000\n}\n";
  std::vector<std::string> first;
  EXPECT_EQ(traversal_info(*compile(source), 0).types[0], Type::Partition);
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    const Traversal t = open_at_zero(source, engine);
    std::vector<std::string> got;
    for (size_t a = 0; a < t.tuples().size(); ++a) {
      State body = t.activation(a);
      got.push_back(body.pull("a").to_string() + "/" + body.pull("n").to_string());
    }
    // [0, 20) [20, 50) [50, 100), each cut in two.
    EXPECT_EQ(got, (std::vector<std::string>{"0/10", "10/10", "20/1015", "35/1015", "50/2025",
                                             "75/2025"}));
  }
  const std::string dir = temp_dir();
  const std::string bad = write_program(
      dir, "b.polydat", "input cycle\nfor p in partitions(\"30%,80%\", 100) { n := 1 }\n");
  const auto r = run_polyrt("run " + bad + " --cycles 0..1 --out " + dir + "/o.csv");
  EXPECT_EQ(r.status, 1);
  expect_contains(r.err, {"partitions failed: the list's sizes add up to 110 ordinals"});
  EXPECT_FALSE(exists(dir + "/o.csv"));
  expect_contains(compile_error("input cycle\nfor p in hash(3) { n := 1 }\n"),
                  {"the calls a comprehension takes are polydat's generators, the nodes partitions "
                   "and subdivide, and the nodes that make a vector"});
}

// A body's cursor runs its slice: over four equal partitions of [0, 1000),
// activation 1 runs [250, 500): 250 cycles, ordinal 250 at cycle 0 and 499
// at cycle 249 (polydat's for_runtime oracle); a cursor without `over` runs
// its extent; the same on every engine and through polyrt run.
TEST(Traversal, BodyCursorsRunTheirSlice) {
  const std::string source =
      "input cycle\nfor p in partitions(\"*/4\", 1000) {\n"
      "  cursor rows = range(0, 1000) over p\n  row := rows.ordinal\n"
      "  part := rows.cursor.idx\n  n := rows.cursor.partition_count\n}\n";
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    const Traversal t = open_at_zero(source, engine);
    ASSERT_EQ(t.tuples().size(), 4u);
    EXPECT_EQ(t.cycles(1), 250u);
    State body = t.activation(1);
    EXPECT_EQ(body.pull("row").as_u64(), 250u);
    EXPECT_EQ(body.pull("part").as_u64(), 1u);
    EXPECT_EQ(body.pull("n").as_u64(), 4u);
    body.set_inputs(std::vector<uint64_t>{249});
    EXPECT_EQ(body.pull("row").as_u64(), 499u);
    EXPECT_EQ(t.activation(1, 249).pull("row").as_u64(), 499u);
    EXPECT_THROW(t.activation(1, 250), WriteError);
  }
  const std::string dir = temp_dir();
  const auto all =
      run_polyrt("run " + write_program(dir, "c.polydat", source) + " --cycles 3..4 --outputs row");
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(std::count(all.out.begin(), all.out.end(), '\n'), 1 + 1000);
  const auto whole = run_polyrt(
      "run " +
      write_program(
          dir, "w.polydat",
          "input cycle\nfor k in 0..1 {\n  cursor r = range(5, 15)\n  v := r.ordinal\n}\n") +
      " --cycles 0..1 --outputs v");
  EXPECT_EQ(
      whole.out,
      "cycle,k,v\n0,0,5\n0,0,6\n0,0,7\n0,0,8\n0,0,9\n0,0,10\n0,0,11\n0,0,12\n0,0,13\n0,0,14\n");
  // A partition made over another extent is carried onto the cursor's by
  // its percentages: the halves of 500 are the halves of 1000 (and of 7,
  // rounded once: [0, 4) and [4, 7)), idx and count kept.
  const auto other = run_polyrt(
      "run " +
      write_program(dir, "o.polydat",
                    "input cycle\nfor p in partitions(\"*/2\", 500) {\n  "
                    "cursor rows = range(0, 1000) over p\n  cursor few = range(0, 7) over p\n"
                    "  v := rows.ordinal\n  w := few.ordinal\n  i := rows.cursor.idx\n"
                    "  n := rows.cursor.partition_count\n}\n") +
      " --cycles 0..1 --outputs v,w,i,n");
  ASSERT_EQ(other.status, 0) << other.err;
  EXPECT_EQ(std::count(other.out.begin(), other.out.end(), '\n'), 1 + 7);  // the narrowest slices
  expect_contains(other.out,
                  {"}\",0,0,0,2\n", "}\",3,3,0,2\n", "}\",500,4,1,2\n", "}\",502,6,1,2\n"});
  expect_contains(
      compile_error(
          "input cycle\nfor k in 0..2 {\n  cursor r = range(0, 10) over k\n  v := 1\n}\n"),
      {"t.polydat:3:32", "'over k' names no partition element"});
  expect_contains(
      compile_error("input cycle\nfor k in 0..2 {\n  cursor r = range(0, k)\n  v := 1\n}\n"),
      {"t.polydat:3:23", "argument 2 of range reads 'k', which is no value of the program"});
  // An empty range once compiled and failed every run ("cycle 0 of
  // activation 0 does not exist"); a name declared twice left the second
  // cursor's slice unset.
  expect_contains(
      compile_error("input cycle\nfor k in 0..2 {\n  cursor r = range(3, 3)\n  v := 1\n}\n"),
      {"t.polydat:3:14", "with integers START < END"});
  expect_contains(compile_error("input cycle\nfor k in 0..2 {\n  cursor r = range(0, 4)\n"
                                "  cursor r = range(0, 9)\n  v := r.ordinal\n}\n"),
                  {"t.polydat:4:3", "cursor 'r' is declared twice in this body"});
  // A body const reading the cursor once changed every cycle.
  expect_contains(compile_error("input cycle\nfor p in partitions(\"*/2\", 10) {\n"
                                "  cursor rows = range(0, 10) over p\n  const k := rows.ordinal\n"
                                "  v := k\n}\n"),
                  {"t.polydat:4:3", "const binding 'k' reads a cursor of the body"});
  EXPECT_NO_THROW(
      compile("input cycle\nfor p in partitions(\"*/2\", 10) {\n"
              "  cursor rows = range(0, 10) over p\n  const k := start_of(p) * 2\n"
              "  v := k + rows.ordinal\n}\n"));
  expect_contains(compile_error("input i\ncursor q = range(0, 4)\ncursor q = range(0, 9)\n"
                                "x := q.ordinal\n"),
                  {"t.polydat:3:1", "cursor 'q' is declared twice"});
  // `over "SPEC"`: the one partition a spec resolves to over the extent.
  const Traversal spec = open_at_zero(
      "input cycle\nfor k in 0..2 {\n  cursor r = range(100, 200) over \"25%..50%\"\n"
      "  v := r.ordinal\n}\n",
      Engine::Native);
  EXPECT_EQ(spec.cycles(1), 25u);
  EXPECT_EQ(spec.activation(1, 0).pull("v").as_u64(), 125u);
  EXPECT_EQ(spec.activation(1, 24).pull("v").as_u64(), 149u);
  expect_contains(
      compile_error(
          "input cycle\nfor k in 0..2 {\n  cursor r = range(0, 1000) over \"*/4\"\n  v := 1\n}\n"),
      {"t.polydat:3:34", "resolves to 4 partitions of the cursor's 1000 ordinals",
       "enclosing for p in partitions(\"*/4\", 1000)"});
}

// An activation of many cycles (a cursor over a large slice) runs as one
// batch with the tuple's values as scalars: the per-state bytes.
TEST(Traversal, LongActivationsRunInTheBatchTierWithTheSameBytes) {
  const std::string dir = temp_dir();
  const std::string file = write_program(
      dir, "long.polydat",
      "input cycle\nbase := cycle * 3\nfor p in partitions(\"*/3\", 15000), t in x, y {\n"
      "  cursor rows = range(0, 15000) over p\n  row := rows.ordinal + base\n"
      "  h := hash(row)\n  i := rows.cursor.idx\n  s := t + \"-\" + format_u64(row)\n}\n");
  for (const char* format : {"csv", "jsonl"}) {
    const std::string run = "run " + file + " --cycles 4..6 --format " + std::string(format);
    const auto batch = run_polyrt(run);
    ASSERT_EQ(batch.status, 0) << batch.err;
    EXPECT_EQ(std::count(batch.out.begin(), batch.out.end(), '\n'),
              (std::string(format) == "csv" ? 1 : 0) + 2 * 2 * 15000);
    EXPECT_EQ(batch.out, run_polyrt(run + " --engine interpreter").out);
    // The long activations on the GPU (the driver's test double).
    const auto gpu = run_polyrt(run + " --device gpu");
    ASSERT_EQ(gpu.status, 0) << gpu.err;
    EXPECT_EQ(gpu.out, batch.out);
  }
}

TEST(Traversal, UnboundNamesReadNoneWithAWarningAndAreRefusedWhenStrict) {
  const std::string source = "input cycle\nfor r in us-east, eu where {r} == us { v := r }\n";
  const auto program = compile(source);
  ASSERT_EQ(program->warnings().size(), 1u);
  expect_contains(program->warnings()[0], {"'us' in 'for r in us-east, eu where {r} == us'",
                                           "names no element, output or input: it reads None"});
  State parent = program->new_state();
  EXPECT_TRUE(open_traversal(parent, std::vector<uint64_t>{0}, 0).tuples().empty());
  expect_contains(compile_error("pragma strict\n" + source),
                  {"t.polydat:3:5", "refused under pragma strict", "quote a string"});
  EXPECT_TRUE(
      compile("input cycle\nn := 3\nfor a in 0..5 where {a} < n { v := a }\n")->warnings().empty());
}

// polydat's traversal cascade passes a body values, not shared cells: a
// body binding named like the program's `shared` one is the body's own.
TEST(Traversal, ABodyRebindingASharedCellIsItsOwnAndSaysSo) {
  const auto program = compile(
      "input cycle\nshared total := 5\nfor a in 0..3 {\n  seen := total\n  total := a * 10\n"
      "  v := total + 1\n}\n");
  ASSERT_EQ(program->warnings().size(), 1u);
  expect_contains(program->warnings()[0],
                  {":5:3",
                   "'total' in the body of 'for a in 0..3' is a binding of the "
                   "body's own",
                   "writes nothing back"});
  State parent = program->new_state();
  const Traversal t = open_traversal(parent, std::vector<uint64_t>{0}, 0);
  for (uint64_t a = 0; a < 3; ++a) {
    State body = t.activation(a);
    EXPECT_EQ(body.pull("v").as_u64(), a * 10 + 1);
    EXPECT_EQ(body.pull("seen").as_u64(), a * 10);  // the body's own, not the cell's 5
  }
  EXPECT_EQ(parent.pull("total").as_u64(), 5u);
  EXPECT_TRUE(compile("input cycle\nshared total := 5\nfor a in 0..3 { v := total + a }\n")
                  ->warnings()
                  .empty());
}

TEST(Traversal, BadTraversalsAreCompileErrorsThatNameTheRule) {
  expect_contains(compile_error("input cycle\nfor a in 0..3 { v := a + missing_name }\n"),
                  {"reads 'missing_name'", "a body's only input is its own cycle"});
  expect_contains(compile_error("input cycle\nfor a in 0..3\n{ v := a }\n"),
                  {"t.polydat:3:1", "opens with '{' on the line of its comprehension"});
  expect_contains(compile_error("input cycle\nfor a in 0..3 order sobol(seed=2) { v := a }\n"),
                  {"t.polydat:2:21", "order 'sobol' takes no seed"});
  expect_contains(compile_error("m(x: u64) -> (y: u64) := {\n for a in 0..2 { y := a }\n}\n"
                                "input cycle\nz := m(cycle)\n"),
                  {"not in a module's body"});
  expect_contains(compile_error("input cycle\nfor a in {nothing} { v := a }\n"),
                  {"'{nothing}' names no output or input"});
  // A {name} inside one quoted text is the name's value when the traversal
  // opens (polydat's substitution); in a string comprehension it is
  // refused, never taken literally; other braces are text.
  State parent = compile(
                     "input cycle\nextern region: str = \"eu\"\n"
                     "for t in 'table_{region}_{cycle}' { v := t }\n")
                     ->new_state();
  parent.set_inputs(std::vector<uint64_t>{7});
  const Traversal t = open_traversal(parent, std::vector<uint64_t>{7}, 0);
  ASSERT_EQ(t.tuples().size(), 1u);
  EXPECT_EQ(t.tuples()[0][0].text(), "table_eu_7");
  expect_contains(compile_error("input cycle\nextern region: str = \"eu\"\nfor t in "
                                "\"a_{region}, b\" { v := t }\n"),
                  {"t.polydat:3:10", "'{region}' inside this source's text is not substituted"});
  EXPECT_NO_THROW(compile("input cycle\nfor t in '{\"k\": 1}' { v := t }\n"));
}

}  // namespace
}  // namespace polyrt::test

namespace polyrt::test {
namespace {

// polydat's spread in a list source, `[0.5, xs..., 2.5]` (or `xs…`): the
// vector's elements in its place when the traversal opens, numeric
// literals read as its element type, on every engine; a spread of a
// scalar, of nothing, or items of two types are refused by name.
TEST(Comprehension, ASpreadTakesAVectorsElements) {
  const std::string source =
      "input cycle\nxs := str_to_vec_f32(\"[0.25, 0.75]\")\nys := hash_vec(cycle, 2)\n"
      "for v in [0.5, xs..., ys\u2026, 2] {\n  w := v\n}\n";
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    State at = compile(source, CompileOptions{.engine = engine})->new_state();
    at.set_inputs(std::vector<uint64_t>{0});
    const Traversal t = open_traversal(at, std::vector<uint64_t>{0}, 0);
    ASSERT_EQ(t.tuples().size(), 6u);
    EXPECT_EQ(t.tuples()[0][0].to_string(), "0.5");
    EXPECT_EQ(t.tuples()[2][0].to_string(), "0.75");
    EXPECT_EQ(t.tuples()[5][0].type(), Type::F32);
    EXPECT_EQ(t.tuples()[5][0].to_string(), "2");
  }
  expect_contains(compile_error("input cycle\nn := 5\nfor v in [0, n...] {\n  w := v\n}\n"),
                  {"t.polydat:3:5", "'n...' spreads a u64: a spread takes a vector's elements"});
  expect_contains(compile_error("input cycle\nfor v in [0, xs...] {\n  w := v\n}\n"),
                  {"'xs...' spreads no output or input of the program"});
  expect_contains(
      compile_error("input cycle\nxs := hash_vec(cycle, 2)\nfor v in [\"a\", xs...] { w := v }\n"),
      {"the list's items have two types"});
}

}  // namespace
}  // namespace polyrt::test
