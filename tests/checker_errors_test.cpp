// Every checker error names file:line:col, quotes the line with a caret and
// says what was expected.
#include <gtest/gtest.h>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// A broken invariant is an InternalError naming the check's condition and
// where it was detected (the path from the source tree's top folder),
// distinct from user errors.
TEST(InternalErrors, NameTheSourceFileAndLine) {
  const unsigned line = __LINE__ + 2;
  try {
    POLYRT_CHECK(1 + 1 == 3, "arithmetic broke");
    FAIL() << "nothing thrown";
  } catch (const InternalError& e) {
    EXPECT_EQ(e.file(), "tests/checker_errors_test.cpp");
    EXPECT_EQ(e.line(), line);
    EXPECT_EQ(std::string(e.what()),
              "internal error: arithmetic broke (check failed: 1 + 1 == 3) "
              "(tests/checker_errors_test.cpp:" +
                  std::to_string(line) + "; a polyrt bug, please report it)");
  }
  EXPECT_NO_THROW(POLYRT_CHECK(1 + 1 == 2, "never"));
  EXPECT_THROW(internal_error("x"), Error);
}

void expect_error(const std::string& source, const std::string& position,
                  const std::vector<std::string>& fragments) {
  const std::string msg = compile_error(source);
  EXPECT_NE(msg.find("t.polydat:" + position + ": error:"), std::string::npos) << msg;
  EXPECT_NE(msg.find('^'), std::string::npos) << msg;
  for (const auto& f : fragments)
    EXPECT_NE(msg.find(f), std::string::npos) << "missing '" << f << "' in\n" << msg;
}

TEST(CheckerErrors, UnknownNamesSuggestTheClosest) {
  expect_error("input cycle\nv := hsh(cycle)", "2:6",
               {"unknown function 'hsh'", "did you mean 'hash'?"});
  expect_error("input cycle\nv := hash(cycel)", "2:11",
               {"unknown name 'cycel'", "did you mean 'cycle'?"});
  expect_error("input x\nv := mod(x, modulu: 3)", "2:21",
               {"no argument named 'modulu'", "'modulus'"});
  expect_error("input x\nv := hash", "2:6", {"'hash' is a function"});
}

// A node that picks by its input's value (weighted_strings, first_names,
// alias_sample, ...) fed a coordinate no hash mixed is warned of, naming
// both and the fix; a hashed input, however combined, is not.
TEST(CheckerErrors, UnhashedCoordinatesIntoPickersAreWarnedOf) {
  const auto warnings_of = [](const std::string& source) {
    const auto program = polyrt::compile(source);
    std::string all;
    for (const std::string& w : program->warnings()) all += w + "\n";
    return all;
  };
  const std::string warned = warnings_of(
      "input cycle\ns := weighted_strings(cycle, \"a:70;b:30\")\nn := first_names(cycle + 3)\n"
      "k := alias_sample(cycle * 7, 0.5, 0.5)\n");
  for (const char* node : {"'weighted_strings'", "'first_names'", "'alias_sample'"}) {
    EXPECT_NE(warned.find(std::string(node) + " picks by its input's value and does not hash it, "
                                              "but it reads the coordinate 'cycle' unhashed"),
              std::string::npos)
        << warned;
  }
  EXPECT_NE(warned.find("pass hash(cycle)"), std::string::npos) << warned;
  EXPECT_EQ(
      warnings_of("input cycle\ns := weighted_strings(hash(cycle) % 100, \"a:70;b:30\")\n"
                  "n := first_names(hash_range(cycle, 1000) + 1)\nc := country_names(cycle)\n"),
      "");
}

// --strict (CompileOptions::strict_inputs) refuses inferred inputs.
TEST(CheckerErrors, StrictRefusesInferredInputs) {
  CompileOptions strict;
  strict.strict_inputs = true;
  strict.file_name = "t.polydat";
  try {
    polyrt::compile("input cycle\nv := hash(cycle) + tenant\n", strict);
    ADD_FAILURE() << "an inferred input compiled under --strict";
  } catch (const CompileError& e) {
    const std::string msg = e.what();
    EXPECT_NE(
        msg.find("t.polydat:2:20: error: 'tenant' is neither declared nor bound, and "
                 "strict inputs (--strict, CompileOptions::strict_inputs) refuse inferred inputs"),
        std::string::npos)
        << msg;
    EXPECT_NE(msg.find("input tenant: u64"), std::string::npos) << msg;
  }
  EXPECT_NO_THROW(polyrt::compile("input cycle\nv := hash(cycle)\n", strict));
  EXPECT_NO_THROW(polyrt::compile("v := hash(cycle) + tenant\n"));
}

