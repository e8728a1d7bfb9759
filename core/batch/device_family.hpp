// A kind of device that batches run on: one per back-end folder (the CPU's,
// the GPU back end's CUDA), registered in one table
// (scheduler/runtime/device_families.cpp). The evaluator asks a family which
// of its devices this process can use and makes a back end per device;
// `polyrt devices` asks it to describe itself. Nothing above names a driver
// or a device type of its own.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "batch/batch_backend.hpp"
#include "polyrt/code_target.hpp"
#include "polyrt/device_info.hpp"

namespace polyrt::batch {

class DeviceFamily {
 public:
  virtual ~DeviceFamily() = default;
  // Its name: "cpu", "cuda".
  virtual std::string_view name() const = 0;
  virtual DeviceKind kind() const = 0;
  // How batch plans place their kernels for its devices (a GPU's also write
  // device text).
  virtual plan::PlanPlacement placement() const = 0;
  // Its devices and its own facts, whether usable or not (a faulted GPU is
  // listed with its fault), or why it has none.
  virtual DeviceFamilyInfo describe() const = 0;
  // The indices of its devices this process can use now (an index of
  // `polyrt devices`); none with `why_none` saying why (no driver, ...).
  virtual std::vector<int> usable_devices(std::string& why_none) const = 0;
  // A back end running `batch` on device `index`, `alone` or beside other
  // devices (--device all|auto: a device then also holds chunks finished
  // ahead of in-order delivery, so it budgets its memory for more of them).
  // Throws DeviceError when that device cannot run it (or is not one of its
  // devices).
  virtual std::unique_ptr<BatchBackend> make_backend(PreparedBatch batch, int index,
                                                     bool alone) const = 0;

  // The code it generates for a batch, as people read it (`polyrt plan`,
  // polyrt/introspect.hpp): LLVM IR as emitted or optimized, the assembly
  // it runs (PTX for CUDA), or what each kernel uses of a device (a GPU's
  // registers, spills and occupancy; "" for none). `target` is a GPU
  // family's code target; a CPU ignores it. Needs no device or driver.
  enum class KernelText : uint8_t { EmittedIr, OptimizedIr, Assembly, Resources };
  virtual std::string kernel_text(const PreparedBatch& batch, KernelText what,
                                  const GpuTarget& target) const = 0;
  // Throws polyrt::Error naming the valid ones for a target it cannot
  // generate code for.
  virtual void check_target(const GpuTarget&) const {}
  // Its valid targets, for messages and help ("60, 61, 62, 70, ..."); "" for none.
  virtual std::string valid_targets() const { return ""; }
};

}  // namespace polyrt::batch
