// The GPU kernels no plan shapes: the text compaction's
// (text_compaction.hpp) and the row encoding's (row_encoding_kernels.hpp).
// They go into a module of their own, compiled and loaded once per device
// and process (and cached on disk) for every program that uses them: in a
// program's own module their rtlib code (shortest float text, escapes)
// added seconds of NVPTX and ptxas work to every new program.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "codegen/batch_codegen.hpp"

namespace polyrt::codegen {

// Their places among emit_shared_kernels' entries.
enum SharedKernel : size_t {
  kTextSegmentBytesKernel,
  kTextScanGroupKernel,
  kTextScanGroupsKernel,
  kTextPackKernel,
  kRowsSegmentBytesKernel,
  kRowsWriteKernel,
  kSharedKernels
};

// Adds every shared kernel's entry for `target` (Nvptx or HostTwin) to
// `module` (its triple and data layout set); returns their symbols in
// SharedKernel order.
std::vector<std::string> emit_shared_kernels(llvm::Module& module, const GpuKernelTarget& target);

}  // namespace polyrt::codegen
