// The pipeline of a job on several devices at once (BatchDevice::All). Each
// device has worker threads of its own (the CPU its threads, a GPU one per
// chunk it runs at once); a free worker asks the ChunkAssigner for its next
// rows, so each device's share follows its speed. `work` runs a chunk on its
// worker, piece by piece; the calling thread gets the pieces in row order
// through `deliver`. A device has at most `undelivered` chunks between take
// and delivery, which bounds the memory in flight.
//
// As with run_ordered_chunks: chunk objects (a DeviceChunk each, made by
// `make`), one per piece, are recycled with their buffers; when `work` returns false the rows after
// the piece are no longer taken, and `deliver` still sees the pieces before it, then it, and
// decides what to raise. An exception from any stage stops every worker and is rethrown
// here, after they have all ended; a raised `stop` flag (stop_flag.hpp)
// throws StoppedError.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <type_traits>

#include "scheduler/runtime/device_balance.hpp"

namespace polyrt::scheduler {

struct DeviceWorkers {
  size_t workers = 1;      // threads taking its chunks
  size_t undelivered = 1;  // its chunks between take and delivery, at most
  // A chunk taken is run as pieces of at most this many rows (0: one piece),
  // each in a chunk object of its own: the CPU's pieces fit its caches, and
  // the pipeline's work (locks, wake-ups) is paid per chunk, not per piece.
  uint64_t piece_rows = 0;
};

// What the pipeline reads and writes of a chunk object: its rows, and the
// device that runs it (whose buffers it then keeps).
struct DeviceChunk {
  uint64_t offset = 0;  // rows before it
  uint64_t rows = 0;
  size_t device = 0;
  virtual ~DeviceChunk() = default;
};

struct DeviceChunkStages {
  std::function<std::unique_ptr<DeviceChunk>()> make;
  std::function<bool(DeviceChunk&)> work;
  std::function<void(DeviceChunk&)> deliver;
};

void run_device_chunks(uint64_t count, ChunkAssigner& assigner,
                       std::span<const DeviceWorkers> devices, const std::atomic<bool>* stop_flag,
                       const DeviceChunkStages& stages);

// The same over chunk objects of type Chunk (a DeviceChunk).
template <typename Chunk, typename Work, typename Deliver>
void run_device_chunks(uint64_t count, ChunkAssigner& assigner,
                       std::span<const DeviceWorkers> devices, const std::atomic<bool>* stop_flag,
                       const Work& work, const Deliver& deliver) {
  static_assert(std::is_base_of_v<DeviceChunk, Chunk>);
  run_device_chunks(count, assigner, devices, stop_flag,
                    DeviceChunkStages{
                        .make = [] { return std::make_unique<Chunk>(); },
                        .work = [&](DeviceChunk& c) { return work(static_cast<Chunk&>(c)); },
                        .deliver = [&](DeviceChunk& c) { deliver(static_cast<Chunk&>(c)); },
                    });
}

}  // namespace polyrt::scheduler
