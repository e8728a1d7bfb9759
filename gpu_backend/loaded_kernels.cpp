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

KernelModules::KernelModules() : impl_(new Impl) {}
KernelModules::~KernelModules() = default;

KernelModules& KernelModules::instance() {
  static KernelModules* modules = new KernelModules;
  return *modules;
}

std::shared_ptr<const LoadedKernels> KernelModules::get(
    const CudaDriver& driver, int ordinal, const std::string& key,
    const std::function<LoadedKernels(const GpuContext& context)>& load) {
  Impl& m = *impl_;
  const std::lock_guard lock(m.mutex);
  for (Impl::Entry& e : m.entries) {
    if (e.ordinal == ordinal && e.key == key) {
      e.used = ++m.clock;
      return e.kernels;
    }
  }
  auto kernels = std::make_shared<const LoadedKernels>(load(m.context(driver, ordinal)));
  m.entries.push_back(Impl::Entry{ordinal, key, kernels, ++m.clock});
  m.evict_beyond_limit();
  return kernels;
}

}  // namespace polyrt::gpu
