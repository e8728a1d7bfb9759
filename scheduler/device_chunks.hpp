// The pipeline of a job on several devices at once (BatchDevice::All). Each
// device has worker threads of its own (the CPU its threads, a GPU one per
// chunk it runs at once); a free worker asks the ChunkAssigner for its next
// rows, so each device's share follows its speed. `work` runs a chunk on its
// worker; the calling thread gets the chunks in row order through `deliver`.
// A device has at most `undelivered` chunks between take and delivery, which
// bounds the memory in flight.
//
// As with run_ordered_chunks: chunk objects (default-constructible, with
// `offset`, `rows` and `device`) are recycled with their buffers; when
// `work` returns false the rows after the chunk are no longer taken, and
// `deliver` still sees the chunks before it, then it, and decides what to
// raise. An exception from any stage stops every worker and is rethrown
// here, after they have all ended; a stop signal (Interruption) throws
// InterruptedError.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "scheduler/device_balance.hpp"
#include "scheduler/interruption.hpp"

namespace polyrt::scheduler {

struct DeviceWorkers {
  size_t workers = 1;      // threads taking its chunks
  size_t undelivered = 1;  // its chunks between take and delivery, at most
};

template <typename Chunk, typename Work, typename Deliver>
void run_device_chunks(uint64_t count, ChunkAssigner& assigner,
                       std::span<const DeviceWorkers> devices, const Work& work,
                       const Deliver& deliver) {
  if (count == 0) return;
  std::mutex mutex;
  std::condition_variable changed;  // a chunk was worked or delivered, or the run stops
  std::vector<std::unique_ptr<Chunk>> all;
  // Per device: a chunk goes back to the device that ran it, whose buffers
  // it holds (a GPU's are page-locked and on the device).
  std::vector<std::vector<Chunk*>> idle(devices.size());
  std::map<uint64_t, Chunk*> worked;  // not delivered yet, by offset
  std::vector<size_t> undelivered(devices.size(), 0);
  std::optional<uint64_t> failed_at;  // the first failing chunk's offset
  uint64_t changes = 0;               // what a declining worker waits for
  bool stop = false;
  std::exception_ptr error;

  const auto worker = [&](size_t device) {
    std::unique_lock lock(mutex);
    while (!stop && !Interruption::requested()) {
      if (undelivered[device] >= devices[device].undelivered) {
        changed.wait(lock);
        continue;
      }
      const std::optional<ChunkAssigner::Taken> taken = assigner.take(device);
      if (!taken) {
        if (assigner.exhausted()) break;
        const uint64_t seen = changes;
        changed.wait(lock, [&] { return changes != seen || stop; });
        continue;
      }
      if (idle[device].empty()) {
        all.push_back(std::make_unique<Chunk>());
        idle[device].push_back(all.back().get());
      }
      Chunk* c = idle[device].back();
      idle[device].pop_back();
      c->offset = taken->offset;
      c->rows = taken->rows;
      c->device = device;
      ++undelivered[device];
      lock.unlock();
      bool ok = false;
      try {
        ok = work(*c);
      } catch (...) {
        lock.lock();
        if (!error) error = std::current_exception();
        stop = true;
        break;
      }
      lock.lock();
      if (!ok) {
        assigner.limit(c->offset);
        if (!failed_at || c->offset < *failed_at) failed_at = c->offset;
      }
      worked.emplace(c->offset, c);
      ++changes;
      changed.notify_all();
    }
    changed.notify_all();
  };

  std::vector<std::thread> threads;
  const auto finish = [&] {
    {
      const std::lock_guard lock(mutex);
      stop = true;
    }
    changed.notify_all();
    for (std::thread& t : threads) t.join();
    threads.clear();
  };
  try {
    for (size_t d = 0; d < devices.size(); ++d) {
      for (size_t k = 0; k < devices[d].workers; ++k) threads.emplace_back(worker, d);
    }
    uint64_t delivered = 0;
    std::unique_lock lock(mutex);
    while (delivered < count && !error && !Interruption::requested()) {
      const auto next = worked.find(delivered);
      if (next == worked.end()) {
        changed.wait_for(lock, std::chrono::milliseconds(50));  // signals do not notify
        continue;
      }
      Chunk* c = next->second;
      worked.erase(next);
      lock.unlock();
      deliver(*c);
      lock.lock();
      if (failed_at == c->offset) break;  // `deliver` did not raise it: nothing follows
      delivered += c->rows;
      idle[c->device].push_back(c);
      --undelivered[c->device];
      ++changes;
      changed.notify_all();
    }
  } catch (...) {
    finish();
    throw;
  }
  finish();
  if (error) std::rethrow_exception(error);
  // A signal stopped the taking: never return as if every row had run.
  Interruption::stop_if_requested();
}

}  // namespace polyrt::scheduler
