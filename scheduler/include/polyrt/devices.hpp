// What the batch tier can run on here: every registered device family (the
// CPU first, then the GPUs' drivers) with its devices, or why it has none.
// `polyrt devices` prints describe_devices(devices()); Python's
// polyrt.devices() returns the same facts.
#pragma once

#include <string>
#include <vector>

#include "polyrt/device_info.hpp"

namespace polyrt {

struct Devices {
  std::vector<DeviceFamilyInfo> families;  // in registration order, the CPU first

  // Every device of `kind`, family by family.
  std::vector<DeviceInfo> of_kind(DeviceKind kind) const;
  // Why no device of `kind` is here: the families' reasons ("" when one is).
  std::string why_none(DeviceKind kind) const;
};

// Asks every family (loading the GPU drivers on the first call); never
// fails: a family that cannot be used says why instead.
Devices devices();

// The lines `polyrt devices` prints: each device's, a faulted one's fault,
// and for a kind with no device, why ("gpu: none (...)").
std::string describe_devices(const Devices& devices);

}  // namespace polyrt
