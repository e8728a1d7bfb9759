// A kind of device besides the CPU that batches run on: one per back-end
// folder (the GPU back end's is CUDA), registered in one table
// (scheduler/runtime/batch_backends.cpp). The evaluator asks a family which
// of its devices this process can use and makes a back end per device; it
// never names a driver or a device type of its own.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "batch/batch_backend.hpp"

namespace polyrt::batch {

class DeviceFamily {
 public:
  virtual ~DeviceFamily() = default;
  virtual DeviceKind kind() const = 0;
  // How batch plans place their kernels for its devices (a GPU's also write
  // device text).
  virtual plan::PlanPlacement placement() const = 0;
  // The indices of its devices this process can use now (an index of
  // `polyrt devices`); none with `why_none` saying why (no driver, ...).
  virtual std::vector<int> usable_devices(std::string& why_none) const = 0;
  // A back end running `batch` on device `index`. Throws DeviceError when
  // that device cannot run it (or is not one of its devices).
  virtual std::unique_ptr<BatchBackend> make_backend(PreparedBatch batch, int index) const = 0;
};

}  // namespace polyrt::batch
