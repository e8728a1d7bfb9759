// BatchDevice::All and `polyrt run --device all`: every usable GPU (two of
// the driver double's, of different speeds) and the CPU on one range give the
// CPU tier's bytes, in order, with the smallest failing coordinate, and say
// what each device did.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include "gpu_backend/driver/cuda_driver.hpp"
#include "polyrt/batch.hpp"
#include "tests/test_support.hpp"

namespace polyrt {
namespace {

// Two double GPUs, the second three times as fast, each launch 1 ms at speed 1.
const std::string kTwoGpus = "POLYRT_CUDA_DOUBLE='devices=2;speeds=1,3;kernel_us=1000'";

std::string ladder() {
  return std::string(POLYRT_SOURCE_DIR) + "/examples/ladder.polydat";
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(AllDevices, EveryDeviceTogetherWritesTheCpuBytes) {
  if (!gpu::CudaDriver::get()) GTEST_SKIP() << gpu::CudaDriver::unavailable_reason();
  const std::string dir = test::temp_dir();
  const std::string run =
      "run " + ladder() + " --cycles 7..3000007 --set tenant_seed=1 --set operation_seed=2";
  ASSERT_EQ(test::run_polyrt(run + " --device cpu", dir + "/cpu.csv").status, 0);
  const test::CommandResult all =
      test::run_polyrt_with(kTwoGpus, run + " --device all -v", dir + "/all.csv");
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(slurp(dir + "/all.csv"), slurp(dir + "/cpu.csv"));
  // -v: where it ran, then each device's rows; together, every row.
  test::expect_contains(all.err, {"batch tier on cpu + gpu 0 (", " + gpu 1 (", "polyrt: cpu: ",
                                  "polyrt: gpu 0 (", "polyrt: gpu 1 (", "rows/s while active"});
  uint64_t rows = 0;
  std::istringstream lines(all.err);
  for (std::string line; std::getline(lines, line);) {
    const size_t end = line.find(" rows (");  // "polyrt: DEVICE: N rows (P % of the rows), ..."
    if (end != std::string::npos) rows += std::stoull(line.substr(line.rfind(' ', end - 1) + 1));
  }
  EXPECT_EQ(rows, 3000000u) << all.err;
  const std::string npy = run + " --outputs account_id,event_token --format npy --out ";
  ASSERT_EQ(test::run_polyrt(npy + dir + "/c").status, 0);
  ASSERT_EQ(test::run_polyrt_with(kTwoGpus, npy + dir + "/a --device all").status, 0);
  EXPECT_EQ(slurp(dir + "/a/event_token.npy"), slurp(dir + "/c/event_token.npy"));
}

// -v names every device with its share of the rows and of the summed
// speeds, every device took rows, and the shares add up. (That the shares
// follow the speeds is the assigner's policy, held to it on a simulated
// clock in device_balance_test.cpp: a wall-clock check here failed on a
// loaded machine.)
TEST(AllDevices, EveryDeviceTakesRowsAndVerboseSaysItsShare) {
  if (!gpu::CudaDriver::get()) GTEST_SKIP() << gpu::CudaDriver::unavailable_reason();
  const std::string dir = test::temp_dir();
  const std::string stress = std::string(POLYRT_SOURCE_DIR) + "/tests/data/gpu_stress.polydat";
  const test::CommandResult all = test::run_polyrt_with(
      "POLYRT_CUDA_DOUBLE='devices=2;speeds=1,3;kernel_us=1000;copy_us_per_mib=30000'",
      "run " + stress +
          " --set region=3 --outputs normal,wait,rank,root,score --cycles 0..6000000 --threads 1"
          " --format npy --device all -v --out " +
          dir + "/o");
  ASSERT_EQ(all.status, 0) << all.err;
  std::istringstream lines(all.err);
  int devices = 0;
  double rows_share = 0, speed_share = 0;
  for (std::string line; std::getline(lines, line);) {
    const size_t of_rows = line.find(" % of the rows)"), of_speeds = line.find(" % of the summed");
    if (of_rows == std::string::npos || of_speeds == std::string::npos) continue;
    const double rows = std::stod(line.substr(line.rfind('(', of_rows) + 1));
    EXPECT_GT(rows, 0) << line;
    rows_share += rows;
    speed_share += std::stod(line.substr(line.rfind('(', of_speeds) + 1));
    ++devices;
  }
  EXPECT_EQ(devices, 3) << all.err;
  EXPECT_NEAR(rows_share, 100.0, 0.5) << all.err;
  EXPECT_NEAR(speed_share, 100.0, 0.5) << all.err;
}

TEST(AllDevices, TheSmallestFailingCoordinateWinsAndNothingIsWritten) {
  if (!gpu::CudaDriver::get()) GTEST_SKIP() << gpu::CudaDriver::unavailable_reason();
  const std::string dir = test::temp_dir();
  const std::string failing = test::write_program(
      dir, "f.polydat", "input cycle\nv := in_range(cycle % 1000003, 0, 1000000)\n");
  const test::CommandResult r = test::run_polyrt_with(
      kTwoGpus, "run " + failing + " --cycles 0..5000000 --device all --out " + dir + "/o.csv");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("coordinates: cycle=1000001"), std::string::npos) << r.err;
  EXPECT_FALSE(test::exists(dir + "/o.csv"));
}

TEST(AllDevices, TheBatchApiCountsEachDevicesRows) {
  const gpu::CudaDriver* driver = gpu::CudaDriver::get();
  if (!driver) GTEST_SKIP() << gpu::CudaDriver::unavailable_reason();
  const auto program = compile_file(ladder());
  BatchOptions options;
  options.coordinates = {0, 5, 6};
  options.outputs = {"account_id", "payload_class"};
  const BatchEvaluator cpu(program, options);
  options.device = BatchDevice::All;
  const BatchEvaluator all(program, options);
  const std::vector<Column> want = cpu.evaluate(100, 700000);
  const std::vector<Column> got = all.evaluate(100, 700000);
  ASSERT_EQ(got.size(), want.size());
  for (size_t o = 0; o < got.size(); ++o) EXPECT_EQ(got[o].words, want[o].words) << got[o].name;
  const std::vector<DeviceShare> shares = all.device_shares();
  ASSERT_EQ(shares.size(), 1 + driver->devices().size());
  uint64_t rows = 0;
  for (const DeviceShare& s : shares) rows += s.rows;
  EXPECT_EQ(rows, 700000u);
  std::vector<uint64_t> device(2);
  EXPECT_THROW(all.evaluate_on_device(0, 1, {device.data(), device.size()}), WriteError);
}

// The cancellation token reaches the pipeline of several devices: a raised
// BatchOptions::stop ends the call with StoppedError, never with a partial
// result, and the evaluator runs again once it is lowered.
TEST(AllDevices, TheStopFlagEndsACallOnEveryDevice) {
  if (!gpu::CudaDriver::get()) GTEST_SKIP() << gpu::CudaDriver::unavailable_reason();
  std::atomic<bool> stop{true};
  BatchOptions options;
  options.coordinates = {0, 5, 6};
  options.outputs = {"account_id"};
  options.device = BatchDevice::All;
  options.stop = &stop;
  const BatchEvaluator all(compile_file(ladder()), options);
  const std::string why = test::thrown_message<StoppedError>([&] { all.evaluate(0, 700000); });
  EXPECT_NE(why.find("stopped after 0 of 700000 rows"), std::string::npos) << why;
  stop = false;
  EXPECT_EQ(all.evaluate(0, 700000)[0].words.size(), 700000u);
}

}  // namespace
}  // namespace polyrt
