#include "scheduler/runtime/batch_backends.hpp"

#include "cpu_backend/cpu_batch_backend.hpp"
#include "gpu_backend/gpu_batch_backend.hpp"

namespace polyrt::scheduler {

ChosenBackend make_batch_backend(std::shared_ptr<const Program> program, const BatchSetup& setup,
                                 const BatchOptions& options) {
  ChosenBackend chosen;
  if (options.device == BatchDevice::Gpu) {
    const gpu::CudaDriver* driver = gpu::CudaDriver::get();
    if (!driver) throw DeviceError("no usable GPU: " + gpu::CudaDriver::unavailable_reason());
    chosen.backends.push_back(
        gpu::make_gpu_batch_backend(prepare(program, setup), *driver, options.gpu));
    chosen.gpu = options.gpu;
    return chosen;
  }
  chosen.backends.push_back(cpu::make_batch_backend(prepare(program, setup)));
  if (options.device == BatchDevice::Cpu) return chosen;
  const gpu::CudaDriver* driver = gpu::CudaDriver::get();
  if (!driver) {
    chosen.fallback_reason = gpu::CudaDriver::unavailable_reason();
    return chosen;
  }
  for (const gpu::GpuDevice& d : driver->devices()) {
    try {
      chosen.backends.push_back(
          gpu::make_gpu_batch_backend(prepare(program, setup), *driver, d.ordinal));
      if (chosen.gpu < 0) chosen.gpu = d.ordinal;
    } catch (const DeviceError& e) {
      // A GPU that cannot run the batch leaves the others to it.
      chosen.fallback_reason +=
          (chosen.fallback_reason.empty() ? "" : "; ") + std::string(e.what());
    }
  }
  // All's device-resident output is refused (its rows span devices).
  if (options.device == BatchDevice::All) chosen.gpu = -1;
  return chosen;
}

}  // namespace polyrt::scheduler
