// The GPU batch back end: the plan's kernels as PTX (ptx/ptx_compiler.hpp)
// loaded on one device and launched per chunk ("super-chunk") on the chunk's
// own non-blocking stream; host steps run on the CPU worker over the columns
// copied back; later kernels get the host's columns copied up. Chunks in
// flight each hold their stream, device columns and page-locked staging, so
// one chunk's kernels overlap another's copies and the consumer of a third.
//
// Memory: each chunk held (alone, the kGpuChunksInFlight running; beside
// other devices, kGpuChunksHeld: those running and those waiting for in-order
// delivery) has rows x 8 bytes on the device per
// word column a kernel reads or writes, and in page-locked host memory per
// word column the host reads or writes (outputs that go to the host, caller
// coordinates, host steps' columns); rows = min(4 Mi, free device memory / 4
// and 1 GiB of pinned memory shared by the chunks held), at least 64 Ki.
#pragma once

#include <memory>

#include "batch/batch_backend.hpp"
#include "batch/device_family.hpp"
#include "gpu_backend/driver/cuda_driver.hpp"

namespace polyrt::gpu {

inline constexpr size_t kGpuChunksInFlight = 3;
// Chunks it keeps states for beside other devices: those in flight, and
// those finished ahead of the delivery cursor (each keeps its host staging).
// Alone, its chunks are delivered in order as they finish: it holds those in
// flight only.
inline constexpr size_t kGpuChunksHeld = 3 * kGpuChunksInFlight;

// Throws DeviceError when the device cannot be used or a driver call fails.
std::unique_ptr<batch::BatchBackend> make_gpu_batch_backend(batch::PreparedBatch batch,
                                                            const CudaDriver& driver, int device,
                                                            bool alone);

// The CUDA GPUs as a device family: the devices of the driver loaded at run
// time (none, with the reason, without one).
const batch::DeviceFamily& cuda_gpus();

}  // namespace polyrt::gpu
