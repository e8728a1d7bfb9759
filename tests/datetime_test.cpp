// The date and time nodes: the calendar against a day-by-day walk, golden
// timestamps (from Python's datetime), the u64 edge, and every tier.
#include <gtest/gtest.h>

#include "rtlib/rtlib.h"
#include "tests/test_support.hpp"

namespace polyrt {
namespace {

std::string s(const std::string& expr, uint64_t x = 0) {
  return test::eval_expr(expr, x).as_str();
}

// Every day from 1970 to the year 10000 against a calendar counted forward
// a day at a time: across the 100- and 400-year rules (2000 leaps, 2100 does
// not) and twenty 400-year eras.
TEST(DateTime, TheCalendarAgreesWithAWalk) {
  uint64_t year = 1970, month = 1, day = 1;
  const auto leap = [](uint64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; };
  for (uint64_t days = 0; year <= 10000; ++days) {
    uint64_t c[7];
    pd_date_components(days * 86400000 + 86399999, c);  // the day's last millisecond
    ASSERT_EQ(c[0], year) << days;
    ASSERT_EQ(c[1], month) << days;
    ASSERT_EQ(c[2], day) << days;
    ASSERT_EQ(c[3] * 3600000 + c[4] * 60000 + c[5] * 1000 + c[6], 86399999u);
    static constexpr uint64_t kLengths[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const uint64_t length = month == 2 && leap(year) ? 29 : kLengths[month - 1];
    if (day < length) {
      ++day;
    } else if (month < 12) {
      ++month, day = 1;
    } else {
      ++year, month = 1, day = 1;
    }
  }
}

TEST(DateTime, GoldenTimestamps) {
  EXPECT_EQ(s("to_timestamp(x)", 0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(s("to_timestamp(x)", 1704067200000), "2024-01-01T00:00:00.000Z");
  EXPECT_EQ(s("to_timestamp(x)", 1710513045123), "2024-03-15T14:30:45.123Z");
  EXPECT_EQ(s("to_timestamp(x)", 951868799999), "2000-02-29T23:59:59.999Z");
  EXPECT_EQ(s("to_timestamp(x)", 4107542400000), "2100-03-01T00:00:00.000Z");
  EXPECT_EQ(s("to_timestamp(x)", 253402300799999), "9999-12-31T23:59:59.999Z");
  EXPECT_EQ(s("to_timestamp(x)", 253402300800000), "10000-01-01T00:00:00.000Z");
  EXPECT_EQ(s("to_timestamp(epoch_offset(epoch_scale(x, 1000), 1704067200000))", 86399),
            "2024-01-01T23:59:59.000Z");
}

TEST(DateTime, ComponentsOnEveryEngineUpToTheLastMillisecond) {
  const std::string source = "input x: u64\n(y, mo, d, h, mi, s, ms) := date_components(x)\n";
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    State state = compile(source, CompileOptions{.engine = engine})->new_state();
    state.set_inputs({1710513045123});
    const uint64_t want[] = {2024, 3, 15, 14, 30, 45, 123};
    const char* names[] = {"y", "mo", "d", "h", "mi", "s", "ms"};
    for (size_t k = 0; k < 7; ++k) EXPECT_EQ(state.pull(names[k]).as_u64(), want[k]) << names[k];
    state.set_inputs({~0ULL});  // in constant time; Python's datetime over 400-year cycles
    const uint64_t last[] = {584556019, 4, 3, 14, 25, 51, 615};
    for (size_t k = 0; k < 7; ++k) EXPECT_EQ(state.pull(names[k]).as_u64(), last[k]) << names[k];
  }
}

}  // namespace
}  // namespace polyrt