// Each binding's own error is reported, in source order, not only the
// first; a binding that reads a failed one is skipped (its error would
// repeat the first), and the count ends the message.
TEST(CheckerErrors, EveryBindingsErrorIsReported) {
  const std::string msg = compile_error(
      "input cycle\nd := mod(cycle, 0)\nb := c * 2\nc := 3.5 * cycl\ne := cycle + 1\n"
      "f := sqrt(\"text\")\n");
  const size_t modulus = msg.find("t.polydat:2:17: error: bad argument of 'mod'");
  const size_t unknown = msg.find("t.polydat:4:12: error: unknown name 'cycl'");
  const size_t branches = msg.find("t.polydat:6:");
  EXPECT_NE(modulus, std::string::npos) << msg;
  EXPECT_NE(unknown, std::string::npos) << msg;
  EXPECT_NE(branches, std::string::npos) << msg;
  EXPECT_LT(modulus, unknown);
  EXPECT_LT(unknown, branches);
  EXPECT_EQ(msg.find("t.polydat:3:"), std::string::npos) << "b only reads the failed c:\n" << msg;
  EXPECT_NE(msg.find("3 errors"), std::string::npos) << msg;
}

// An unknown function joins the report (its binding stands in with the
// error), and what reads it is skipped.
TEST(CheckerErrors, UnknownFunctionsJoinTheReport) {
  const std::string msg = compile_error(
      "input cycle\nc := unknown_node(cycle)\nd := c + 1\n(a, b) := nomod(cycle)\n"
      "e := mod(cycle, 0)\nf := hash(cycle)\n");
  const size_t first = msg.find("t.polydat:2:6: error: unknown function 'unknown_node'");
  const size_t second = msg.find("t.polydat:4:11: error: unknown function 'nomod'");
  const size_t third = msg.find("t.polydat:5:17: error: bad argument of 'mod'");
  EXPECT_NE(first, std::string::npos) << msg;
  EXPECT_NE(second, std::string::npos) << msg;
  EXPECT_NE(third, std::string::npos) << msg;
  EXPECT_TRUE(first < second && second < third) << msg;
  EXPECT_EQ(msg.find("t.polydat:3:"), std::string::npos) << "d only reads the failed c:\n" << msg;
  EXPECT_NE(msg.find("3 errors"), std::string::npos) << msg;
}

// Syntax errors too: parsing resumes at the next line that starts a
// statement (a module's body is skipped whole), and a line that the line
// before carried on says so.
TEST(CheckerErrors, EverySyntaxErrorIsReported) {
  const std::string msg = compile_error(
      "input cycle\nm(x: u64) -> (y: u64) := {\n  y := x +\n}\na := hash(cycle\nb := 3 +\n"
      "d := mod(cycle, 2)\ne := ) 4\nf := hash(cycle)\n");
  for (const char* at : {"t.polydat:4:1: error: expected an expression, found '}'",
                         "t.polydat:6:1: error: expected ')' to close the arguments of 'hash'",
                         "t.polydat:7:3: error: expected a statement, found ':='",
                         "the line before ends with '+', which carries its expression on to 'd'",
                         "t.polydat:8:6: error: expected an expression, found ')'", "4 errors"}) {
    EXPECT_NE(msg.find(at), std::string::npos) << at << " in\n" << msg;
  }
  // One error is reported as it is, with no count.
  const std::string one = compile_error("input cycle\na := hash(cycle\n");
  EXPECT_EQ(one.find("errors"), std::string::npos) << one;
}

// Two letters swapped are one edit (docs/language.md, inferred inputs): a
// swapped name is a typo, never a second inferred input.
TEST(CheckerErrors, SwappedLettersAreATypoNotANewInput) {
  expect_error("input seed: u64\nx := sede + 1", "2:6",
               {"unknown name 'sede'", "did you mean 'seed'?"});
  expect_error("input seed: u64\nx := esed + 1", "2:6",
               {"unknown name 'esed'", "did you mean 'seed'?"});
  expect_error("input cycle\nv := hash(cyclr)", "2:11", {"did you mean 'cycle'?"});
  EXPECT_NO_THROW(polyrt::compile("x := seed + abcd"));
}

// `None` is never taken for an inferred input: it is a branch of an if (a
// null, tests/nulls_test.cpp), and refused anywhere else, saying what makes
// a null.
TEST(CheckerErrors, NoneIsNotAnInput) {
  const auto p = compile("input x\nv := if x % 2 == 0 { None } else { x }\n");
  EXPECT_EQ(p->input_names(), (std::vector<std::string>{"x"}));
  EXPECT_TRUE(p->output_nullable(0));
  expect_error("v := hash(None)\n", "1:11",
               {"'None' (null) is a branch of an if", "null_if(c, value)"});
  // A program may still declare or bind the name, which is then no null.
  EXPECT_EQ(compile("input None\nv := None + 1\n")->input_names(),
            (std::vector<std::string>{"None"}));
  EXPECT_FALSE(compile("input None\nv := if None { None } else { 1 }\n")->output_nullable(0));
}

