// The GPU code is generated for: a compute capability and the oldest driver
// that must load it. A GPU family's code generation and introspection
// (polyrt/introspect.hpp) take it; the CPU's ignore it.
#pragma once

namespace polyrt {

struct GpuTarget {
  unsigned sm = 90;                  // major * 10 + minor
  unsigned cuda_driver_version = 0;  // 12040 for 12.4; 0: the newest ISA LLVM emits
};

}  // namespace polyrt
