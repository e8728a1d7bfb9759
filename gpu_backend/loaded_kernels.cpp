#include "gpu_backend/loaded_kernels.hpp"

#include <mutex>

namespace polyrt::gpu {

struct KernelModules::Impl {
  struct Entry {
    int ordinal;
    std::string key;
    std::shared_ptr<const LoadedKernels> kernels;
    uint64_t used;  // when it was last asked for (a counter)
  };
  std::mutex mutex;
  std::vector<std::unique_ptr<GpuContext>> contexts;  // per device, made on first use
  std::vector<Entry> entries;
  uint64_t clock = 0;
  size_t loads = 0;

  const GpuContext& context(const CudaDriver& driver, int ordinal) {
    if (contexts.size() <= (size_t)ordinal) contexts.resize(ordinal + 1);
    if (!contexts[ordinal]) contexts[ordinal] = std::make_unique<GpuContext>(driver, ordinal);
    return *contexts[ordinal];
  }

  void evict_beyond_limit() {
    while (entries.size() > kModulesKept) {
      auto oldest = entries.end();
      for (auto it = entries.begin(); it != entries.end(); ++it) {
        if (it->kernels.use_count() == 1 && (oldest == entries.end() || it->used < oldest->used)) {
          oldest = it;
        }
      }
      if (oldest == entries.end()) return;  // every one is in use
      entries.erase(oldest);
    }
  }
};

KernelModules& KernelModules::instance() {
  static KernelModules modules;
  return modules;
}

KernelModules::Impl& KernelModules::impl() const {
  // Never destroyed: modules outlive every batch, and unloading them while
  // the process exits could run after the driver is gone.
  static Impl* impl = new Impl;
  return *impl;
}

std::shared_ptr<const LoadedKernels> KernelModules::get(
    const CudaDriver& driver, int ordinal, const std::string& key,
    const std::function<LoadedKernels(const GpuContext& context)>& load) {
  Impl& m = impl();
  const std::lock_guard lock(m.mutex);
  for (Impl::Entry& e : m.entries) {
    if (e.ordinal == ordinal && e.key == key) {
      e.used = ++m.clock;
      return e.kernels;
    }
  }
  auto kernels = std::make_shared<const LoadedKernels>(load(m.context(driver, ordinal)));
  ++m.loads;
  m.entries.push_back(Impl::Entry{ordinal, key, kernels, ++m.clock});
  m.evict_beyond_limit();
  return kernels;
}

size_t KernelModules::loads() const {
  Impl& m = impl();
  const std::lock_guard lock(m.mutex);
  return m.loads;
}

}  // namespace polyrt::gpu
