// The GPU back end's resource pool: what a chunk in flight holds on the
// device (its stream, columns, staging, scans), kept between runs because
// allocating device and page-locked memory is slow on real drivers, and
// lent to a chunk for as long as it lives.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "batch/chunk_buffers.hpp"
#include "gpu_backend/chunk_trace.hpp"
#include "gpu_backend/driver/device_resources.hpp"

namespace polyrt::gpu {

// The scan of a chunk's bytes per segment of kTextSegmentRows rows (text
// compaction, row encoding): a sum per segment, one per group of
// kTextScanGroup segments and their total, and the total's copy on the host.
struct SegmentScan {
  DeviceBuffer sums, group_sums;
  PinnedBuffer total;
};

// What a chunk in flight holds on the device: its stream, columns and
// staging. Kept by the back end between runs (see ChunkPool): allocating
// device and page-locked memory is slow on real drivers.
struct GpuChunkState {
  explicit GpuChunkState(const GpuContext& context) : stream(context) {}
  GpuStream stream;
  uint64_t capacity = 0;             // rows
  std::vector<DeviceBuffer> device;  // per plan column (none for a host-made str)
  std::vector<PinnedBuffer> host;    // per plan column (none for a host-made str)
  // Per plan column, a device-made text the host reads: its Arrow layout,
  // compacted on the device (codegen/text_compaction.hpp), then copied.
  struct PackedText {
    SegmentScan scan;
    DeviceBuffer offsets, bytes;
    PinnedBuffer host_offsets, host_bytes;
  };
  std::vector<PackedText> packed;
  // Text rows encoded on the device (BatchPlan::rows_on_device): the scan
  // of their segments' bytes, the fields' layout (device_rows.hpp), and the
  // rows' bytes on both sides (grown to the largest chunk's).
  struct EncodedRows {
    SegmentScan scan;
    PinnedBuffer layout_on_host;
    DeviceBuffer layout, bytes;
    PinnedBuffer host_bytes;
    uint64_t layout_capacity = 0, bytes_capacity = 0;
  } rows;
  DeviceBuffer failure_words;           // per step
  PinnedBuffer failure_words_on_host;   // per step
  std::vector<PinnedBuffer> generated;  // per output: lane or scalar words to copy up
  PinnedBuffer text_staging;            // a host-made text's offsets and bytes to copy up
  // Per plan column, for this run: the caller's device memory a kernel
  // writes it to directly (evaluate_on_device), or 0 for `device`.
  std::vector<cuda::CUdeviceptr> targets;
  cuda::CUdeviceptr column_address(uint32_t c) const {
    return targets[c] ? targets[c] : device[c].address();
  }
  // POLYRT_GPU_TRACE's record of the chunk now run on it, or null.
  std::unique_ptr<ChunkTrace> trace;

  // The page-locked bytes it holds.
  uint64_t pinned_bytes() const {
    uint64_t n = rows.layout_on_host.bytes() + rows.host_bytes.bytes() +
                 failure_words_on_host.bytes() + text_staging.bytes();
    for (const PinnedBuffer& b : host) n += b.bytes();
    for (const PinnedBuffer& b : generated) n += b.bytes();
    for (const PackedText& t : packed) n += t.host_offsets.bytes() + t.host_bytes.bytes();
    return n;
  }
};

// Idle chunk states of a back end: every state it made, kept for its life
// (under --device all a GPU has up to 9 chunks between take and delivery,
// each holding one; dropping all but 3 after a call made every later call
// allocate the rest again).
class ChunkPool {
 public:
  std::unique_ptr<GpuChunkState> take(const GpuContext& context) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        std::unique_ptr<GpuChunkState> state = std::move(idle_.back());
        idle_.pop_back();
        return state;
      }
    }
    return std::make_unique<GpuChunkState>(context);
  }
  void give_back(std::unique_ptr<GpuChunkState> state) {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(std::move(state));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<GpuChunkState>> idle_;
};

// A chunk's GPU resources, lent by the pool for as long as the chunk lives.
struct GpuChunk final : batch::ChunkResources {
  GpuChunk(ChunkPool& pool, const GpuContext& context) : pool(pool), state(pool.take(context)) {}
  // A chunk abandoned mid-run (another chunk threw) may still have copies
  // and kernels queued on its stream: they finish before the pool reuses it;
  // a stream that fails to finish is not reused.
  ~GpuChunk() override {
    try {
      state->stream.synchronize();
      pool.give_back(std::move(state));
    } catch (const Error&) {
    }
  }
  ChunkPool& pool;
  std::unique_ptr<GpuChunkState> state;
};

}  // namespace polyrt::gpu
