// What this polyrt is: its version and how it was built (`polyrt --version`).
#pragma once

namespace polyrt {

struct BuildInfo {
  const char* version;       // "0.1.0"
  const char* git_commit;    // "4c24a1a" (with "-dirty" for uncommitted changes), "" when unknown
  const char* llvm_version;  // the LLVM the JIT and the NVPTX back end come from
  const char* build_type;    // CMAKE_BUILD_TYPE
  bool static_llvm;          // LLVM linked into the binary (no libLLVM needed)
};

const BuildInfo& build_info();

}  // namespace polyrt
