// How devices of different speeds share one range (BatchDevice::All): which
// rows a device's free worker takes next. Each device's speed is measured as
// it runs (rows per second of a chunk on one of its slots).
//
// - The frontier device (the CPU: many short chunks) always takes the lowest
//   rows no one has taken, so in-order delivery never waits for rows that
//   nobody runs.
// - Every other device (a GPU: few large chunks) takes its chunk ahead of the
//   frontier, by the rows the frontier device will have taken by the time
//   the chunk is done. Delivery then reaches the chunk about when it is
//   finished: a slow chunk neither holds up the rows behind it nor the
//   frontier device, whatever the devices' speeds.
// - A chunk aims at its device's chunk_seconds on one slot. Near
//   the end of the range chunks shrink to each device's share of what is
//   left, and a device other than the frontier one declines rows that would
//   end after the whole range would otherwise be done and that another
//   device would finish sooner (earliest finish): the devices finish
//   together, and a slow one never holds the last large chunk while the fast
//   ones wait.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace polyrt::scheduler {

// A device's first chunk, which measures its speed, is placed this many
// seconds of the frontier device's rows ahead of the frontier: a slow
// device's first chunk then holds up delivery only by what it takes beyond.
inline constexpr double kProbeLeadSeconds = 0.05;
// How much further ahead than its estimated time a chunk is placed.
inline constexpr double kLeadMargin = 1.5;

struct DeviceLimits {
  size_t slots = 1;         // chunks it runs at once (its workers)
  bool frontier = false;    // takes the lowest rows untaken (exactly one device does)
  uint64_t first_rows = 1;  // rows of its chunks until its speed is known
  uint64_t min_rows = 1;    // bounds of its chunks once its speed is known
  uint64_t max_rows = 1;
  double chunk_seconds = 0.01;  // what a chunk aims at once its speed is known
};

// A device's rows, the wall time in which it had at least one chunk running,
// and the sum of its chunks' times, over an evaluator's life. Thread-safe.
class DeviceMeter {
 public:
  using Clock = std::chrono::steady_clock;
  void begin(Clock::time_point now = Clock::now());
  // The end of a chunk of `rows` that began at `began`.
  void end(uint64_t rows, Clock::time_point began, Clock::time_point now = Clock::now());
  // A chunk that began at `began` starts again at `now`: when it opened the
  // device's active time, that time starts at `now` too.
  void restart(Clock::time_point began, Clock::time_point now);
  uint64_t rows() const;
  double active_seconds() const;
  // Rows per second of one slot (one chunk running), however many ran at
  // once; 0 until a chunk has ended.
  double slot_rate() const;

 private:
  mutable std::mutex mutex_;
  uint64_t rows_ = 0;
  size_t working_ = 0;
  Clock::time_point since_;
  Clock::duration active_{};
  Clock::duration chunk_time_{};  // summed over chunks
};

// One run's rows [0, rows): take() from any device's free worker, done()
// when a chunk's work ends (failed or not). Thread-safe.
class ChunkAssigner {
 public:
  // `fixed_rows` (when not 0) is every chunk's size.
  ChunkAssigner(std::span<const DeviceLimits> limits, std::span<const DeviceMeter> meters,
                uint64_t rows, uint64_t fixed_rows = 0);

  struct Taken {
    uint64_t offset = 0, rows = 0;
  };
  // The rows `device` runs next: nothing when no row is left, or when it
  // declines (the frontier device never does).
  std::optional<Taken> take(size_t device);
  // Whether every row (below the limit) has been taken.
  bool exhausted() const;
  void done(size_t device, uint64_t rows);
  // Rows from `end` on are not needed any more (a chunk there failed).
  void limit(uint64_t end);
  // `device` takes no more rows (it faulted): the others share what is left.
  // The frontier device is never retired.
  void retire(size_t device);
  bool retired(size_t device) const;

 private:
  // When `device` would finish `rows` more, at its measured speed `rate`
  // with every slot busy.
  double finish_time(size_t device, uint64_t rows, double rate) const;
  // The untaken row `ahead` untaken rows past the frontier, and the end of
  // the untaken run it is in; the last run's last rows when fewer are left.
  std::pair<uint64_t, uint64_t> untaken_ahead(uint64_t ahead, uint64_t rows) const;
  void remove(uint64_t offset, uint64_t rows);

  std::span<const DeviceLimits> limits_;
  std::span<const DeviceMeter> meters_;
  uint64_t fixed_rows_;
  mutable std::mutex mutex_;
  std::map<uint64_t, uint64_t> untaken_;  // disjoint runs: start -> end
  uint64_t untaken_rows_;
  std::vector<uint64_t> held_;    // per device: rows taken and not done
  std::vector<uint8_t> retired_;  // per device: 1 once it takes no more rows
};

// A chunk's work on its device, from construction to destruction (also when
// the work throws): timed on the device's meter, then released from the
// assigner (when there is one: a single device needs none).
class RunningChunk {
 public:
  RunningChunk(DeviceMeter& meter, ChunkAssigner* assigner, size_t device, uint64_t rows);
  ~RunningChunk();
  RunningChunk(const RunningChunk&) = delete;
  RunningChunk& operator=(const RunningChunk&) = delete;
  // The chunk's time starts now: what came before (its buffers' first
  // allocation, a GPU's pinned memory) is not its device's speed, and
  // counting it made --device auto's first GPU probe look ~100x slow.
  void restart();

 private:
  DeviceMeter& meter_;
  ChunkAssigner* assigner_;
  size_t device_;
  uint64_t rows_;
  DeviceMeter::Clock::time_point began_;
};

}  // namespace polyrt::scheduler
