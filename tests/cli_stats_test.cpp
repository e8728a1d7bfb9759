// polyrt stats through the command: the terminal report's parts, the JSON
// document, the same report on 1 and 2 threads and on the GPU test double,
// the exact quantile of a column known in closed form, and the refusals.
// (tests/python/test_stats.py holds the numbers to numpy.)
#include <gtest/gtest.h>

#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

TEST(CliStats, ReportsAndJsonAgreeAcrossThreadsAndDevices) {
  const std::string dir = temp_dir();
  const std::string file =
      write_program(dir, "s.polydat",
                    "input cycle\nk := cycle % 1000\nf := (cycle % 7) as f64 * 0.5\n"
                    "city := one_of(hash(cycle), \"oslo\", \"lima\", \"pune\")\n");
  const auto text = run_polyrt("stats " + file + " --cycles 0..100000");
  ASSERT_EQ(text.status, 0) << text.err;
  // k takes 0..999 a hundred times each: p50 is the order statistic 49999, 499.
  expect_contains(text.out, {"k  u64  100,000 rows", "min 0  max 999", "p50 499", "p99 989",
                             "city  str  100,000 rows", "distinct 3", "passes over them"});
  const std::string json = "stats " + file + " --cycles 0..100000 --json";
  const auto one = run_polyrt(json + " --threads 1");
  const auto two = run_polyrt(json + " --threads 2");
  ASSERT_EQ(one.status, 0) << one.err;
  expect_contains(one.out, {"\"quantiles\":{\"p1\":9,\"p5\":49,\"p25\":249,\"p50\":499",
                            "\"distinct\":3,\"distinct_exact\":true"});
  // Only mean and stddev may differ in their last bits with the chunking.
  const auto without_moments = [](std::string s) {
    for (const char* field : {"\"mean\":", "\"stddev\":"}) {
      for (size_t at = s.find(field); at != std::string::npos; at = s.find(field, at + 1)) {
        s.erase(at, s.find(',', at) - at);
      }
    }
    return s;
  };
  EXPECT_EQ(without_moments(one.out), without_moments(two.out));
  const auto gpu = run_polyrt(json + " --device gpu");
  ASSERT_EQ(gpu.status, 0) << gpu.err;
  // The columns' reports (the header names the device).
  const auto columns = [&](const std::string& s) {
    return without_moments(s).substr(without_moments(s).find("\"columns\":[{"));
  };
  EXPECT_EQ(columns(gpu.out), columns(one.out));
}

// A subnormal min, max or quantile is reported, in every form: the report
// once reparsed its own text with std::stod, which throws for them.
TEST(CliStats, SubnormalValuesAreReported) {
  const std::string dir = temp_dir();
  const std::string file = write_program(dir, "sub.polydat",
                                         "input cycle\nx := (cycle as f64) * 5e-324\n"
                                         "y := (cycle as f64) * 1e-310\n");
  const auto text = run_polyrt("stats " + file + " --cycles 0..1000");
  ASSERT_EQ(text.status, 0) << text.err;
  expect_contains(text.out, {"min 0  max 4.93572e-321"});
  const auto json = run_polyrt("stats " + file + " --cycles 0..1000 --json");
  ASSERT_EQ(json.status, 0) << json.err;
  expect_contains(json.out, {"\"min\":0,\"max\":4.936e-321", "\"p50\":2.465e-321"});
  const auto html = run_polyrt("stats " + file + " --cycles 0..1000 --html " + dir + "/s.html");
  ASSERT_EQ(html.status, 0) << html.err;
}

// A bytes column's top values are lowercase hex, as its rows are written
// (they were raw bytes: NULs and lone surrogates in the JSON).
TEST(CliStats, BytesTopValuesAreHex) {
  const std::string dir = temp_dir();
  const std::string file =
      write_program(dir, "b.polydat", "input cycle\nb := sha256(format_u64(cycle % 2) as bytes)\n");
  const auto json = run_polyrt("stats " + file + " --cycles 0..10 --json");
  ASSERT_EQ(json.status, 0) << json.err;
  // sha256("0") and sha256("1").
  expect_contains(
      json.out, {"\"value\":\"5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9\"",
                 "\"value\":\"6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b\""});
  const auto text = run_polyrt("stats " + file + " --cycles 0..10");
  expect_contains(text.out, {"5feceb66ffc86f38d952786c6d696c79c2dbc...\n"});
}

// An empty range has no quantile: each is null, as docs/stats.md says (the
// object was empty).
TEST(CliStats, AnEmptyRangesQuantilesAreNull) {
  const std::string file = write_program(temp_dir(), "e.polydat", "input cycle\nx := cycle * 2\n");
  const auto json = run_polyrt("stats " + file + " --cycles 0..0 --json");
  ASSERT_EQ(json.status, 0) << json.err;
  expect_contains(json.out, {"\"min\":null",
                             "\"quantiles\":{\"p1\":null,\"p5\":null,\"p25\":null,"
                             "\"p50\":null,\"p75\":null,\"p95\":null,\"p99\":null}"});
}

TEST(CliStats, RefusalsNameTheFix) {
  const std::string dir = temp_dir();
  const std::string file = write_program(dir, "s.polydat", "input cycle\nk := cycle\n");
  expect_contains(run_polyrt("stats " + file).err, {"--cycles A..B is required"});
  expect_contains(run_polyrt("stats " + file + " --cycles 0..9 --device tpu").err,
                  {"--device must be"});
  expect_contains(run_polyrt("stats " + file + " --cycles 0..9 --outputs nope").err, {"nope"});
  const auto last = run_polyrt("stats " + file + " --cycles 18446744073709551614.. --json");
  ASSERT_EQ(last.status, 0) << last.err;
  expect_contains(last.out, {"\"min\":18446744073709551614,\"max\":18446744073709551615"});
}

}  // namespace
}  // namespace polyrt::test
