// Copies between device memory and pageable host memory (a caller's
// vector) through page-locked staging of a bounded size: two pieces of at
// most kStagingPieceBytes, in turn, each on a stream of its own, so that one
// piece's transfer overlaps the other's memcpy. Pinning a whole column
// instead took its size in locked memory (gigabytes for a large
// device-resident column) and the page-locking's time, about its size over
// a few GB/s.
#pragma once

#include <cstdint>

#include "gpu_backend/driver/device_resources.hpp"

namespace polyrt::gpu {

inline constexpr uint64_t kStagingPieceBytes = uint64_t{8} << 20;

// Throws DeviceError naming the driver call that failed.
void copy_device_to_host(const GpuContext& context, uint64_t address, void* out, uint64_t bytes);
void copy_host_to_device(const GpuContext& context, const void* in, uint64_t address,
                         uint64_t bytes);

}  // namespace polyrt::gpu
