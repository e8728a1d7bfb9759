// Which GPUs and drivers a PTX module is generated for: the compute
// capability (sm) and the PTX ISA version. LLVM-free: the GPU runtime picks
// the target of a device from its compute capability and driver version.
#pragma once

#include <string>

namespace polyrt::gpu {

struct NvptxTarget {
  unsigned sm = 90;  // compute capability, major * 10 + minor
  // CUDA driver version as cuDriverGetVersion reports it (12040 for 12.4):
  // the PTX ISA is the newest this driver accepts (a driver refuses a newer
  // one). 0: the newest LLVM 19 emits (PTX ISA 8.5, CUDA 12.5 drivers).
  unsigned driver_version = 0;
};

struct ResolvedNvptxTarget {
  unsigned sm = 0;
  unsigned ptx_isa = 0;  // major * 10 + minor
  std::string cpu;       // "sm_90"
  std::string features;  // "+ptx85"
};

// Throws polyrt::Error for a compute capability LLVM 19 cannot target (the
// message lists the valid ones) or a driver too old for it.
ResolvedNvptxTarget resolve_nvptx_target(const NvptxTarget& target);

// The newest compute capability polyrt can target that a device of
// compute capability `device_sm` runs (PTX is forward compatible: a GPU newer
// than sm_90 runs sm_90 code); 0 when the device is older than any.
unsigned best_sm_for(unsigned device_sm);

// "60, 61, 62, 70, ..." for messages and --help.
std::string valid_sm_list();

}  // namespace polyrt::gpu
