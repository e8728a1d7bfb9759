#include "scheduler/runtime/device_chunks.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "scheduler/runtime/stop_flag.hpp"

namespace polyrt::scheduler {

namespace {

// Cuts the rows a device took into pieces of at most `piece_rows` (0: one
// piece), each in a chunk object from the device's idle ones (new when none
// is idle; `all` owns them).
void cut_into_pieces(const ChunkAssigner::Taken& taken, uint64_t piece_rows, size_t device,
                     const DeviceChunkStages& stages, std::vector<DeviceChunk*>& idle,
                     std::vector<std::unique_ptr<DeviceChunk>>& all,
                     std::vector<DeviceChunk*>& pieces) {
  const uint64_t piece = piece_rows ? piece_rows : taken.rows;
  pieces.clear();
  for (uint64_t at = 0; at < taken.rows; at += piece) {
    if (idle.empty()) {
      all.push_back(stages.make());
      idle.push_back(all.back().get());
    }
    DeviceChunk* c = idle.back();
    idle.pop_back();
    c->offset = taken.offset + at;
    c->rows = std::min(piece, taken.rows - at);
    c->device = device;
    pieces.push_back(c);
  }
}

// One run's shared state; its workers and the delivering thread meet under
// `mutex_`.
class DeviceChunkRun {
 public:
  DeviceChunkRun(uint64_t count, ChunkAssigner& assigner, std::span<const DeviceWorkers> devices,
                 const std::atomic<bool>* stop_flag, const DeviceChunkStages& stages)
      : count_(count),
        assigner_(assigner),
        devices_(devices),
        stop_flag_(stop_flag),
        stages_(stages),
        idle_(devices.size()),
        undelivered_(devices.size(), 0) {}

  void run() {
    try {
      for (size_t d = 0; d < devices_.size(); ++d) {
        for (size_t k = 0; k < devices_[d].workers; ++k)
          threads_.emplace_back([this, d] { work(d); });
      }
      deliver();
    } catch (...) {
      finish();
      throw;
    }
    finish();
    if (error_) std::rethrow_exception(error_);
    // A stop ended the taking: never return as if every row had run.
    if (cursor_ < count_ && !done_) throw_stopped(cursor_, count_);
  }

 private:
  struct Piece {
    DeviceChunk* chunk;
    bool ends_chunk;  // the last piece of its chunk that ran
    bool failed;      // its work returned false
  };

  void wait_for_room(std::unique_lock<std::mutex>& lock, const std::function<bool()>& until) {
    ++waiting_;
    room_.wait(lock, until);
    --waiting_;
  }

  // A worker of `device`: takes chunks while the device may hold more.
  void work(size_t device) {
    std::vector<DeviceChunk*> pieces;
    std::unique_lock lock(mutex_);
    while (!stop_ && !stop_requested(stop_flag_)) {
      if (undelivered_[device] >= devices_[device].undelivered) {
        wait_for_room(lock,
                      [&] { return stop_ || undelivered_[device] < devices_[device].undelivered; });
        continue;
      }
      const std::optional<ChunkAssigner::Taken> taken = assigner_.take(device);
      if (!taken) {
        if (assigner_.exhausted() || assigner_.retired(device)) break;
        const uint64_t seen = changes_;
        wait_for_room(lock, [&] { return changes_ != seen || stop_; });
        continue;
      }
      cut_into_pieces(*taken, devices_[device].piece_rows, device, stages_, idle_[device], all_,
                      pieces);
      ++undelivered_[device];
      if (!run_pieces(lock, device, pieces)) break;
    }
    delivery_.notify_one();
  }

  // Runs a taken chunk's pieces without the lock (held again on return);
  // false when one threw (the run stops).
  bool run_pieces(std::unique_lock<std::mutex>& lock, size_t device,
                  const std::vector<DeviceChunk*>& pieces) {
    lock.unlock();
    size_t ran = 0;
    bool ok = true;
    try {
      while (ok && ran < pieces.size()) ok = stages_.work(*pieces[ran++]);
    } catch (...) {
      lock.lock();
      if (!error_) error_ = std::current_exception();
      stop_ = true;
      return false;
    }
    lock.lock();
    if (!ok) {
      // Rows after the failing piece are not needed; its own are done.
      assigner_.limit(pieces[ran - 1]->offset);
      for (size_t k = ran; k < pieces.size(); ++k) idle_[device].push_back(pieces[k]);
    }
    for (size_t k = 0; k < ran; ++k) {
      worked_.emplace(pieces[k]->offset, Piece{pieces[k], k + 1 == ran, !ok && k + 1 == ran});
    }
    ++changes_;
    if (pieces[0]->offset == cursor_) delivery_.notify_one();
    if (waiting_) room_.notify_all();
    return true;
  }

  // On the calling thread: every piece worked from the cursor on, in row
  // order, delivered without the lock.
  void deliver() {
    std::vector<Piece> ready;
    std::unique_lock lock(mutex_);
    while (!done_ && cursor_ < count_ && !error_ && !stop_requested(stop_flag_)) {
      ready.clear();
      for (auto next = worked_.find(cursor_); next != worked_.end();
           next = worked_.find(ready.back().chunk->offset + ready.back().chunk->rows)) {
        ready.push_back(next->second);
        worked_.erase(next);
      }
      if (ready.empty()) {
        delivery_.wait_for(lock, std::chrono::milliseconds(50));  // signals do not notify
        continue;
      }
      lock.unlock();
      size_t delivered = 0;
      for (; delivered < ready.size() && !done_; ++delivered) {
        stages_.deliver(*ready[delivered].chunk);
        done_ = ready[delivered].failed;  // `deliver` did not raise it: nothing follows
      }
      lock.lock();
      for (size_t k = 0; k < delivered; ++k) {
        DeviceChunk* c = ready[k].chunk;
        cursor_ += c->rows;
        idle_[c->device].push_back(c);
        if (ready[k].ends_chunk) --undelivered_[c->device];
      }
      ++changes_;
      if (waiting_) room_.notify_all();
    }
  }

  void finish() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    room_.notify_all();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }

  const uint64_t count_;
  ChunkAssigner& assigner_;
  const std::span<const DeviceWorkers> devices_;
  const std::atomic<bool>* const stop_flag_;
  const DeviceChunkStages& stages_;
  std::mutex mutex_;
  std::condition_variable delivery_;  // the piece at the delivery cursor was worked
  std::condition_variable room_;      // a chunk was delivered or worked, or the run stops
  std::vector<std::unique_ptr<DeviceChunk>> all_;
  // Per device: a chunk object goes back to the device that ran it, whose
  // buffers it holds (a GPU's are page-locked and on the device).
  std::vector<std::vector<DeviceChunk*>> idle_;
  std::map<uint64_t, Piece> worked_;  // not delivered yet, by offset
  std::vector<size_t> undelivered_;
  uint64_t cursor_ = 0;   // rows delivered
  uint64_t changes_ = 0;  // what a declining worker waits for
  size_t waiting_ = 0;    // workers waiting on `room_`
  bool stop_ = false;
  bool done_ = false;  // a failed piece was delivered: nothing follows it
  std::exception_ptr error_;
  std::vector<std::thread> threads_;
};

}  // namespace

void run_device_chunks(uint64_t count, ChunkAssigner& assigner,
                       std::span<const DeviceWorkers> devices, const std::atomic<bool>* stop_flag,
                       const DeviceChunkStages& stages) {
  if (count == 0) return;
  DeviceChunkRun(count, assigner, devices, stop_flag, stages).run();
}

}  // namespace polyrt::scheduler
