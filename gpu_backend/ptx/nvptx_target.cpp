#include "gpu_backend/ptx/nvptx_target.hpp"

#include <algorithm>
#include <iterator>

#include "gpu_backend/driver/cuda_api.hpp"
#include "polyrt/error.hpp"

namespace polyrt::gpu {

namespace {

// Compute capabilities LLVM 19's NVPTX back end targets, each with the first
// PTX ISA that supports it (PTX ISA reference, "Target ISA notes").
struct SmSupport {
  unsigned sm;
  unsigned min_isa;
};
constexpr SmSupport kSms[] = {{60, 50}, {61, 50}, {62, 50}, {70, 60}, {72, 61}, {75, 63},
                              {80, 70}, {86, 71}, {87, 74}, {89, 78}, {90, 78}};

// The newest PTX ISA each CUDA driver release accepts (CUDA release notes).
struct DriverIsa {
  unsigned driver;
  unsigned isa;
};
constexpr DriverIsa kDrivers[] = {{11000, 70}, {11010, 71}, {11020, 72}, {11030, 73}, {11040, 74},
                                  {11050, 75}, {11060, 76}, {11070, 77}, {11080, 78}, {12000, 80},
                                  {12010, 81}, {12020, 82}, {12030, 83}, {12040, 84}, {12050, 85}};

// The newest PTX ISA LLVM 19 emits.
constexpr unsigned kNewestLlvmIsa = 85;

std::string isa_text(unsigned v) {
  return std::to_string(v / 10) + "." + std::to_string(v % 10);
}

}  // namespace

unsigned best_sm_for(unsigned device_sm) {
  unsigned best = 0;
  for (const SmSupport& s : kSms) {
    if (s.sm <= device_sm) best = s.sm;
  }
  return best;
}

std::string valid_sm_list() {
  std::string out;
  for (const SmSupport& s : kSms) out += (out.empty() ? "" : ", ") + std::to_string(s.sm);
  return out;
}

ResolvedNvptxTarget resolve_nvptx_target(const NvptxTarget& target) {
  const auto sm = std::find_if(std::begin(kSms), std::end(kSms),
                               [&](const SmSupport& s) { return s.sm == target.sm; });
  if (sm == std::end(kSms)) {
    throw RefusedError("compute capability sm_" + std::to_string(target.sm) +
                       " cannot be targeted (LLVM 19's NVPTX back end supports " + valid_sm_list() +
                       ")");
  }
  unsigned isa = kNewestLlvmIsa;
  if (target.driver_version != 0) {
    if (target.driver_version < kDrivers[0].driver) {
      throw RefusedError("CUDA driver " + cuda::version_text(target.driver_version) +
                         " is too old: polyrt needs a CUDA 11.0 driver or newer");
    }
    for (const DriverIsa& d : kDrivers) {
      if (d.driver <= target.driver_version) isa = std::min(d.isa, kNewestLlvmIsa);
    }
  }
  if (isa < sm->min_isa) {
    throw RefusedError("CUDA driver " + cuda::version_text(target.driver_version) +
                       " cannot run sm_" + std::to_string(target.sm) +
                       " code: it accepts PTX ISA up to " + isa_text(isa) + ", and sm_" +
                       std::to_string(target.sm) + " needs PTX ISA " + isa_text(sm->min_isa) +
                       " or newer");
  }
  ResolvedNvptxTarget out;
  out.sm = target.sm;
  out.ptx_isa = isa;
  out.cpu = "sm_" + std::to_string(target.sm);
  out.features = "+ptx" + std::to_string(isa);
  return out;
}

}  // namespace polyrt::gpu
