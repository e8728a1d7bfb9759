// `polyrt --version`: the version, the commit, LLVM, the build, GPU support.
#include <cstdio>

#include "cli/command_line.hpp"
#include "polyrt/introspect.hpp"
#include "polyrt/version.hpp"

namespace polyrt::cli {

int version_command() {
  const BuildInfo& b = build_info();
  std::printf("polyrt %s%s%s%s\n", b.version, *b.git_commit ? " (commit " : "", b.git_commit,
              *b.git_commit ? ")" : "");
  std::printf("LLVM %s, linked %s; %s build\n", b.llvm_version,
              b.static_llvm ? "statically" : "dynamically (libLLVM)", b.build_type);
  std::printf(
      "GPU: NVPTX kernels for sm_%s; the CUDA driver (libcuda.so.1, CUDA 12 or newer) is loaded "
      "at run time, none needed to build\n",
      valid_gpu_targets().c_str());
  return 0;
}

}  // namespace polyrt::cli
