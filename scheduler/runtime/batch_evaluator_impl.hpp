// BatchEvaluator's state: the back ends it resolved from the options, their
// scheduling and the devices' measured speeds, the chunk buffers it
// recycles. Only the evaluator's own files include it (batch_evaluator.cpp,
// devices_call.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "polyrt/batch.hpp"
#include "scheduler/runtime/batch_backends.hpp"
#include "scheduler/runtime/batch_setup.hpp"
#include "scheduler/runtime/device_balance.hpp"

namespace polyrt {

// The most bytes of fixed-size vector outputs one chunk holds by default.
inline constexpr uint64_t kChunkVectorBytes = uint64_t{64} << 20;

struct BatchEvaluator::Impl {
  BatchOptions options;
  scheduler::BatchSetup setup;
  // One back end, or for BatchDevice::All (and Auto with a usable GPU) the
  // CPU then each GPU. They run the same program, outputs and scalars, read
  // from the first; their plans may differ (a GPU's kernels also write
  // device text), so a chunk is read through its own back end's plan.
  std::vector<std::unique_ptr<batch::BatchBackend>> backends;
  std::string fallback_reason;        // Auto or All without a GPU: why no GPU
  std::vector<std::string> left_out;  // ChosenBackend::left_out
  int gpu = -1;                       // the GPU of device-resident output (ChosenBackend::gpu)
  // With several back ends, what each can take; for every back end, its rows
  // and times over this evaluator's life (measured speeds carry over to
  // later runs).
  std::vector<scheduler::DeviceLimits> limits;
  std::unique_ptr<scheduler::DeviceMeter[]> meters;
  // BatchDevice::Auto with a usable GPU: the devices it chose (empty until
  // every device is measured), and why.
  mutable std::mutex auto_lock;
  mutable std::vector<uint8_t> auto_use;
  mutable std::string auto_reason;
  bool automatic() const { return options.device.kind == BatchDevice::Auto && backends.size() > 1; }
  // Auto's devices once every device's speed is measured (else empty).
  std::vector<uint8_t> auto_devices() const;
  // The first rows of an Auto run, which run on every device to measure it.
  uint64_t auto_probe_rows() const;
  // Auto after a GPU fault: the CPU alone from then on.
  void auto_cpu_only(const std::string& why) const;
  // GPUs that faulted under BatchDevice::All or Auto (device_faults), once each.
  mutable std::mutex faults_lock;
  mutable std::vector<std::pair<size_t, std::string>> faults;
  void note_fault(size_t b, const std::string& what) const {
    const std::lock_guard lock(faults_lock);
    for (const auto& [device, message] : faults) {
      if (device == b) return;
    }
    faults.emplace_back(b, backends[b]->device_name() + ": " + what);
  }

  // Chunk buffers' host columns kept from one call to the next (a call's
  // chunks give theirs back when it ends): a small call then neither
  // allocates nor faults pages in (evaluate_into of 16 Ki ladder rows spent
  // a third of its time so). At most kPooledBuffers sets.
  static constexpr size_t kPooledBuffers = 64;
  mutable std::mutex pool_lock;
  mutable std::vector<std::vector<batch::ChunkBuffers>> buffer_pool;
  std::vector<batch::ChunkBuffers> take_buffers() const {
    const std::lock_guard lock(pool_lock);
    if (buffer_pool.empty()) return std::vector<batch::ChunkBuffers>(backends.size());
    std::vector<batch::ChunkBuffers> out = std::move(buffer_pool.back());
    buffer_pool.pop_back();
    return out;
  }
  void give_back(std::vector<batch::ChunkBuffers>&& buffers) const {
    // A back end's resources (a GPU's streams and device memory) go back
    // to its own pool now, as they did when a call's buffers died: a set
    // kept here may next run on another device.
    for (batch::ChunkBuffers& b : buffers) b.resources.reset();
    const std::lock_guard lock(pool_lock);
    if (buffer_pool.size() < kPooledBuffers) buffer_pool.push_back(std::move(buffers));
  }

  const batch::BatchBackend& primary() const { return *backends[0]; }
  const plan::BatchPlan& plan() const { return primary().batch().plan; }
  // The caller's choice, else the back end's, else the default, shortened
  // so that a chunk's fixed-size vectors take at most kChunkVectorBytes
  // (8192 rows of hash_vec(c, 65536) would be 4 GiB a chunk).
  // `resident`: for a run whose outputs go to the caller's device memory.
  uint64_t chunk_rows(const batch::BatchBackend& backend, bool resident = false) const {
    if (options.chunk_rows) return options.chunk_rows;
    const batch::SchedulingLimits policy = backend.scheduling();
    const uint64_t preferred = resident && policy.resident_chunk_rows ? policy.resident_chunk_rows
                                                                      : policy.preferred_chunk_rows;
    const uint64_t rows = preferred ? preferred : kDefaultChunkRows;
    uint64_t vector_bytes = 0;
    for (size_t o = 0; o < setup.types.size(); ++o) {
      if (is_vector(setup.types[o]) && setup.dimensions[o]) {
        vector_bytes += *setup.dimensions[o] * vector_element_width(setup.types[o]);
      }
    }
    return vector_bytes == 0 ? rows
                             : std::clamp<uint64_t>(kChunkVectorBytes / vector_bytes, 1, rows);
  }
  // With several back ends, the frontier's index: it takes over the rows of
  // a device that faults (the CPU); none (-1) on one GPU.
  int frontier = -1;
  // The first GPU's index, where Auto's device-resident output goes (-1: none).
  int first_gpu = -1;
  // How many chunks back end `b` runs at once.
  size_t capacity(size_t b) const;
  // What back end `b` can take among several.
  scheduler::DeviceLimits limits_of(size_t b) const;

  // `rows`: text rows a back end may encode where it made a chunk (ChunkBuffers::encode_rows).
  template <typename Encoded, typename Encode, typename Write>
  void run(uint64_t first, uint64_t count, std::span<const uint64_t* const> columns,
           const Encode& encode, const Write& write, std::span<uint64_t* const> targets = {},
           std::span<const uint64_t> device_targets = {}, const batch::RowEncoding* rows = nullptr,
           std::span<batch::DeviceText* const> device_texts = {}) const;
  // run() on the back ends `use` marks (one: in order on it; several: the
  // devices' own workers).
  template <typename Encoded, typename Encode, typename Write>
  void run_on_devices(const std::vector<uint8_t>& use, uint64_t first, uint64_t count,
                      std::span<const uint64_t* const> columns, const Encode& encode,
                      const Write& write, std::span<uint64_t* const> targets,
                      std::span<const uint64_t> device_targets, const batch::RowEncoding* rows,
                      std::span<batch::DeviceText* const> device_texts) const;
  template <typename Encoded, typename Encode, typename Write>
  class DevicesCall;
  void chunk_view(const batch::PreparedBatch& batch, const batch::ChunkBuffers& buffers,
                  uint64_t first, ColumnChunk& view) const;
  [[noreturn]] void raise_failure(uint64_t coordinate, uint64_t row,
                                  std::span<const uint64_t* const> columns) const;
  // `call` got `given` word arrays: one per output, and no payload output
  // (but text ones where `text_ok`) nor, unless `narrow_ok`, an output
  // narrower than 8 bytes.
  void require_word_columns(const char* call, size_t given, bool narrow_ok = false,
                            bool text_ok = false) const;
};

}  // namespace polyrt
