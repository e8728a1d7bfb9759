// The CUDA GPUs as a device family: the devices of the driver loaded at run
// time, described by its own facts (compute capability, SMs, memory, the
// driver's version and library), or why there are none.
#include <cstdio>

#include "codegen/batch_codegen.hpp"
#include "gpu_backend/gpu_batch_backend.hpp"
#include "gpu_backend/ptx/ptx_compiler.hpp"
#include "gpu_backend/ptx/ptxas.hpp"

namespace polyrt::gpu {

namespace {

NvptxTarget nvptx(const GpuTarget& target) {
  return NvptxTarget{target.sm, target.cuda_driver_version};
}

// Each kernel's registers, spills and occupancy (when ptxas is found), and
// those of the kernels every program with text shares.
std::string kernel_resources(const batch::PreparedBatch& batch, const GpuTarget& target) {
  PtxCompiler& compiler = PtxCompiler::instance();
  const PtxKernels kernels = compiler.compile(batch.graph(), batch.plan, nvptx(target));
  std::string text =
      describe_kernel_resources(kernels.ptx, kernels.entries, batch.plan.steps.size(),
                                kernels.target.sm, codegen::kGpuBlockThreads);
  if (batch.plan.uses_text_kernels()) {
    const PtxKernels shared = compiler.compile_shared_kernels(nvptx(target));
    text += describe_kernel_resources(shared.ptx, shared.entries, 0, shared.target.sm,
                                      codegen::kGpuBlockThreads);
  }
  return text;
}

DeviceInfo device_info(const CudaDriver& driver, const GpuDevice& d) {
  DeviceInfo info{.family = "cuda", .kind = DeviceKind::Gpu, .index = d.ordinal, .name = d.name};
  info.properties = {{"compute_capability", Value::u64(d.sm())},
                     {"multiprocessors", Value::u64((uint64_t)d.sms)},
                     {"memory_bytes", Value::u64(d.memory_bytes)}};
  char line[512];
  std::snprintf(line, sizeof line, "gpu %d: %s, sm_%u, %d SMs, %.1f GiB, CUDA driver %s", d.ordinal,
                d.name.c_str(), d.sm(), d.sms, (double)d.memory_bytes / (1u << 30),
                cuda::version_text((unsigned)driver.version()).c_str());
  info.description = line;
  info.fault = driver.fault(d.ordinal).value_or("");
  return info;
}

class CudaGpus final : public batch::DeviceFamily {
 public:
  std::string_view name() const override { return "cuda"; }
  batch::DeviceKind kind() const override { return batch::DeviceKind::Gpu; }
  plan::PlanPlacement placement() const override { return plan::PlanPlacement::Gpu; }
  DeviceFamilyInfo describe() const override {
    DeviceFamilyInfo out{.name = "cuda", .kind = DeviceKind::Gpu};
    const CudaDriver* driver = CudaDriver::get();
    if (!driver) {
      out.why_none = CudaDriver::unavailable_reason();
      return out;
    }
    out.properties = {{"driver_version", Value::u64((uint64_t)driver->version())},
                      {"driver_library", Value::str(driver->library_path())}};
    for (const GpuDevice& d : driver->devices()) out.devices.push_back(device_info(*driver, d));
    if (out.devices.empty()) out.why_none = "the CUDA driver reports no device";
    return out;
  }
  std::vector<int> usable_devices(std::string& why_none) const override {
    const CudaDriver* driver = CudaDriver::get();
    if (!driver) {
      why_none = CudaDriver::unavailable_reason();
      return {};
    }
    std::vector<int> devices;
    for (const GpuDevice& d : driver->devices()) devices.push_back(d.ordinal);
    return devices;
  }
  std::unique_ptr<batch::BatchBackend> make_backend(batch::PreparedBatch batch, int index,
                                                    bool alone) const override {
    const CudaDriver* driver = CudaDriver::get();
    if (!driver) throw DeviceError("no usable GPU: " + CudaDriver::unavailable_reason());
    return make_gpu_batch_backend(std::move(batch), *driver, index, alone);
  }
  std::string kernel_text(const batch::PreparedBatch& batch, KernelText what,
                          const GpuTarget& target) const override {
    PtxCompiler& compiler = PtxCompiler::instance();
    switch (what) {
      case KernelText::EmittedIr:
      case KernelText::OptimizedIr:
        return compiler.module_ir(batch.graph(), batch.plan, nvptx(target),
                                  what == KernelText::OptimizedIr);
      case KernelText::Assembly:
        return compiler.compile(batch.graph(), batch.plan, nvptx(target)).ptx;
      case KernelText::Resources:
        return kernel_resources(batch, target);
    }
    return "";
  }
  void check_target(const GpuTarget& target) const override { resolve_nvptx_target(nvptx(target)); }
  std::string valid_targets() const override { return valid_sm_list(); }
};

}  // namespace

const batch::DeviceFamily& cuda_gpus() {
  static const CudaGpus family;
  return family;
}

}  // namespace polyrt::gpu
