#include "scheduler/runtime/device_balance.hpp"

#include <algorithm>
#include <limits>

#include "polyrt/error.hpp"

namespace polyrt::scheduler {

void DeviceMeter::begin(Clock::time_point now) {
  const std::lock_guard lock(mutex_);
  if (working_++ == 0) since_ = now;
}

void DeviceMeter::end(uint64_t rows, Clock::time_point began, Clock::time_point now) {
  const std::lock_guard lock(mutex_);
  rows_ += rows;
  chunk_time_ += now - began;
  if (--working_ == 0) active_ += now - since_;
}

void DeviceMeter::restart(Clock::time_point began, Clock::time_point now) {
  const std::lock_guard lock(mutex_);
  if (since_ == began) since_ = now;
}

uint64_t DeviceMeter::rows() const {
  const std::lock_guard lock(mutex_);
  return rows_;
}

double DeviceMeter::active_seconds() const {
  const std::lock_guard lock(mutex_);
  return std::chrono::duration<double>(active_).count();
}

double DeviceMeter::slot_rate() const {
  const std::lock_guard lock(mutex_);
  const double busy = std::chrono::duration<double>(chunk_time_).count();
  return rows_ > 0 && busy > 0 ? (double)rows_ / busy : 0;
}

ChunkAssigner::ChunkAssigner(std::span<const DeviceLimits> limits,
                             std::span<const DeviceMeter> meters, uint64_t rows,
                             uint64_t fixed_rows)
    : limits_(limits),
      meters_(meters),
      fixed_rows_(fixed_rows),
      untaken_rows_(rows),
      held_(limits.size(), 0),
      retired_(limits.size(), 0) {
  if (limits.size() != meters.size() ||
      std::count_if(limits.begin(), limits.end(),
                    [](const DeviceLimits& l) { return l.frontier; }) != 1) {
    internal_error("a chunk assigner needs a meter per device and one frontier device");
  }
  if (rows) untaken_.emplace(0, rows);
}

double ChunkAssigner::finish_time(size_t device, uint64_t rows, double rate) const {
  // Its rows held and these at its full speed, or these alone on one slot,
  // whichever is later.
  const double slot_rate = rate / (double)limits_[device].slots;
  return std::max((double)(held_[device] + rows) / rate, (double)rows / slot_rate);
}

std::pair<uint64_t, uint64_t> ChunkAssigner::untaken_ahead(uint64_t ahead, uint64_t rows) const {
  uint64_t skipped = 0;
  for (const auto& [start, end] : untaken_) {
    if (skipped + (end - start) > ahead) {
      // Moved back to hold all `rows` when its run ends sooner.
      const uint64_t at = start + (ahead - skipped);
      return {std::max(start, std::min(at, end > rows ? end - rows : 0)), end};
    }
    skipped += end - start;
  }
  const auto& [start, end] = *untaken_.rbegin();
  return {std::max(start, end > rows ? end - rows : 0), end};
}

void ChunkAssigner::remove(uint64_t offset, uint64_t rows) {
  auto run = std::prev(untaken_.upper_bound(offset));
  const uint64_t start = run->first, end = run->second;
  untaken_.erase(run);
  if (start < offset) untaken_.emplace(start, offset);
  if (offset + rows < end) untaken_.emplace(offset + rows, end);
  untaken_rows_ -= rows;
}

std::optional<ChunkAssigner::Taken> ChunkAssigner::take(size_t device) {
  const std::lock_guard lock(mutex_);
  if (untaken_rows_ == 0 || retired_[device]) return std::nullopt;
  const size_t n = limits_.size();
  std::vector<double> rates(n);
  double total_rate = 0, frontier_rate = 0;
  uint64_t held = 0;
  for (size_t d = 0; d < n; ++d) {
    rates[d] = retired_[d] ? 0 : meters_[d].slot_rate() * (double)limits_[d].slots;
    total_rate += rates[d];
    if (limits_[d].frontier) frontier_rate = rates[d];
    held += held_[d];
  }
  const DeviceLimits& limit = limits_[device];
  const double rate = rates[device];
  const double slot_rate = rate / (double)limit.slots;
  uint64_t rows = fixed_rows_ ? fixed_rows_ : limit.first_rows;  // unmeasured: these measure it
  // When every device would be done if what is left were shared by speed.
  const double horizon = total_rate > 0 ? (double)(untaken_rows_ + held) / total_rate : 0;
  if (rate > 0 && !fixed_rows_) {
    rows = std::clamp((uint64_t)(slot_rate * limit.chunk_seconds), limit.min_rows,
                      std::max(limit.min_rows, limit.max_rows));
    const double share = std::max(0.0, rate * horizon - (double)held_[device]);
    rows = std::min(rows, std::max((uint64_t)share, limit.min_rows));
  }
  rows = std::min(rows, untaken_rows_);
  Taken taken;
  if (limit.frontier) {
    const auto& [start, end] = *untaken_.begin();
    taken = Taken{start, std::min(rows, end - start)};
  } else if (rate == 0) {
    // One chunk at a time measures a device, once the frontier device's
    // speed is known, kProbeLeadSeconds of its rows ahead of it.
    if (held_[device] > 0 || frontier_rate == 0) return std::nullopt;
    const auto [at, end] = untaken_ahead((uint64_t)(frontier_rate * kProbeLeadSeconds), rows);
    taken = Taken{at, std::min(rows, end - at)};
  } else {
    const double mine = finish_time(device, rows, rate);
    if (mine > horizon) {
      for (size_t d = 0; d < n; ++d) {
        if (d != device && rates[d] > 0 && finish_time(d, rows, rates[d]) < mine) {
          return std::nullopt;
        }
      }
    }
    // The rows the frontier device takes while this chunk runs, with
    // kLeadMargin to spare: a chunk done early only waits in memory, one
    // done late stalls the frontier device once its room ahead is full.
    const auto ahead = (uint64_t)(kLeadMargin * frontier_rate * (double)rows / slot_rate);
    const auto [at, end] = untaken_ahead(ahead, rows);
    taken = Taken{at, std::min(rows, end - at)};
  }
  remove(taken.offset, taken.rows);
  held_[device] += taken.rows;
  return taken;
}

bool ChunkAssigner::exhausted() const {
  const std::lock_guard lock(mutex_);
  return untaken_rows_ == 0;
}

void ChunkAssigner::done(size_t device, uint64_t rows) {
  const std::lock_guard lock(mutex_);
  held_[device] -= rows;
}

void ChunkAssigner::retire(size_t device) {
  const std::lock_guard lock(mutex_);
  if (!limits_[device].frontier) retired_[device] = 1;
}

bool ChunkAssigner::retired(size_t device) const {
  const std::lock_guard lock(mutex_);
  return retired_[device] != 0;
}

void ChunkAssigner::limit(uint64_t end) {
  const std::lock_guard lock(mutex_);
  while (!untaken_.empty() && untaken_.rbegin()->second > end) {
    const auto last = std::prev(untaken_.end());
    const uint64_t start = last->first, stop = last->second;
    untaken_.erase(last);
    if (start < end) {
      untaken_.emplace(start, end);
      untaken_rows_ -= stop - end;
    } else {
      untaken_rows_ -= stop - start;
    }
  }
}

RunningChunk::RunningChunk(DeviceMeter& meter, ChunkAssigner* assigner, size_t device,
                           uint64_t rows)
    : meter_(meter),
      assigner_(assigner),
      device_(device),
      rows_(rows),
      began_(DeviceMeter::Clock::now()) {
  meter_.begin(began_);
}

void RunningChunk::restart() {
  const DeviceMeter::Clock::time_point now = DeviceMeter::Clock::now();
  meter_.restart(began_, now);
  began_ = now;
}

RunningChunk::~RunningChunk() {
  meter_.end(rows_, began_);
  if (assigner_) assigner_->done(device_, rows_);
}

}  // namespace polyrt::scheduler
