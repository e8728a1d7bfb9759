// The CPU batch back end: the plan's kernels compiled by the process JIT into
// vectorized row loops, host steps on the calling thread. One back end serves
// every thread; each chunk in flight owns its buffers.
#pragma once

#include <memory>

#include "batch/batch_backend.hpp"
#include "batch/device_family.hpp"

namespace polyrt::cpu {

std::unique_ptr<batch::BatchBackend> make_batch_backend(batch::PreparedBatch batch);

// The CPU as a device family (batch/device_family.hpp): "cpu", device 0.
const batch::DeviceFamily& cpu_family();

}  // namespace polyrt::cpu
