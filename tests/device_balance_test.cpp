// The ChunkAssigner's policy, in a simulation with a clock of its own: every
// row is taken exactly once; devices of very different speeds each get rows
// in proportion to their speed and finish together; a slow device's chunks
// do not keep the frontier device (the CPU) waiting for in-order delivery;
// a failure's limit stops the taking of later rows.
#include "scheduler/runtime/device_balance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <queue>

#include "scheduler/runtime/auto_devices.hpp"

namespace polyrt::scheduler {
namespace {

// A simulated device: its limits, its true speed, and how many chunks it may
// have between take and delivery (as run_device_chunks bounds them).
struct SimulatedDevice {
  DeviceLimits limits;
  double rate;  // rows per second with every slot busy
  size_t undelivered;
};

struct Outcome {
  double finish = 0;                    // when the last row was delivered
  std::vector<uint64_t> rows;           // per device
  std::vector<double> busy;             // per device: slot-seconds worked / slots
  std::map<uint64_t, uint64_t> chunks;  // offset -> rows, as taken
};

DeviceMeter::Clock::time_point at(double seconds) {
  return DeviceMeter::Clock::time_point{} +
         std::chrono::duration_cast<DeviceMeter::Clock::duration>(
             std::chrono::duration<double>(seconds));
}

// Runs `count` rows: each device's free slots take chunks, a chunk takes
// rows / (rate / slots) seconds, and rows are delivered in order.
Outcome simulate(const std::vector<SimulatedDevice>& devices, uint64_t count,
                 uint64_t fixed_rows = 0) {
  const size_t n = devices.size();
  std::vector<DeviceLimits> limits;
  for (const SimulatedDevice& d : devices) limits.push_back(d.limits);
  std::vector<DeviceMeter> meters(n);
  ChunkAssigner assigner(limits, meters, count, fixed_rows);
  struct Done {
    double began, time;
    size_t device;
    uint64_t offset, rows;
    bool operator>(const Done& o) const { return time > o.time; }
  };
  std::priority_queue<Done, std::vector<Done>, std::greater<>> running;
  std::vector<size_t> free_slots(n), undelivered(n, 0);
  for (size_t d = 0; d < n; ++d) free_slots[d] = devices[d].limits.slots;
  std::map<uint64_t, std::pair<uint64_t, size_t>> worked;  // offset -> rows, device
  Outcome out;
  out.rows.assign(n, 0);
  out.busy.assign(n, 0);
  double now = 0;
  uint64_t delivered = 0;
  while (delivered < count) {
    for (size_t d = 0; d < n; ++d) {
      while (free_slots[d] > 0 && undelivered[d] < devices[d].undelivered) {
        const std::optional<ChunkAssigner::Taken> t = assigner.take(d);
        if (!t) break;
        EXPECT_TRUE(out.chunks.emplace(t->offset, t->rows).second) << t->offset;
        const double seconds =
            (double)t->rows / (devices[d].rate / (double)devices[d].limits.slots);
        meters[d].begin(at(now));
        running.push(Done{now, now + seconds, d, t->offset, t->rows});
        out.busy[d] += seconds / (double)devices[d].limits.slots;
        --free_slots[d];
        ++undelivered[d];
      }
    }
    if (running.empty()) {
      ADD_FAILURE() << "no chunk runs, " << delivered << " of " << count << " rows delivered";
      break;
    }
    const Done done = running.top();
    running.pop();
    now = done.time;
    meters[done.device].end(done.rows, at(done.began), at(now));
    assigner.done(done.device, done.rows);
    ++free_slots[done.device];
    out.rows[done.device] += done.rows;
    worked.emplace(done.offset, std::pair{done.rows, done.device});
    for (auto next = worked.find(delivered); next != worked.end(); next = worked.find(delivered)) {
      delivered += next->second.first;
      --undelivered[next->second.second];
      worked.erase(next);
    }
  }
  out.finish = now;
  return out;
}

// The CPU: the frontier, 2 threads taking about 1 ms of work (8192 to 32 *
// 8192 rows), 8 chunks ahead each.
SimulatedDevice cpu(double rate) {
  return {DeviceLimits{.slots = 2,
                       .frontier = true,
                       .first_rows = 8192,
                       .min_rows = 8192,
                       .max_rows = 32 * 8192,
                       .chunk_seconds = 0.001},
          rate, 2 * 8};
}

SimulatedDevice gpu(double rate) {
  return {DeviceLimits{.slots = 3, .first_rows = 8192, .min_rows = 8192, .max_rows = 1u << 24},
          rate, 3 * 3};
}

void expect_every_row_once(const Outcome& out, uint64_t count) {
  uint64_t next = 0;
  for (const auto& [offset, rows] : out.chunks) {
    ASSERT_EQ(offset, next);
    ASSERT_GT(rows, 0u);
    next += rows;
  }
  EXPECT_EQ(next, count);
}

// Each device's share of the rows against its share of the speeds.
void expect_shares_follow_speeds(const Outcome& out, const std::vector<SimulatedDevice>& devices,
                                 double tolerance) {
  double total_rate = 0;
  uint64_t total_rows = 0;
  for (size_t d = 0; d < devices.size(); ++d) {
    total_rate += devices[d].rate;
    total_rows += out.rows[d];
  }
  for (size_t d = 0; d < devices.size(); ++d) {
    const double share = (double)out.rows[d] / (double)total_rows;
    const double speed = devices[d].rate / total_rate;
    EXPECT_NEAR(share, speed, tolerance * speed) << "device " << d;
  }
}

// Runs `count` rows: every row taken once, shares within `tolerance` of the
// speeds, and the range done within 3 % of the ideal time (the rows over the
// summed speeds).
Outcome expect_balanced(const std::vector<SimulatedDevice>& devices, uint64_t count,
                        double tolerance) {
  const Outcome out = simulate(devices, count);
  expect_every_row_once(out, count);
  expect_shares_follow_speeds(out, devices, tolerance);
  double rate = 0;
  for (const SimulatedDevice& d : devices) rate += d.rate;
  EXPECT_LT(out.finish, 1.03 * (double)count / rate);
  return out;
}

TEST(DeviceBalance, SlowerGpusShareByTheirSpeedsAndFinishTogether) {
  const Outcome out = expect_balanced({cpu(2e7), gpu(5e6), gpu(1.5e7)}, 20'000'000, 0.05);
  // The CPU never waits for the GPUs' chunks to be delivered.
  EXPECT_GT(out.busy[0] / out.finish, 0.97);
}

TEST(DeviceBalance, AGpuChunkLongerThanTheCpusRoomAheadDoesNotStallIt) {
  // Its smallest chunk takes 82 ms; the CPU's room ahead (16 chunks of 1 ms
  // on a thread) lasts 8 ms.
  const Outcome out = expect_balanced({cpu(2e7), gpu(3e5)}, 20'000'000, 0.1);
  EXPECT_GT(out.busy[0] / out.finish, 0.97);
}

TEST(DeviceBalance, AGpuFarFasterThanTheCpuKeepsBoth) {
  expect_balanced({cpu(2e7), gpu(5e8)}, 400'000'000, 0.05);
}

TEST(DeviceBalance, AVerySlowDeviceIsNotWaitedFor) {
  // 2,000 rows/s: one of its chunks would outlast the whole range.
  const std::vector<SimulatedDevice> devices = {cpu(2e7), gpu(2e3)};
  const uint64_t count = 10'000'000;
  const Outcome out = simulate(devices, count);
  expect_every_row_once(out, count);
  // Its first chunk (8,192 rows, before its speed is known) is the most it holds up.
  EXPECT_LT(out.finish, (double)count / 2e7 + 8192 / (2e3 / 3) + 0.01);
  EXPECT_LE(out.rows[1], 2 * 8192u);
}

// Fixed chunks are cut where another device's chunk begins, never longer.
TEST(DeviceBalance, FixedChunksAreTheLongestChunks) {
  const std::vector<SimulatedDevice> devices = {cpu(2e7), gpu(1e7)};
  const uint64_t count = 3'000'000;
  const Outcome out = simulate(devices, count, 10'000);
  expect_every_row_once(out, count);
  for (const auto& [offset, rows] : out.chunks) {
    EXPECT_LE(rows, 10'000u) << offset;
  }
  expect_shares_follow_speeds(out, devices, 0.1);
}

TEST(DeviceBalance, ALimitStopsTheTakingOfLaterRows) {
  const std::vector<DeviceLimits> limits = {
      {.slots = 1, .frontier = true, .first_rows = 100, .min_rows = 100, .max_rows = 100}};
  std::vector<DeviceMeter> meters(1);
  ChunkAssigner assigner(limits, meters, 1000);
  const auto first = assigner.take(0);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->offset, 0u);
  EXPECT_EQ(first->rows, 100u);
  assigner.limit(250);
  EXPECT_EQ(assigner.take(0)->offset, 100u);
  const auto last = assigner.take(0);
  EXPECT_EQ(last->offset, 200u);
  EXPECT_EQ(last->rows, 50u);
  EXPECT_TRUE(assigner.exhausted());
  EXPECT_FALSE(assigner.take(0));
}

TEST(DeviceBalance, AMeterTimesTheUnionOfItsChunksAndEachSlot) {
  DeviceMeter meter;
  meter.begin(at(1.0));
  meter.begin(at(1.5));
  meter.end(10, at(1.5), at(2.0));
  meter.end(10, at(1.0), at(3.0));  // busy from 1 to 3 with two chunks: 2 s
  meter.begin(at(5.0));
  meter.end(20, at(5.0), at(6.0));
  EXPECT_EQ(meter.rows(), 40u);
  EXPECT_DOUBLE_EQ(meter.active_seconds(), 3.0);
  EXPECT_DOUBLE_EQ(meter.slot_rate(), 40 / 3.5);  // chunks of 0.5, 2 and 1 s
}

// A chunk restarted after its buffers' first allocation counts from the
// restart: the allocation is not its device's speed (--device auto's first
// GPU probe). Another chunk already running keeps the active time's start.
TEST(DeviceBalance, ARestartedChunkCountsFromTheRestart) {
  DeviceMeter meter;
  meter.begin(at(1.0));
  meter.restart(at(1.0), at(2.5));  // 1.5 s of allocation
  meter.end(10, at(2.5), at(3.0));
  EXPECT_DOUBLE_EQ(meter.active_seconds(), 0.5);
  EXPECT_DOUBLE_EQ(meter.slot_rate(), 20.0);
  meter.begin(at(4.0));
  meter.begin(at(4.5));
  meter.restart(at(4.5), at(5.0));  // not the one that opened the busy time
  meter.end(10, at(5.0), at(5.5));
  meter.end(10, at(4.0), at(6.0));
  EXPECT_DOUBLE_EQ(meter.active_seconds(), 2.5);
}

// BatchDevice::Auto's choice: a device under 10 % of the summed speed is
// left out, the fastest never; the reason names what was measured.
TEST(AutoDevices, ADeviceUnderATenthOfTheSummedSpeedIsLeftOut) {
  const std::vector<std::string> names = {"cpu", "gpu 0 (H200)"};
  const AutoChoice slow_gpu = choose_auto_devices(std::vector<double>{5e7, 1e6}, names);
  EXPECT_EQ(slow_gpu.use, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(slow_gpu.reason,
            "chose cpu (measured: cpu 5e+07 rows/s, gpu 0 (H200) 1e+06 rows/s); left out gpu 0 "
            "(H200): under 10 % of the summed speed");
  const AutoChoice fast_gpu = choose_auto_devices(std::vector<double>{5e7, 6e8}, names);
  EXPECT_EQ(fast_gpu.use, (std::vector<uint8_t>{0, 1}));
  EXPECT_NE(fast_gpu.reason.find("chose gpu 0 (H200) ("), std::string::npos) << fast_gpu.reason;
  EXPECT_NE(fast_gpu.reason.find("left out cpu"), std::string::npos) << fast_gpu.reason;
  const AutoChoice both = choose_auto_devices(std::vector<double>{5e7, 2e8}, names);
  EXPECT_EQ(both.use, (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ(both.reason.find("left out"), std::string::npos) << both.reason;
  EXPECT_EQ(choose_auto_devices(std::vector<double>{5e7, 1e8, 4e8},
                                std::vector<std::string>{"cpu", "gpu 0", "gpu 1"})
                .use,
            (std::vector<uint8_t>{0, 1, 1}));
}

}  // namespace
}  // namespace polyrt::scheduler
