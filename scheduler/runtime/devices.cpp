#include "polyrt/devices.hpp"

#include "scheduler/runtime/device_families.hpp"

namespace polyrt {

namespace {

std::string_view kind_name(DeviceKind kind) {
  return kind == DeviceKind::Cpu ? "cpu" : "gpu";
}

}  // namespace

std::vector<DeviceInfo> Devices::of_kind(DeviceKind kind) const {
  std::vector<DeviceInfo> out;
  for (const DeviceFamilyInfo& family : families) {
    if (family.kind != kind) continue;
    out.insert(out.end(), family.devices.begin(), family.devices.end());
  }
  return out;
}

std::string Devices::why_none(DeviceKind kind) const {
  if (!of_kind(kind).empty()) return "";
  std::string why;
  for (const DeviceFamilyInfo& family : families) {
    if (family.kind == kind && !family.why_none.empty()) {
      why += (why.empty() ? "" : "; ") + family.why_none;
    }
  }
  return why;
}

Devices devices() {
  Devices out;
  for (const batch::DeviceFamily* family : scheduler::device_families()) {
    out.families.push_back(family->describe());
  }
  return out;
}

std::string describe_devices(const Devices& d) {
  std::string out;
  for (const DeviceKind kind : {DeviceKind::Cpu, DeviceKind::Gpu}) {
    const std::vector<DeviceInfo> here = d.of_kind(kind);
    if (here.empty()) out += std::string(kind_name(kind)) + ": none (" + d.why_none(kind) + ")\n";
    for (const DeviceInfo& device : here) {
      out += device.description;
      out += device.fault.empty() ? "\n" : "; unusable: it faulted (" + device.fault + ")\n";
    }
  }
  return out;
}

}  // namespace polyrt
