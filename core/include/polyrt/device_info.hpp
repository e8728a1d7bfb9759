// What a device family says of itself and its devices, in terms every
// family shares: `polyrt devices`, Python's polyrt.devices() and the bench
// read these, never a driver's own types. A family's own facts (a CUDA
// GPU's compute capability, the driver's version) are its properties.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "polyrt/device_kind.hpp"
#include "polyrt/value.hpp"

namespace polyrt {

// Facts by name, in the order a family lists them ("cores", "memory_bytes").
using DeviceProperties = std::vector<std::pair<std::string, Value>>;

// The value of property `key`, or null.
const Value* find_property(const DeviceProperties& properties, std::string_view key);

struct DeviceInfo {
  std::string family;  // its family's name: "cpu", "cuda"
  DeviceKind kind = DeviceKind::Cpu;
  int index = 0;     // among its family's devices: --device gpu and BatchOptions::gpu name it
  std::string name;  // "NVIDIA H200"; the CPU the JIT targets
  DeviceProperties properties;
  // Its line in `polyrt devices` ("gpu 0: NVIDIA H200, sm_90, 132 SMs, ...").
  std::string description;
  // Set once a sticky fault made it unusable for the rest of the process.
  std::string fault;
};

struct DeviceFamilyInfo {
  std::string name;  // "cpu", "cuda"
  DeviceKind kind = DeviceKind::Cpu;
  // The family's own facts (a CUDA driver's "driver_version", "driver_library").
  DeviceProperties properties;
  std::vector<DeviceInfo> devices;
  // With no device: why (no driver library, the toolkit's stub, no device, ...).
  std::string why_none;
};

}  // namespace polyrt
