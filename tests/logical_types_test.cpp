// The logical types (polyrt/logical_type.hpp): `as timestamp`, `as
// timestamp_us`, `as date` and `as decimal(p, s)` convert exactly and the
// same on every engine and tier, keep a word of i64 (i32 for a date), and
// reach the writers, which show ISO 8601 and plain decimals.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "polyrt/batch.hpp"
#include "polyrt/logical_type.hpp"
#include "polyrt/polyrt.hpp"
#include "rtlib/rtlib.h"
#include "tests/test_support.hpp"
#include "value/time_text.hpp"

namespace polyrt::test {
namespace {

// The unscaled decimal of x at `scale`, from glibc's exact %.*f (round half
// to even on x's binary value): an oracle independent of the rtlib's.
int64_t printf_decimal(double x, int scale) {
  char text[512];
  std::snprintf(text, sizeof text, "%.*f", scale, x);
  std::string digits;
  for (const char* p = text; *p; ++p) {
    if (*p != '.') digits.push_back(*p);
  }
  return std::stoll(digits);
}

TEST(LogicalTypes, DecimalsFromFloatsAreExactRoundedHalfToEven) {
  const auto decimal = [](double x, int scale, int precision = 18) -> std::optional<int64_t> {
    uint64_t out;
    if (pd_decimal_from_f64(x, (uint64_t)scale, (uint64_t)precision, &out) != PD_OK) {
      return std::nullopt;
    }
    return (int64_t)out;
  };
  // Python: Decimal(x).quantize(Decimal('0.01'), ROUND_HALF_EVEN).
  EXPECT_EQ(decimal(2.675, 2), 267);  // the double is below 2.675
  EXPECT_EQ(decimal(1.005, 2), 100);
  EXPECT_EQ(decimal(0.125, 2), 12);  // a true tie: to even
  EXPECT_EQ(decimal(0.375, 2), 38);
  EXPECT_EQ(decimal(-0.125, 2), -12);
  EXPECT_EQ(decimal(123456789.125, 2), 12345678912);
  EXPECT_EQ(decimal(-0.001, 2), 0);  // no negative zero
  EXPECT_EQ(decimal(5e-324, 18), 0);
  EXPECT_EQ(decimal(99999.994, 2, 7), 9999999);
  EXPECT_EQ(decimal(99999.996, 2, 7), std::nullopt);  // rounds to 100000.00: 8 digits
  EXPECT_EQ(decimal(1e300, 0), std::nullopt);
  EXPECT_EQ(decimal(std::numeric_limits<double>::quiet_NaN(), 2), std::nullopt);
  EXPECT_EQ(decimal(-std::numeric_limits<double>::infinity(), 2), std::nullopt);
  std::mt19937_64 random(7);
  for (int k = 0; k < 200000; ++k) {
    const int scale = (int)(random() % 7);
    // Magnitudes from 1e-9 to 1e9, and exact ties (multiples of 2^-10).
    const double x = k % 3 == 0 ? (double)(int64_t)(random() % 2000001 - 1000000) / 1024.0
                                : std::ldexp((double)(random() >> 11), (int)(random() % 60) - 83);
    ASSERT_EQ(decimal(x, scale), printf_decimal(x, scale)) << x << " at scale " << scale;
  }
}

TEST(LogicalTypes, DecimalRescalingAndTimeUnits) {
  uint64_t out;
  ASSERT_EQ(pd_decimal_rescale(12345, 2, 1, 18, &out), PD_OK);
  EXPECT_EQ((int64_t)out, 1234);  // 1234.5: to even
  ASSERT_EQ(pd_decimal_rescale(12355, 2, 1, 18, &out), PD_OK);
  EXPECT_EQ((int64_t)out, 1236);
  ASSERT_EQ(pd_decimal_rescale((uint64_t)-12355, 2, 1, 18, &out), PD_OK);
  EXPECT_EQ((int64_t)out, -1236);
  ASSERT_EQ(pd_decimal_rescale(7, 0, 2, 3, &out), PD_OK);
  EXPECT_EQ((int64_t)out, 700);
  EXPECT_EQ(pd_decimal_rescale(10, 0, 2, 3, &out), PD_FAIL);  // 10.00 has 4 digits
  EXPECT_EQ(pd_decimal_rescale((uint64_t)INT64_MAX, 0, 1, 18, &out), PD_FAIL);
  // A time before 1970 is in the day before.
  ASSERT_EQ(pd_time_rescale((uint64_t)-1, 1, 86400000, &out), PD_OK);
  EXPECT_EQ((int64_t)out, -1);
  EXPECT_EQ(pd_time_rescale((uint64_t)INT64_MAX / 10, 1000, 1, &out), PD_FAIL);
}

TEST(LogicalTypes, TextIsIso8601AndPlainDecimals) {
  EXPECT_EQ(logical_text({LogicalKind::Timestamp}, 0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(logical_text({LogicalKind::Timestamp}, (uint64_t)-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(logical_text({LogicalKind::Timestamp}, 1717245296789), "2024-06-01T12:34:56.789Z");
  EXPECT_EQ(logical_text({LogicalKind::TimestampMicros}, 1717245296789001),
            "2024-06-01T12:34:56.789001Z");
  EXPECT_EQ(logical_text({LogicalKind::Date}, 19875), "2024-06-01");
  EXPECT_EQ(logical_text({LogicalKind::Date}, (uint64_t)-719162), "0001-01-01");
  EXPECT_EQ(logical_text({LogicalKind::Date}, (uint64_t)-719163), "0000-12-31");
  EXPECT_EQ(logical_text({LogicalKind::Date}, (uint64_t)-719529), "-0001-12-31");
  EXPECT_EQ(logical_text({LogicalKind::Date}, 2932897), "+10000-01-01");
  EXPECT_EQ(logical_text(LogicalType::decimal(12, 2), (uint64_t)-1250), "-12.50");
  EXPECT_EQ(logical_text(LogicalType::decimal(12, 2), 5), "0.05");
  EXPECT_EQ(logical_text(LogicalType::decimal(3, 0), 7), "7");
  EXPECT_EQ(logical_text(LogicalType::decimal(18, 18), (uint64_t)-999999999999999999),
            "-0.999999999999999999");
}

TEST(LogicalTypes, Iso8601TextIsReadExactlyOrRefusedSayingWhy) {
  const auto instant = [](const char* text, int digits = 3) {
    const ParsedTime parsed = parse_instant_text(text, digits);
    return std::holds_alternative<int64_t>(parsed) ? std::to_string(std::get<int64_t>(parsed))
                                                   : std::get<std::string>(parsed);
  };
  EXPECT_EQ(instant("2024-06-01T12:34:56.789Z"), "1717245296789");
  EXPECT_EQ(instant("2024-06-01 12:34:56.7891"), "1717245296789");  // digits past ms are cut
  EXPECT_EQ(instant("2024-06-01T12:34:56.789001", 6), "1717245296789001");
  EXPECT_EQ(instant("2024-02-29T23:00-02:00"), "1709254800000");
  EXPECT_EQ(instant("2024-02-29T23:00:00-0200"), "1709254800000");
  EXPECT_EQ(instant("2024-06-01"), "1717200000000");
  EXPECT_EQ(instant("1969-12-31T23:59:59.999Z"), "-1");
  EXPECT_EQ(instant("2023-02-29"), "the day 29 is not in 1..28 at character 9 of '2023-02-29'");
  EXPECT_EQ(instant("2024-06-01T25:00"),
            "the hour 25 is not in 0..23 at character 12 of "
            "'2024-06-01T25:00'");
  EXPECT_EQ(instant("2024-06-01T12:00Zjunk"),
            "unexpected text at character 18 of "
            "'2024-06-01T12:00Zjunk'");
  EXPECT_EQ(instant("June 1"), "expected 4 digits of the year at character 1 of 'June 1'");
  const ParsedTime day = parse_date_text("1969-12-31");
  EXPECT_EQ(std::get<int64_t>(day), -1);
  EXPECT_TRUE(std::holds_alternative<std::string>(parse_date_text("2024-06-01T00:00")));
}

const char* kOrders =
    "input cycle\n"
    "private ms := 1704067200000 + hash_range(cycle, 31536000000)\n"
    "placed_at := ms as timestamp\n"
    "placed_us := placed_at as timestamp_us\n"
    "ship_date := placed_at as date\n"
    "amount := hash_interval(cycle, 0.0, 5000.0) as decimal(12, 2)\n"
    "n := hash_range(cycle, 100000)\n"
    "cents := n as decimal(9, 2)\n"
    "rounded := amount as decimal(11, 1)\n"
    "text := placed_at as str\n"
    "back := text as timestamp\n"
    "day_text := \"2024-06-01\" as date\n"
    "price := amount as f64\n"
    "whole := amount as i64\n"
    "later := placed_at + 1000\n";

TEST(LogicalTypes, TheCheckerKeepsThemOnBindingsAndDropsThemInArithmetic) {
  const auto p = compile(kOrders);
  const auto logical = [&](const char* name) {
    return logical_type_name(p->output_logical_type(p->require_output(name)));
  };
  EXPECT_EQ(logical("placed_at"), "timestamp");
  EXPECT_EQ(type_name(p->output_type(p->require_output("placed_at"))), "i64");
  EXPECT_EQ(logical("placed_us"), "timestamp_us");
  EXPECT_EQ(logical("ship_date"), "date");
  EXPECT_EQ(type_name(p->output_type(p->require_output("ship_date"))), "i32");
  EXPECT_EQ(logical("amount"), "decimal(12, 2)");
  EXPECT_EQ(logical("rounded"), "decimal(11, 1)");
  EXPECT_EQ(logical("text"), "");
  EXPECT_EQ(logical("back"), "timestamp");
  EXPECT_EQ(logical("later"), "");  // arithmetic: a plain number
  State s = p->new_state();
  s.set_inputs({0});
  const int64_t ms = (int64_t)s.pull("placed_at").as_i64();
  EXPECT_EQ(s.pull("placed_us").as_i64(), ms * 1000);
  EXPECT_EQ(s.pull("ship_date").as_i64(), ms / 86400000);
  EXPECT_EQ(s.pull("back").as_i64(), ms);
  EXPECT_EQ(s.pull("text").as_str(), logical_text({LogicalKind::Timestamp}, (uint64_t)ms));
  EXPECT_EQ(s.pull("day_text").as_i64(), 19875);
  EXPECT_EQ(s.pull("price").as_f64(), (double)s.pull("amount").as_i64() / 100);
  const int64_t cents = s.pull("amount").as_i64();  // positive here
  const int64_t whole = cents / 100, rest = cents % 100;
  EXPECT_EQ(s.pull("whole").as_i64(), whole + (rest > 50 || (rest == 50 && whole % 2) ? 1 : 0));
  EXPECT_EQ(s.pull("cents").as_i64(), (int64_t)s.pull("n").as_u64() * 100);
}

TEST(LogicalTypes, EveryEngineAndTheBatchTierAgree) {
  const std::vector<std::string> names = compile(kOrders)->output_names();
  for (uint64_t x : {0ull, 1ull, 77ull, 123456789ull}) values_everywhere(kOrders, x, names);
  // The batch tier's words are the interpreter's.
  const auto interpreted = compile(kOrders, CompileOptions{.engine = Engine::Interpreter});
  const std::vector<Column> columns = BatchEvaluator(compile(kOrders), {}).evaluate(0, 500);
  State s = interpreted->new_state();
  for (uint64_t r = 0; r < 500; ++r) {
    s.set_inputs({r});
    for (const Column& c : columns) {
      EXPECT_EQ(c.value(r).to_string(), s.pull(c.name).to_string()) << c.name << " at " << r;
      EXPECT_EQ(c.logical, interpreted->output_logical_type(interpreted->require_output(c.name)));
    }
  }
}

TEST(LogicalTypes, ValuesThatDoNotFitFailTheRowSayingWhy) {
  expect_contains(thrown_message<EvalError>([] {
                    State s =
                        compile("input x\nd := ((x as f64) * 1e6) as decimal(5, 2)\n")->new_state();
                    s.set_inputs({7});
                    s.pull("d");
                  }),
                  {"node 'as decimal(5, 2)'",
                   "value 7e+06 does not fit decimal(5, 2) (at most 3 digits before the point)"});
  expect_contains(
      thrown_message<EvalError>([] {
        State s = compile("input x\nd := (\"2024-13-0\" + format_u64(x)) as date\n")->new_state();
        s.set_inputs({0});
        s.pull("d");
      }),
      {"not a date: the month 13 is not in 1..12"});
  expect_contains(thrown_message<EvalError>([] {
                    State s =
                        compile("input x\nd := ((x as i64) * 100000000000) as date\n")->new_state();
                    s.set_inputs({1});
                    s.pull("d");
                  }),
                  {"does not fit i32"});
}

TEST(LogicalTypes, ConversionsThatMeanNothingAreRefusedAtCompileTime) {
  expect_contains(compile_error("input x\nt := (x as f64) as timestamp\n"),
                  {"no conversion from f64 to timestamp", "round a float first"});
  expect_contains(compile_error("input x\nd := \"1.5\" as decimal(12, 2)\n"),
                  {"no conversion from str to decimal(12, 2)"});
  expect_contains(compile_error("input x\nd := (x as timestamp) as decimal(12, 2)\n"),
                  {"no conversion from timestamp to decimal(12, 2)"});
  expect_contains(compile_error("input x\nd := ((x as f64) as decimal(12, 2)) as date\n"),
                  {"no conversion from decimal(12, 2) to date"});
  expect_contains(compile_error("input x\nd := ((x as f64) as decimal(12, 2)) as bool\n"),
                  {"no conversion from decimal(12, 2) to bool"});
  expect_contains(compile_error("input x\nd := (x as f64) as decimal(19, 2)\n"),
                  {"a decimal's precision must be in 1..18, got 19"});
  expect_contains(compile_error("input x\nd := (x as f64) as decimal(5, 6)\n"),
                  {"a decimal's scale must be in 0..5, got 6"});
  expect_contains(compile_error("input x\nd := (x as f64) as decimal\n"),
                  {"after 'decimal' (decimal(precision, scale)"});
  // A literal that cannot be one fails when the program is compiled.
  EXPECT_NE(thrown_message<ConstantFoldError>([] {
              compile("input x\nd := \"2024-02-30\" as date\n");
            }).find("the day 30 is not in 1..29"),
            std::string::npos);
}

TEST(LogicalTypes, TheCommandWritesIso8601AndPlainDecimals) {
  const std::string dir = temp_dir();
  const std::string file =
      write_program(dir, "p.polydat",
                    "input cycle\n"
                    "at := (1717245296789 + cycle * 86400000) as timestamp\n"
                    "day := at as date\n"
                    "amount := ((cycle as f64) * 1.25 - 1.0) as decimal(8, 2)\n");
  const CommandResult csv = run_polyrt("run " + file + " --rows 2");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out,
            "at,day,amount\n"
            "2024-06-01T12:34:56.789Z,2024-06-01,-1.00\n"
            "2024-06-02T12:34:56.789Z,2024-06-02,0.25\n");
  // The per-state engines write the same bytes.
  EXPECT_EQ(run_polyrt("run " + file + " --rows 2 --engine interpreter").out, csv.out);
  const CommandResult jsonl = run_polyrt("run " + file + " --rows 1 --format jsonl");
  EXPECT_EQ(jsonl.out,
            "{\"at\":\"2024-06-01T12:34:56.789Z\",\"day\":\"2024-06-01\",\"amount\":-1.00}\n");
  const CommandResult preview = run_polyrt("preview " + file + " --rows 1");
  expect_contains(preview.out, {"timestamp", "date", "decimal(8, 2)", "2024-06-01T12:34:56.789Z"});
  const CommandResult npy =
      run_polyrt("run " + file + " --rows 1 --format npy --out " + dir + "/n");
  EXPECT_EQ(npy.status, 2);
  expect_contains(npy.err, {"output 'at' is a timestamp", "'at as i64'"});
  const CommandResult stats = run_polyrt("stats " + file + " --cycles 0..100");
  ASSERT_EQ(stats.status, 0) << stats.err;
  expect_contains(stats.out, {"at  timestamp", "min 2024-06-01T12:34:56.789Z", "day  date",
                              "amount  decimal(8, 2)", "min -1.00"});
}

}  // namespace
}  // namespace polyrt::test
