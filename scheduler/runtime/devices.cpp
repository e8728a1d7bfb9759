#include "polyrt/devices.hpp"

#include <tbb/info.h>

#include <cstdio>

#include "codegen/jit/jit_engine.hpp"
#include "gpu_backend/driver/cuda_driver.hpp"

namespace polyrt {

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

}  // namespace

Devices devices() {
  Devices out;
  const jit::JitEngine& jit = jit::JitEngine::instance();
  out.cpu =
      CpuDevice{(unsigned)tbb::info::default_concurrency(), jit.cpu(), vector_isa(jit.features())};
  const gpu::CudaDriver* driver = gpu::CudaDriver::get();
  if (!driver) {
    out.no_gpu_reason = gpu::CudaDriver::unavailable_reason();
    return out;
  }
  out.cuda_driver_version = (unsigned)driver->version();
  out.cuda_driver_library = driver->library_path();
  for (const gpu::GpuDevice& d : driver->devices()) {
    out.gpus.push_back(GpuDeviceInfo{d.ordinal, d.name, d.sm(), d.sms, d.memory_bytes,
                                     driver->fault(d.ordinal).value_or("")});
  }
  if (out.gpus.empty()) out.no_gpu_reason = "the CUDA driver reports no device";
  return out;
}

std::string describe_devices(const Devices& d) {
  char line[512];
  std::snprintf(line, sizeof line, "cpu: %u cores, %s, %s\n", d.cpu.cores, d.cpu.target.c_str(),
                d.cpu.vector_isa.c_str());
  std::string out = line;
  if (d.gpus.empty()) return out + "gpu: none (" + d.no_gpu_reason + ")\n";
  for (const GpuDeviceInfo& g : d.gpus) {
    std::snprintf(line, sizeof line, "gpu %d: %s, sm_%u, %d SMs, %.1f GiB, CUDA driver %s", g.index,
                  g.name.c_str(), g.compute_capability, g.multiprocessors,
                  (double)g.memory_bytes / (1u << 30),
                  gpu::cuda::version_text(d.cuda_driver_version).c_str());
    out += line;
    out += g.fault.empty() ? "\n" : "; unusable: it faulted (" + g.fault + ")\n";
  }
  return out;
}

}  // namespace polyrt
