// Which CPU the JIT compiles for: the host's, or the one POLYRT_JIT_CPU
// names (an LLVM CPU such as x86-64-v3, for AVX2 code on an AVX-512 host),
// so that each instruction set's code can be measured and tested on one
// machine. A named CPU must need no feature the host lacks: its code would
// fault. The choice is part of every compiled module's cache key.
#pragma once

#include <string>

namespace polyrt::jit {

inline constexpr const char* kJitCpuVariable = "POLYRT_JIT_CPU";

struct JitCpu {
  std::string cpu;
  std::string features;  // "+avx2,-avx512f,...": empty takes the CPU's own
};

// `host` as detected for `triple`, or `wanted` (when not empty) checked
// against the host's features ("+a,-b,..."). polyrt::Error names an
// unknown CPU (with examples) or the features the host lacks.
JitCpu choose_jit_cpu(const std::string& triple, const JitCpu& host, const std::string& wanted);

}  // namespace polyrt::jit
