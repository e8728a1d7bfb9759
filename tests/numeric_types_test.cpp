// The numeric types beside u64 and f64 (i8..i64, u8..u32, f32): values and
// host text, the checker's implicit widenings and refusals, the arithmetic
// and checked conversions on every engine and the batch tier, and columns of
// the native width.
#include "polyrt/numeric_types.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <tuple>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "tests/test_support.hpp"

namespace polyrt {
namespace {

using test::compile_error;
using test::expect_contains;
using test::values_everywhere;

TEST(NumericTypes, TheWideningRulesArePolydats) {
  EXPECT_TRUE(widens_implicitly(Type::U8, Type::I16));
  EXPECT_TRUE(widens_implicitly(Type::U32, Type::I64));
  EXPECT_FALSE(widens_implicitly(Type::U64, Type::I64));
  EXPECT_FALSE(widens_implicitly(Type::I8, Type::U64));
  EXPECT_TRUE(widens_implicitly(Type::I8, Type::I64));
  EXPECT_TRUE(widens_implicitly(Type::I64, Type::F64));
  EXPECT_TRUE(widens_implicitly(Type::U16, Type::F32));
  EXPECT_FALSE(widens_implicitly(Type::U32, Type::F32));
  EXPECT_TRUE(widens_implicitly(Type::F32, Type::F64));
  EXPECT_FALSE(widens_implicitly(Type::F64, Type::F32));
  EXPECT_TRUE(widens_implicitly(Type::Bool, Type::I8));
  EXPECT_TRUE(integer_fits((uint64_t)-128, Type::I64, Type::I8));
  EXPECT_FALSE(integer_fits((uint64_t)-129, Type::I64, Type::I8));
  EXPECT_FALSE(integer_fits((uint64_t)-1, Type::I64, Type::U64));
  EXPECT_TRUE(integer_fits(~0ULL, Type::U64, Type::U64));
  EXPECT_FALSE(integer_fits(1ULL << 63, Type::U64, Type::I64));
}

TEST(NumericTypes, HostTextIsRangeChecked) {
  EXPECT_EQ(parse_value("-128", Type::I8).as_i64(), -128);
  EXPECT_EQ(parse_value("0xff", Type::U8).as_u64(), 255u);
  EXPECT_EQ(parse_value("-9223372036854775808", Type::I64).as_i64(), INT64_MIN);
  EXPECT_EQ(parse_value("4294967295", Type::U32).to_string(), "4294967295");
  EXPECT_EQ(parse_value("0.1", Type::F32).to_string(), "0.1");
  EXPECT_EQ(parse_value("0.1", Type::F32).as_f64(), (double)0.1f);
  expect_contains(
      test::thrown_message<WriteError>([] { parse_value("128", Type::I8, "extern x"); }),
      {"cannot read \"128\" as i8 for extern x (expected an integer in -128..127"});
  expect_contains(test::thrown_message<WriteError>([] { parse_value("-1", Type::U16); }),
                  {"expected an integer in 0..65535"});
  EXPECT_EQ(Value::i64(-5).type(), Type::I64);
  EXPECT_TRUE(Value::of_word(Type::I32, (uint64_t)-5).same_as(parse_value("-5", Type::I32)));
  EXPECT_FALSE(Value::of_word(Type::I32, 5).same_as(Value::of_word(Type::I64, 5)));
}

TEST(NumericTypes, SignedArithmeticOnEveryEngine) {
  const std::string source =
      "input x\n"
      "a := (x % 100) as i32 - 57\n"  // -50 at x = 7
      "q := a / 7\nr := a % 7\nn := -a\nm := a * 3 + 1\n"
      "lt := a < -49\nge := a >= 0\neq := a == -50\n"
      "w := if a < 0 { a } else { 0 }\n"
      "f := a as f64 / 4.0\n"
      "min := -9223372036854775807 as i64 - 1\nwrap := min / -1\nneg := -min\nrem := min % -1\n"
      "s := \"{a}|{a:x}\" + printf(\"|{:06}\", a)\n";
  const auto got = values_everywhere(
      source, 7, {"a", "q", "r", "n", "m", "lt", "ge", "eq", "w", "f", "wrap", "neg", "rem", "s"});
  const std::vector<std::string> want = {"i64 -50",
                                         "i64 -7",
                                         "i64 -1",
                                         "i64 50",
                                         "i64 -149",
                                         "u64 1",
                                         "u64 0",
                                         "u64 1",
                                         "i64 -50",
                                         "f64 -12.5",
                                         "i64 -9223372036854775808",
                                         "i64 -9223372036854775808",
                                         "i64 0",
                                         "str -50|ffffffffffffffce|-00050"};
  EXPECT_EQ(got, want);
}

TEST(NumericTypes, ConversionsAndTheirFailures) {
  const std::string source =
      "input x\n"
      "b := (x % 300) as u8\n"
      "s := (x as i64 - 200) as i8\n"
      "w := b as u32 + 1\n"
      "keep := (x % 200) as u8 as i16 as i64\n"
      "big := x as f32\n"
      "third := (x as f64 / 3.0) as f32\n"
      "wide := third * 1.0\n"
      "t := third as str\n";
  const auto got =
      values_everywhere(source, 100, {"b", "s", "w", "keep", "big", "third", "wide", "t"});
  const std::vector<std::string> want = {"u8 100",
                                         "i8 -100",
                                         "u64 101",
                                         "i64 100",
                                         "f32 100",
                                         "f32 33.333332",
                                         "f64 33.33333206176758",
                                         "str 33.333332"};
  EXPECT_EQ(got, want);
  EXPECT_EQ(values_everywhere("input x\nf := x as f32\n", 16777217, {"f"})[0], "f32 16777216");
  EXPECT_EQ(values_everywhere("input x\nf := x as f32\n", ~0ULL, {"f"})[0], "f32 1.8446744e+19");
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    State state = compile(source, CompileOptions{.engine = engine})->new_state();
    state.set_inputs({255});  // the largest u8
    EXPECT_EQ(state.pull("b").as_u64(), 255u);
    state.set_inputs({700});  // 700 % 300 = 100 fits u8; 500 does not fit i8
    expect_contains(test::thrown_message<EvalError>([&] { state.pull("s"); }),
                    {"node 'as i8' in binding 's'", "value 500 does not fit i8 (-128..127)"});
  }
}

TEST(NumericTypes, ExternsAndModulesHoldTheirTypes) {
  const std::string source =
      "input x\nextern lo: i16 = -300\nextern gain: f32 = 0.1\nextern tag: u8\n"
      "shift(v: i64, by: i32) -> (o: i64) := { o := v + by }\n"
      "y := shift((x % 10) as i64, lo)\nz := gain * 2.0\nl := lo\ng := gain\n";
  const auto got = values_everywhere(source, 5, {"l", "y", "g", "z"});
  EXPECT_EQ(got, (std::vector<std::string>{"i16 -300", "i64 -295", "f32 0.1",
                                           "f64 0.20000000298023224"}));
  State state = compile(source + "t := tag + 1\n")->new_state();
  state.set_input("tag", parse_value("255", Type::U8));
  state.set_inputs({0});
  EXPECT_EQ(state.pull("t").as_u64(), 256u);
}

TEST(NumericTypes, CheckerRefusalsNameTheFix) {
  expect_contains(compile_error("input x\ny := (x as i32) + x\n"),
                  {"operator '+' mixes i32 and u64: no type holds every value of both",
                   "convert one side with 'as'"});
  expect_contains(compile_error("input x\ny := hash(x as i8)\n"),
                  {"argument 'input' of 'hash' expects u64, got i8", "as u64' (checked"});
  expect_contains(compile_error("input x\ny := unit_interval(hash(x)) as i32\n"),
                  {"no conversion from f64 to i32", "f64_to_i64"});
  expect_contains(compile_error("input x\ny := 300 as u8\n"),
                  {"literal 300 does not fit u8 (0..255)"});
  expect_contains(compile_error("extern e: i8 = 200\ny := e\n"),
                  {"literal 200 does not fit i8 (-128..127)"});
  expect_contains(compile_error("input x\ny := (x as i64) & 3\n"),
                  {"needs unsigned integer operands, got i64", "as u64"});
  expect_contains(compile_error("input x\ny := 1.5 as i16\n"), {"a float literal is not a i16"});
}

TEST(NumericTypes, ColumnsOfTheNativeWidth) {
  const std::string dir = test::temp_dir();
  const std::string program =
      test::write_program(dir, "narrow.polydat",
                          "input x\nsmall := (x % 200) as u8\nsigned := (x as i64 - 3) as i32\n"
                          "single := (x as f64 / 4.0) as f32\nshort := (x % 60000) as u16\n");
  auto r = test::run_polyrt("run " + program + " --cycles 0..6 --format npy --out " + dir + "/o");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string dict;
  const auto small = test::read_npy(dir + "/o/small.npy", dict);
  EXPECT_NE(dict.find("'descr': '|u1'"), std::string::npos) << dict;
  EXPECT_EQ(small, (std::vector<uint8_t>{0, 1, 2, 3, 4, 5}));
  const auto s32 = test::read_npy(dir + "/o/signed.npy", dict);
  EXPECT_NE(dict.find("'descr': '<i4'"), std::string::npos) << dict;
  ASSERT_EQ(s32.size(), 24u);
  int32_t first;
  std::memcpy(&first, s32.data(), 4);
  EXPECT_EQ(first, -3);
  const auto f32 = test::read_npy(dir + "/o/single.npy", dict);
  EXPECT_NE(dict.find("'descr': '<f4'"), std::string::npos) << dict;
  float third;
  std::memcpy(&third, f32.data() + 12, 4);
  EXPECT_EQ(third, 0.75f);
  test::read_npy(dir + "/o/short.npy", dict);
  EXPECT_NE(dict.find("'descr': '<u2'"), std::string::npos) << dict;
  auto csv = test::run_polyrt("run " + program + " --cycles 0..2 --format csv");
  EXPECT_EQ(csv.out, "small,signed,single,short\n0,-3,0,0\n1,-2,0.25,1\n");
}

// The example of narrow columns, json and bytes gives the same rows on every
// per-state engine and the batch tier, and its npy files have each type's width.
TEST(NumericTypes, TheTelemetryExampleRunsAlikeOnEveryTier) {
  const std::string file = std::string(POLYRT_SOURCE_DIR) + "/examples/telemetry.polydat";
  const auto batch = test::run_polyrt("run " + file + " --cycles 0..3000 --format jsonl");
  ASSERT_EQ(batch.status, 0) << batch.err;
  for (const char* engine : {"interpreter", "closures", "native"}) {
    const auto one =
        test::run_polyrt("run " + file + " --cycles 0..3000 --format jsonl --engine " + engine);
    EXPECT_EQ(one.out, batch.out) << engine;
  }
  const std::string dir = test::temp_dir();
  const auto npy = test::run_polyrt("run " + file +
                                    " --cycles 0..100 --format npy --outputs "
                                    "device,temp_tenths,voltage,battery --out " +
                                    dir + "/t");
  ASSERT_EQ(npy.status, 0) << npy.err;
  std::string dict;
  for (auto [name, descr, bytes] : {std::tuple{"device", "'<u2'", 200},
                                    {"temp_tenths", "'<i8'", 800},
                                    {"voltage", "'<f4'", 400},
                                    {"battery", "'|u1'", 100}}) {
    EXPECT_EQ(test::read_npy(dir + "/t/" + name + ".npy", dict).size(), (size_t)bytes) << name;
    EXPECT_NE(dict.find(descr), std::string::npos) << name << ": " << dict;
  }
}

TEST(NumericTypes, BatchDestinationsOfTheNativeWidth) {
  auto program = compile(
      "input x\nsmall := (x % 200) as u8\nsigned := (x as i64 - 3) as i32\n"
      "single := (x as f64 / 4.0) as f32\nwide := x as i64 - 3\n");
  BatchEvaluator batch(program, BatchOptions{.chunk_rows = 1000});
  constexpr uint64_t kRows = 10000, kFirst = 5;
  std::vector<uint8_t> small(kRows);
  std::vector<int32_t> narrow(kRows);
  std::vector<float> single(kRows);
  std::vector<int64_t> wide(kRows);
  uint64_t* destinations[] = {
      reinterpret_cast<uint64_t*>(small.data()), reinterpret_cast<uint64_t*>(narrow.data()),
      reinterpret_cast<uint64_t*>(single.data()), reinterpret_cast<uint64_t*>(wide.data())};
  batch.evaluate_into(kFirst, kRows, destinations);
  for (uint64_t r = 0; r < kRows; ++r) {
    const uint64_t x = kFirst + r;
    ASSERT_EQ(small[r], x % 200) << r;
    ASSERT_EQ(narrow[r], (int32_t)x - 3) << r;
    ASSERT_EQ(single[r], (float)((double)x / 4.0)) << r;
    ASSERT_EQ(wide[r], (int64_t)x - 3) << r;
  }
  std::vector<uint64_t> addresses(4, 0);
  expect_contains(
      test::thrown_message<WriteError>([&] { batch.evaluate_on_device(0, 1, addresses); }),
      {"output 'small' is a u8; evaluate_on_device writes 8-byte word columns"});
}

}  // namespace
}  // namespace polyrt
