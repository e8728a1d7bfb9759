// What the batch tier can run on here: the CPU (cores, the JIT's target and
// vector ISA) and every GPU the CUDA driver reports, or why none is usable.
// `polyrt devices` prints describe_devices(devices()); Python's
// polyrt.devices() returns the same facts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace polyrt {

struct CpuDevice {
  unsigned cores = 0;      // oneTBB's default concurrency (the affinity mask's)
  std::string target;      // the CPU the JIT generates code for ("rocketlake")
  std::string vector_isa;  // the widest vector extension it targets ("avx512f", ..., "scalar")
};

struct GpuDeviceInfo {
  int index = 0;  // as --device N and BatchOptions::gpu name it
  std::string name;
  unsigned compute_capability = 0;  // major * 10 + minor (90 for sm_90)
  int multiprocessors = 0;
  uint64_t memory_bytes = 0;
  // Set once a sticky fault made it unusable for the rest of the process.
  std::string fault;
};

struct Devices {
  CpuDevice cpu;
  std::vector<GpuDeviceInfo> gpus;
  // With no GPU usable: why (no driver library, the toolkit's stub, a
  // driver older than CUDA 12, no device, ...).
  std::string no_gpu_reason;
  unsigned cuda_driver_version = 0;  // 12040 for CUDA 12.4 (0: no driver)
  std::string cuda_driver_library;   // the file loaded
};

// Loads the CUDA driver on the first call (never fails: a reason instead).
Devices devices();

// The lines `polyrt devices` prints.
std::string describe_devices(const Devices& devices);

}  // namespace polyrt
