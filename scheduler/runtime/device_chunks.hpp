// The pipeline of a job on several devices at once (BatchDevice::All). Each
// device has worker threads of its own (the CPU its threads, a GPU one per
// chunk it runs at once); a free worker asks the ChunkAssigner for its next
// rows, so each device's share follows its speed. `work` runs a chunk on its
// worker, piece by piece; the calling thread gets the pieces in row order
// through `deliver`. A device has at most `undelivered` chunks between take
// and delivery, which bounds the memory in flight.
//
// As with run_ordered_chunks: chunk objects (default-constructible, with
// `offset`, `rows` and `device`), one per piece, are recycled with their
// buffers; when `work` returns false the rows after the piece are no longer
// taken, and `deliver` still sees the pieces before it, then it, and
// decides what to raise. An exception from any stage stops every worker and is rethrown
// here, after they have all ended; a raised `stop` flag (stop_flag.hpp)
// throws StoppedError.
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

#include "scheduler/runtime/device_balance.hpp"
#include "scheduler/runtime/stop_flag.hpp"

namespace polyrt::scheduler {

struct DeviceWorkers {
  size_t workers = 1;      // threads taking its chunks
  size_t undelivered = 1;  // its chunks between take and delivery, at most
  // A chunk taken is run as pieces of at most this many rows (0: one piece),
  // each in a chunk object of its own: the CPU's pieces fit its caches, and
  // the pipeline's work (locks, wake-ups) is paid per chunk, not per piece.
  uint64_t piece_rows = 0;
};

// Cuts the rows a device took into pieces of at most `piece_rows` (0: one
// piece), each in a chunk object from the device's idle ones (new when none
// is idle; `all` owns them).
template <typename Chunk>
void cut_into_pieces(const ChunkAssigner::Taken& taken, uint64_t piece_rows, size_t device,
                     std::vector<Chunk*>& idle, std::vector<std::unique_ptr<Chunk>>& all,
                     std::vector<Chunk*>& pieces) {
  const uint64_t piece = piece_rows ? piece_rows : taken.rows;
  pieces.clear();
  for (uint64_t at = 0; at < taken.rows; at += piece) {
    if (idle.empty()) {
      all.push_back(std::make_unique<Chunk>());
      idle.push_back(all.back().get());
    }
    Chunk* c = idle.back();
    idle.pop_back();
    c->offset = taken.offset + at;
    c->rows = std::min(piece, taken.rows - at);
    c->device = device;
    pieces.push_back(c);
  }
}

template <typename Chunk, typename Work, typename Deliver>
void run_device_chunks(uint64_t count, ChunkAssigner& assigner,
                       std::span<const DeviceWorkers> devices, const std::atomic<bool>* stop_flag,
                       const Work& work, const Deliver& deliver) {
  if (count == 0) return;
  struct Piece {
    Chunk* chunk;
    bool ends_chunk;  // the last piece of its chunk that ran
    bool failed;      // its work returned false
  };
  std::mutex mutex;
  std::condition_variable delivery;  // the piece at the delivery cursor was worked
  std::condition_variable room;      // a chunk was delivered or worked, or the run stops
  std::vector<std::unique_ptr<Chunk>> all;
  // Per device: a chunk object goes back to the device that ran it, whose
  // buffers it holds (a GPU's are page-locked and on the device).
  std::vector<std::vector<Chunk*>> idle(devices.size());
  std::map<uint64_t, Piece> worked;  // not delivered yet, by offset
  std::vector<size_t> undelivered(devices.size(), 0);
  uint64_t cursor = 0;   // rows delivered
  uint64_t changes = 0;  // what a declining worker waits for
  size_t waiting = 0;    // workers waiting on `room`
  bool stop = false;
  std::exception_ptr error;

  const auto wait_for_room = [&](std::unique_lock<std::mutex>& lock, auto until) {
    ++waiting;
    room.wait(lock, until);
    --waiting;
  };
  const auto worker = [&](size_t device) {
    std::vector<Chunk*> pieces;
    std::unique_lock lock(mutex);
    while (!stop && !stop_requested(stop_flag)) {
      if (undelivered[device] >= devices[device].undelivered) {
        wait_for_room(lock,
                      [&] { return stop || undelivered[device] < devices[device].undelivered; });
        continue;
      }
      const std::optional<ChunkAssigner::Taken> taken = assigner.take(device);
      if (!taken) {
        if (assigner.exhausted() || assigner.retired(device)) break;
        const uint64_t seen = changes;
        wait_for_room(lock, [&] { return changes != seen || stop; });
        continue;
      }
      cut_into_pieces(*taken, devices[device].piece_rows, device, idle[device], all, pieces);
      ++undelivered[device];
      lock.unlock();
      size_t ran = 0;
      bool ok = true;
      try {
        while (ok && ran < pieces.size()) ok = work(*pieces[ran++]);
      } catch (...) {
        lock.lock();
        if (!error) error = std::current_exception();
        stop = true;
        break;
      }
      lock.lock();
      if (!ok) {
        // Rows after the failing piece are not needed; its own are done.
        assigner.limit(pieces[ran - 1]->offset);
        for (size_t k = ran; k < pieces.size(); ++k) idle[device].push_back(pieces[k]);
      }
      for (size_t k = 0; k < ran; ++k) {
        worked.emplace(pieces[k]->offset, Piece{pieces[k], k + 1 == ran, !ok && k + 1 == ran});
      }
      ++changes;
      if (pieces[0]->offset == cursor) delivery.notify_one();
      if (waiting) room.notify_all();
    }
    delivery.notify_one();
  };

  std::vector<std::thread> threads;
  const auto finish = [&] {
    {
      const std::lock_guard lock(mutex);
      stop = true;
    }
    room.notify_all();
    for (std::thread& t : threads) t.join();
    threads.clear();
  };
  bool done = false;  // a failed piece was delivered: nothing follows it
  try {
    for (size_t d = 0; d < devices.size(); ++d) {
      for (size_t k = 0; k < devices[d].workers; ++k) threads.emplace_back(worker, d);
    }
    std::vector<Piece> ready;
    std::unique_lock lock(mutex);
    while (!done && cursor < count && !error && !stop_requested(stop_flag)) {
      // Every piece worked from the cursor on, delivered without the lock.
      ready.clear();
      for (auto next = worked.find(cursor); next != worked.end();
           next = worked.find(ready.back().chunk->offset + ready.back().chunk->rows)) {
        ready.push_back(next->second);
        worked.erase(next);
      }
      if (ready.empty()) {
        delivery.wait_for(lock, std::chrono::milliseconds(50));  // signals do not notify
        continue;
      }
      lock.unlock();
      size_t delivered = 0;
      for (; delivered < ready.size() && !done; ++delivered) {
        deliver(*ready[delivered].chunk);
        done = ready[delivered].failed;  // `deliver` did not raise it: nothing follows
      }
      lock.lock();
      for (size_t k = 0; k < delivered; ++k) {
        Chunk* c = ready[k].chunk;
        cursor += c->rows;
        idle[c->device].push_back(c);
        if (ready[k].ends_chunk) --undelivered[c->device];
      }
      ++changes;
      if (waiting) room.notify_all();
    }
  } catch (...) {
    finish();
    throw;
  }
  finish();
  if (error) std::rethrow_exception(error);
  // A stop ended the taking: never return as if every row had run.
  if (cursor < count && !done) throw_stopped(cursor, count);
}

}  // namespace polyrt::scheduler
