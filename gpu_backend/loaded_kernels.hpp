// A plan's kernels loaded on a device, kept for the life of the process and
// shared by every batch of the same program on that device: loading a module
// (reading the cubin, cuModuleLoadDataEx, resolving its entries) is paid
// once, as a CUDA runtime pays it once per process, not per evaluator.
// The primary contexts are kept just as long (CudaDriver::primary_context).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpu_backend/driver/gpu_module.hpp"
#include "gpu_backend/host_twin.hpp"

namespace polyrt::gpu {

// A kernel as launched: its entry and how many of its blocks an SM holds at
// once (the driver's occupancy calculator, from its registers): a launch
// has at most that many blocks per SM, each thread looping over rows.
struct LoadedKernel {
  cuda::CUfunction function = nullptr;
  unsigned blocks_per_sm = 0;
  std::string name;  // its entry symbol
};

struct LoadedKernels {
  std::unique_ptr<GpuModule> module;
  // By entry name: batches that share the module (the same PTX) may number
  // their steps differently (host steps are not in the PTX).
  std::unordered_map<std::string, LoadedKernel> kernels;
  HostTwinKernels twins;  // only on the driver's test double

  const LoadedKernel& kernel(const std::string& entry) const { return kernels.at(entry); }
};

// Modules kept per process at most; the least recently used one that no
// batch holds goes first (a long-lived process compiling many programs
// would otherwise keep every module on the device).
inline constexpr size_t kModulesKept = 64;

class KernelModules {
 public:
  // Never destroyed: modules outlive every batch, and unloading them while
  // the process exits could run after the driver is gone.
  static KernelModules& instance();

  // The kernels of `key` (the PTX's cache key) on device `ordinal`: loaded by
  // `load` on the first call, in a context owned by this cache, then shared.
  // A failing `load` leaves nothing behind, so a later call tries again.
  std::shared_ptr<const LoadedKernels> get(
      const CudaDriver& driver, int ordinal, const std::string& key,
      const std::function<LoadedKernels(const GpuContext& context)>& load);

 private:
  KernelModules();
  ~KernelModules();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace polyrt::gpu