TEST(CheckerErrors, CyclesAndDuplicates) {
  expect_error("input x\na := b + 1\nb := a + x", "2:1", {"dependency cycle: a -> b -> a"});
  expect_error("input x\nx := 1", "2:1",
               {"'x' is already defined", "first defined at t.polydat:1:7"});
  expect_error("a := a", "1:1", {"dependency cycle"});
  expect_error("__x := 1", "1:1", {"reserved"});
}

TEST(CheckerErrors, Types) {
  expect_error("input x\nv := sqrt(\"a\")", "2:11", {"expects f64, got str"});
  expect_error("input x\nv := hash(to_f64(x))", "2:11", {"expects u64, got f64", "round_to_u64"});
  expect_error("input x\nv := unit_interval(x) & 1", "2:6",
               {"needs unsigned integer operands, got f64"});
  expect_error("input x\nv := \"a\" < \"b\"", "2:10", {"not defined on str", "== and !="});
  expect_error("input x\nv := unit_interval(x) as u64", "2:23", {"f64 as u64", "round_to_u64"});
  expect_error("input x\nv := if(unit_interval(x), 1, 2)", "2:9",
               {"condition of 'if' must be an integer"});
  expect_error("input x\nv := default_or(x, \"s\")", "2:6",
               {"fallback must have the type of the value"});
}

TEST(CheckerErrors, ArityAndLiterals) {
  expect_error("input x\nv := hash(x, 1)", "2:14", {"too many arguments to 'hash'"});
  expect_error("input x\nv := mod(x)", "2:6",
               {"missing argument 'modulus'", "mod(input: u64, modulus: const u64)"});
  expect_error("input x\nv := mod(x, x)", "2:13", {"must be a literal constant", "% or /"});
  expect_error("input x\nv := mod(x, 2.5)", "2:13", {"non-negative integer literal"});
  expect_error("input x\nv := mod(x, -2)", "2:13", {"non-negative integer literal"});
  expect_error("input x\nv := clamp(x, 9, 3)", "2:18", {"max 3 is below min 9"});
  expect_error("input x\nv := in_range(x, 9, 3)", "2:21", {"hi 3 is below lo 9"});
  expect_error("input x\nv := mixed_radix(x, 0, 5)", "2:21", {"only the last radix may be 0"});
  expect_error("input x\n(a, b) := mixed_radix(input: x, radixes: 10, 0)", "2:42",
               {"'radixes' collects the remaining arguments", "pass them by position"});
  expect_error("input x\nv := format_u64(x, 3)", "2:20", {"radix must be 2, 8, 10 or 16"});
  expect_error("input x\nv := unfair_coin(x, 1.5)", "2:21", {"probability must be in [0, 1]"});
  expect_error("input x\nv := one_of(x)", "2:6", {"at least one value"});
  expect_error("input x\nv := is_one_of(x)", "2:6", {"at least one allowed value"});
  expect_error("input x\nv := printf(\"{} {}\", x)", "2:13",
               {"2 placeholder(s) but 1 argument(s)"});
  expect_error("input x\nv := one_of_weighted(x, \"a:1,b\")", "2:25", {"not value:weight"});
  expect_error("input x\nv := clamp_f64(unit_interval(x), 1.0, 0.5)", "2:39", {"below min"});
  expect_error("input x\n(a, b, c) := mixed_radix(x, 10, 0)", "2:8",
               {"has 2 output(s) but 3 names"});
  expect_error("input x\nv := mixed_radix(x, 10, 0)", "2:6", {"has 2 outputs"});
  expect_error("input x\nv := sqrt(18446744073709551615)", "2:11", {"has no exact f64 value"});
}

TEST(CheckerErrors, ConstAndExterns) {
  expect_error("input cycle\nconst k := hash(cycle)", "2:12",
               {"const binding 'k' reads the coordinate 'cycle'"});
  expect_error("extern e: u64 = 1.5", "1:17", {"must be a u64 literal"});
  expect_error("extern e: bool = 1", "1:18", {"true or false"});
  expect_error("v := [1, hash(2)]", "1:10", {"array elements must be literals"});
  expect_error("input x\nv := hash([1])", "2:11", {"only allowed as the whole value"});
}

TEST(CheckerErrors, ConstantFoldFailureIsABuildError) {
  try {
    compile("workers := in_range(is_positive(80), 1, 64)\n",
            CompileOptions{.file_name = "t.polydat"});
    FAIL();
  } catch (const ConstantFoldError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("node 'in_range' in binding 'workers' at t.polydat:1:12 failed"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("value 80 is not in range [1, 64]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("inputs: 80"), std::string::npos) << msg;
  }
  EXPECT_THROW(compile("k := mod(7, 0)\n"), CompileError);
}

TEST(CheckerErrors, RequiredOutputsMustExist) {
  CompileOptions options;
  options.file_name = "t.polydat";
  options.required_outputs = {"vv"};
  try {
    compile("input x\nv := hash(x)\n", options);
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'v'"), std::string::npos);
  }
}

}  // namespace
}  // namespace polyrt::test
