// `polyrt devices`: what the batch tier can run on here.
#include <tbb/info.h>

#include <cstdio>

#include "cli/command_line.hpp"
#include "cpu_backend/jit/jit_engine.hpp"
#include "gpu_backend/driver/cuda_driver.hpp"

namespace polyrt::cli {

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

int devices_command(CommandLine& args) {
  static const char* usage =
      "usage: polyrt devices\n\n"
      "Lists the CPU (cores, the JIT's target and vector ISA) and every GPU (name, compute\n"
      "capability, SMs, memory, CUDA driver), or says why no GPU is usable. POLYRT_LIBCUDA\n"
      "names the driver library to load instead of libcuda.so.1.\n";
  if (args.wants_help()) return std::fputs(usage, stdout), 0;
  if (!args.done()) args.unknown_flag(args.flag());
  args.allow_positionals(0, "devices takes no argument");
  const cpu::JitEngine& jit = cpu::JitEngine::instance();
  std::printf("cpu: %d cores, %s, %s\n", tbb::info::default_concurrency(), jit.cpu().c_str(),
              vector_isa(jit.features()).c_str());
  const gpu::CudaDriver* driver = gpu::CudaDriver::get();
  if (!driver) {
    std::printf("gpu: none (%s)\n", gpu::CudaDriver::unavailable_reason().c_str());
    return 0;
  }
  for (const gpu::GpuDevice& d : driver->devices()) {
    std::printf("gpu %d: %s, sm_%u, %d SMs, %.1f GiB, CUDA driver %s\n", d.ordinal, d.name.c_str(),
                d.sm(), d.sms, (double)d.memory_bytes / (1u << 30),
                gpu::cuda::version_text(driver->version()).c_str());
  }
  return 0;
}

}  // namespace polyrt::cli
