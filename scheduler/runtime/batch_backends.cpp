#include "scheduler/runtime/batch_backends.hpp"

#include "scheduler/runtime/device_families.hpp"

namespace polyrt::scheduler {

namespace {

// Whether a batch on `device` runs on the devices of a family of `kind`:
// Auto and All take every family's (Auto then chooses by speed).
bool runs_on(BatchDevice device, batch::DeviceKind kind) {
  switch (device) {
    case BatchDevice::Cpu:
      return kind == batch::DeviceKind::Cpu;
    case BatchDevice::Gpu:
      return kind == batch::DeviceKind::Gpu;
    case BatchDevice::Auto:
    case BatchDevice::All:
      return true;
  }
  return false;
}

}  // namespace

ChosenBackend make_batch_backend(std::shared_ptr<const Program> program, const BatchSetup& setup,
                                 const BatchOptions& options) {
  ChosenBackend chosen;
  if (options.device.kind == BatchDevice::Gpu) {
    // The GPU asked for, by its index: a DeviceError when it cannot run.
    const batch::DeviceFamily& gpus = family_of(batch::DeviceKind::Gpu);
    chosen.backends.push_back(
        gpus.make_backend(prepare(program, setup, gpus.placement()), options.device.gpu, true));
    chosen.gpu = options.device.gpu;
    return chosen;
  }
  auto add_fallback_reason = [&](const std::string& why) {
    chosen.fallback_reason += (chosen.fallback_reason.empty() ? "" : "; ") + why;
  };
  for (const batch::DeviceFamily* family : device_families()) {
    if (!runs_on(options.device.kind, family->kind())) continue;
    std::string why_none;
    const std::vector<int> usable = family->usable_devices(why_none);
    if (!why_none.empty()) add_fallback_reason(why_none);
    for (int index : usable) {
      try {
        chosen.backends.push_back(
            family->make_backend(prepare(program, setup, family->placement()), index, false));
        if (chosen.gpu < 0 && family->kind() == batch::DeviceKind::Gpu) chosen.gpu = index;
      } catch (const DeviceError& e) {
        // The CPU runs what no other device can: its failure is the batch's.
        if (family->kind() == batch::DeviceKind::Cpu) throw;
        // A device that cannot run the batch leaves the others to it.
        add_fallback_reason(e.what());
      } catch (const InternalError& e) {
        if (family->kind() == batch::DeviceKind::Cpu) throw;
        // So does one whose code polyrt fails to generate (a bug the message
        // asks to report), which the caller warns of.
        add_fallback_reason(e.what());
        chosen.left_out.push_back(e.what());
      }
    }
  }
  // All's device-resident output is refused (its rows span devices).
  if (options.device.kind == BatchDevice::All) chosen.gpu = -1;
  return chosen;
}

}  // namespace polyrt::scheduler
