#include "scheduler/runtime/device_families.hpp"

#include "cpu_backend/cpu_batch_backend.hpp"
#include "gpu_backend/gpu_batch_backend.hpp"

namespace polyrt::scheduler {

const std::vector<const batch::DeviceFamily*>& device_families() {
  static const std::vector<const batch::DeviceFamily*> families = {&cpu::cpu_family(),
                                                                   &gpu::cuda_gpus()};
  return families;
}

const batch::DeviceFamily& family_of(batch::DeviceKind kind) {
  for (const batch::DeviceFamily* family : device_families()) {
    if (family->kind() == kind) return *family;
  }
  internal_error("no device family of that kind is registered");
}

}  // namespace polyrt::scheduler
