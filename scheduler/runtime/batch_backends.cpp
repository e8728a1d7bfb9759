#include "scheduler/runtime/batch_backends.hpp"

#include "cpu_backend/cpu_batch_backend.hpp"
#include "gpu_backend/gpu_batch_backend.hpp"

namespace polyrt::scheduler {

namespace {

// The device families besides the CPU, registered here: a new kind of
// device is a back-end folder implementing batch::DeviceFamily and one line.
std::vector<const batch::DeviceFamily*> device_families() {
  return {&gpu::cuda_gpus()};
}

const batch::DeviceFamily& gpu_family() {
  for (const batch::DeviceFamily* family : device_families()) {
    if (family->kind() == batch::DeviceKind::Gpu) return *family;
  }
  internal_error("no GPU device family is registered");
}

}  // namespace

ChosenBackend make_batch_backend(std::shared_ptr<const Program> program, const BatchSetup& setup,
                                 const BatchOptions& options) {
  ChosenBackend chosen;
  if (options.device.kind == BatchDevice::Gpu) {
    chosen.backends.push_back(gpu_family().make_backend(
        prepare(program, setup, gpu_family().placement()), options.device.gpu));
    chosen.gpu = options.device.gpu;
    return chosen;
  }
  chosen.backends.push_back(cpu::make_batch_backend(prepare(program, setup)));
  if (options.device.kind == BatchDevice::Cpu) return chosen;
  auto add_fallback_reason = [&](const std::string& why) {
    chosen.fallback_reason += (chosen.fallback_reason.empty() ? "" : "; ") + why;
  };
  for (const batch::DeviceFamily* family : device_families()) {
    std::string why_none;
    const std::vector<int> usable = family->usable_devices(why_none);
    if (!why_none.empty()) add_fallback_reason(why_none);
    for (int index : usable) {
      try {
        chosen.backends.push_back(
            family->make_backend(prepare(program, setup, family->placement()), index));
        if (chosen.gpu < 0 && family->kind() == batch::DeviceKind::Gpu) chosen.gpu = index;
      } catch (const DeviceError& e) {
        // A device that cannot run the batch leaves the others to it.
        add_fallback_reason(e.what());
      } catch (const InternalError& e) {
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
