#include "scheduler/batch_backends.hpp"

#include "cpu_backend/cpu_batch_backend.hpp"
#include "gpu_backend/gpu_batch_backend.hpp"

namespace polyrt::scheduler {

ChosenBackend make_batch_backend(std::shared_ptr<const Program> program, const BatchSetup& setup,
                                 const BatchOptions& options) {
  ChosenBackend chosen;
  if (options.device == BatchDevice::All) {
    chosen.backends.push_back(cpu::make_batch_backend(prepare(program, setup)));
    const gpu::CudaDriver* driver = gpu::CudaDriver::get();
    if (!driver) {
      chosen.fallback_reason = gpu::CudaDriver::unavailable_reason();
      return chosen;
    }
    for (const gpu::GpuDevice& d : driver->devices()) {
      try {
        chosen.backends.push_back(
            gpu::make_gpu_batch_backend(prepare(program, setup), *driver, d.ordinal));
      } catch (const DeviceError& e) {
        // A GPU that cannot run the batch leaves the others to it.
        chosen.fallback_reason +=
            (chosen.fallback_reason.empty() ? "" : "; ") + std::string(e.what());
      }
    }
    return chosen;
  }
  if (options.device != BatchDevice::Cpu) {
    const gpu::CudaDriver* driver = gpu::CudaDriver::get();
    if (!driver && options.device == BatchDevice::Gpu) {
      throw DeviceError("no usable GPU: " + gpu::CudaDriver::unavailable_reason());
    }
    if (driver) {
      try {
        const int ordinal = options.device == BatchDevice::Gpu ? options.gpu : 0;
        chosen.backends.push_back(
            gpu::make_gpu_batch_backend(prepare(program, setup), *driver, ordinal));
        chosen.gpu = ordinal;
        return chosen;
      } catch (const DeviceError& e) {
        if (options.device == BatchDevice::Gpu) throw;
        chosen.fallback_reason = e.what();
      }
    } else {
      chosen.fallback_reason = gpu::CudaDriver::unavailable_reason();
    }
  }
  chosen.backends.push_back(cpu::make_batch_backend(prepare(std::move(program), setup)));
  return chosen;
}

}  // namespace polyrt::scheduler
