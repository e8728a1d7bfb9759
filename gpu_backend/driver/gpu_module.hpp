// A PTX module loaded on a device: compiled to a cubin by the driver's linker
// (cuLinkCreate/AddData/Complete) and cached on disk as `.cubin` entries
// keyed by the PTX's key, the compute capability and the driver version;
// loaded with cuModuleLoadDataEx. Failures carry the driver's JIT log.
#pragma once

#include <string>

#include "gpu_backend/driver/device_resources.hpp"

namespace polyrt::gpu {

class GpuModule {
 public:
  GpuModule(const GpuContext& context, const std::string& ptx, const std::string& ptx_key);
  ~GpuModule();
  GpuModule(const GpuModule&) = delete;
  GpuModule& operator=(const GpuModule&) = delete;

  cuda::CUmodule handle() const { return module_; }
  cuda::CUfunction function(const std::string& entry) const;

 private:
  std::string cubin_of(const std::string& ptx, const std::string& key) const;
  const GpuContext& context_;
  cuda::CUmodule module_ = nullptr;
};

}  // namespace polyrt::gpu
