// The CPU as a device family: one device, this host's cores under the
// process JIT, always usable.
#include <tbb/info.h>

#include <cstdio>

#include "batch/device_family.hpp"
#include "codegen/jit/jit_engine.hpp"
#include "cpu_backend/batch_kernels.hpp"
#include "cpu_backend/cpu_batch_backend.hpp"

namespace polyrt::cpu {

namespace {

// The widest vector extension the JIT targets, from its feature list.
std::string vector_isa(const std::string& features) {
  for (const char* isa : {"avx512f", "avx2", "avx", "sse4.2", "neon", "sve"}) {
    if (("," + features + ",").find(",+" + std::string(isa) + ",") != std::string::npos) {
      return isa;
    }
  }
  return "scalar";
}

class CpuFamily final : public batch::DeviceFamily {
 public:
  std::string_view name() const override { return "cpu"; }
  batch::DeviceKind kind() const override { return batch::DeviceKind::Cpu; }
  plan::PlanPlacement placement() const override { return plan::PlanPlacement::Cpu; }
  DeviceFamilyInfo describe() const override {
    const jit::JitEngine& jit = jit::JitEngine::instance();
    // oneTBB's default concurrency: the affinity mask's cores.
    const unsigned cores = (unsigned)tbb::info::default_concurrency();
    const std::string isa = vector_isa(jit.features());
    DeviceInfo cpu{.family = "cpu", .kind = DeviceKind::Cpu, .index = 0, .name = jit.cpu()};
    cpu.properties = {{"cores", Value::u64(cores)},
                      {"target", Value::str(jit.cpu())},
                      {"vector_isa", Value::str(isa)}};
    char line[256];
    std::snprintf(line, sizeof line, "cpu: %u cores, %s, %s", cores, jit.cpu().c_str(),
                  isa.c_str());
    cpu.description = line;
    return DeviceFamilyInfo{.name = "cpu", .kind = DeviceKind::Cpu, .devices = {cpu}};
  }
  std::vector<int> usable_devices(std::string&) const override { return {0}; }
  std::unique_ptr<batch::BatchBackend> make_backend(batch::PreparedBatch batch, int index,
                                                    bool) const override {
    if (index != 0) throw DeviceError("no CPU " + std::to_string(index) + ": the CPU is device 0");
    return make_batch_backend(std::move(batch));
  }
  std::string kernel_text(const batch::PreparedBatch& batch, KernelText what,
                          const GpuTarget&) const override {
    switch (what) {
      case KernelText::EmittedIr:
        return batch_kernels_text(batch.graph(), batch.plan, jit::CodeText::Emitted);
      case KernelText::OptimizedIr:
        return batch_kernels_text(batch.graph(), batch.plan, jit::CodeText::Optimized);
      case KernelText::Assembly:
        return batch_kernels_text(batch.graph(), batch.plan, jit::CodeText::Assembly);
      case KernelText::Resources:
        return "";
    }
    return "";
  }
};

}  // namespace

const batch::DeviceFamily& cpu_family() {
  static const CpuFamily family;
  return family;
}

}  // namespace polyrt::cpu
