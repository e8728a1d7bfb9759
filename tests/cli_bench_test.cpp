// `polyrt bench`: every tier and device measured, in tables and in JSON, and
// the cache it compiles into cold is its own, removed afterwards.
#include <gtest/gtest.h>

#include "polyrt/bench.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

const std::string kLadder = std::string(POLYRT_SOURCE_DIR) + "/examples/ladder.polydat";

TEST(CliBench, MeasuresEveryTierAndDevice) {
  // The driver's test double gives one GPU (test_support points POLYRT_LIBCUDA at it).
  const CommandResult r =
      run_polyrt("bench " + kLadder + " --set tenant_seed=1 --set operation_seed=2 --seconds 0.05");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_contains(r.out,
                  {"compile", "cold ms", "interpreter", "closures", "native", "batch kernels (cpu)",
                   "per state", "ns/pull", "p99.9 ns", "batch", "rows/s", "GB/s", "cpu, 1 thread",
                   "gpu 0 (polyrt CUDA test double", "cpu + gpu 0 ("});
}

// What drives bench's progress line: one call before each timed row, with
// the count done and the rows there will be (issue 49: bench was silent).
TEST(CliBench, EachMeasurementIsAnnouncedWithTheTotal) {
  const std::string file = write_program(temp_dir(), "small.polydat", "input x\nv := hash(x)\n");
  BenchOptions options;
  options.seconds = 0.01;
  std::vector<std::pair<size_t, size_t>> calls;
  options.on_measure = [&](size_t done, size_t total) { calls.emplace_back(done, total); };
  const BenchReport report = bench_file(file, options);
  ASSERT_FALSE(calls.empty());
  const size_t rows = report.states.size() + report.batches.size();
  ASSERT_EQ(calls.size(), rows);
  for (size_t k = 0; k < calls.size(); ++k) {
    EXPECT_EQ(calls[k], std::pair(k, rows));
  }
}

TEST(CliBench, JsonHasANumberForEveryMeasurement) {
  const CommandResult r = run_polyrt("bench " + kLadder +
                                     " --set tenant_seed=1 --set operation_seed=2 --seconds 0.05 "
                                     "--outputs account_id,shard --json");
  ASSERT_EQ(r.status, 0) << r.err;
  if (std::system("python3 -c 'import json' 2>/dev/null") != 0) GTEST_SKIP() << "no python3";
  const std::string dir = temp_dir();
  const std::string path = write_program(dir, "bench.json", r.out);
  const std::string check =
      "python3 -c \"import json, sys; b = json.load(open(sys.argv[1])); "
      "assert [c['engine'] for c in b['compile']] == ['interpreter', 'closures', 'native', "
      "'batch kernels (cpu)']; "
      "assert all(c['cold_ms'] > 0 and c['cached_ms'] > 0 for c in b['compile']); "
      "assert [s['engine'] for s in b['per_state']] == ['interpreter', 'closures', 'native', "
      "'native, request']; "
      "assert all(0 < s['p50_ns'] <= s['p99_ns'] <= s['p999_ns'] and s['requests'] > 0 "
      "for s in b['per_state']); "
      "assert len(b['batch']) >= 2 and all(x['rows_per_second'] > 0 and x['gb_per_second'] > 0 "
      "for x in b['batch'])\" " +
      path;
  EXPECT_EQ(std::system(check.c_str()), 0) << r.out;
}

// State::request reads scalar outputs only: with a str output there is no
// request row, and the text table says which row is which.
TEST(CliBench, TheRequestRowNeedsScalarOutputs) {
  const std::string dir = temp_dir();
  const std::string program =
      write_program(dir, "mixed.polydat", "input cycle\nid := hash(cycle)\nname := \"n-{id}\"\n");
  const CommandResult scalar = run_polyrt("bench " + program + " --seconds 0.02 --outputs id");
  ASSERT_EQ(scalar.status, 0) << scalar.err;
  expect_contains(scalar.out, {"native, request"});
  const CommandResult mixed = run_polyrt("bench " + program + " --seconds 0.02");
  ASSERT_EQ(mixed.status, 0) << mixed.err;
  EXPECT_EQ(mixed.out.find("request"), std::string::npos) << mixed.out;
}

TEST(CliBench, ADeviceThatCannotRunTheBatchIsSkippedSayingWhy) {
  const std::string program = write_program(
      temp_dir(), "log.polydat", "input cycle\nlogged := log_info(cycle)\nid := hash(cycle)\n");
  const CommandResult r = run_polyrt("bench " + program + " --seconds 0.02");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_contains(r.out, {"native", "skipped: ", "side-channel"});
}

// "all" with a GPU skipped falls back to the CPU: a ratio against the sum
// of the devices alone would mean nothing, so none is printed.
TEST(CliBench, NoRatioOfAllDevicesWhenADeviceWasSkipped) {
  const std::string program =
      write_program(temp_dir(), "ids.polydat", "input cycle\nid := hash(cycle)\n");
  const CommandResult r =
      run_polyrt_with("POLYRT_CUDA_DOUBLE=invalid_ptx", "bench " + program + " --seconds 0.02");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_contains(r.out, {"gpu 0", "skipped: ", "CUDA_ERROR_INVALID_PTX"});
  EXPECT_EQ(r.out.find("all devices together"), std::string::npos) << r.out;
  const CommandResult fine = run_polyrt("bench " + program + " --seconds 0.02");
  ASSERT_EQ(fine.status, 0) << fine.err;
  expect_contains(fine.out, {"all devices together: "});
}

TEST(CliBench, RefusesBadOptions) {
  EXPECT_EQ(run_polyrt("bench " + kLadder + " --seconds 0").status, 2);
  EXPECT_EQ(run_polyrt("bench " + kLadder + " --seconds abc").status, 2);
  const CommandResult unset = run_polyrt("bench " + kLadder);
  EXPECT_EQ(unset.status, 2);
  EXPECT_NE(unset.err.find("polyrt bench: input 'tenant_seed' has no value"), std::string::npos)
      << unset.err;
  EXPECT_EQ(run_polyrt("bench " + kLadder +
                       " --set tenant_seed=1 --set operation_seed=2 "
                       "--outputs nope")
                .status,
            2);
}

}  // namespace
}  // namespace polyrt::test
