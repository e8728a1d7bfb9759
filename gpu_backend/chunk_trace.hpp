// POLYRT_GPU_TRACE=1: one line on standard error per GPU chunk, saying where
// its time went, from CUDA events recorded on the chunk's stream between the
// operations it queues: each kernel (its name, the blocks launched and its
// time), the copies to the host, and before them the host's prepare of the
// chunk's buffers and the page-locked bytes they hold. What bounds a real
// device's rows (the SMs a kernel fills, the link, page-locking) reads off
// the lines of one run. Without the variable nothing is recorded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu_backend/driver/device_resources.hpp"

namespace polyrt::gpu {

class ChunkTrace {
 public:
  // Whether POLYRT_GPU_TRACE=1 (read once per process).
  static bool enabled();

  explicit ChunkTrace(const GpuContext& context) : context_(context) {}
  ~ChunkTrace();
  ChunkTrace(const ChunkTrace&) = delete;
  ChunkTrace& operator=(const ChunkTrace&) = delete;

  // The host's prepare of the chunk's buffers: its time and the page-locked
  // bytes the chunk's state holds.
  void prepared(double ms, uint64_t pinned_bytes);
  // A new chunk's first mark on `stream`.
  void begin(cuda::CUstream stream);
  // Marks the end of what was queued on `stream` since the last mark: a
  // kernel (`blocks` launched) or, with blocks 0, copies.
  void mark(cuda::CUstream stream, std::string what, unsigned blocks = 0);
  // The chunk's line, once its stream has run everything marked (after a
  // synchronize): "polyrt: gpu 0 chunk FIRST+ROWS: ...". Empty without marks.
  std::string line(uint64_t first, uint64_t rows);

 private:
  struct Mark {
    std::string what;
    unsigned blocks;
  };
  cuda::CUevent event(size_t k);

  const GpuContext& context_;
  std::vector<cuda::CUevent> events_;  // reused chunk after chunk
  std::vector<Mark> marks_;            // marks_[k] ends at events_[k + 1]
  double prepare_ms_ = 0;
  uint64_t pinned_bytes_ = 0;
};

}  // namespace polyrt::gpu
