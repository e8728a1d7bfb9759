#include "codegen/text_compaction.hpp"

#include <llvm/IR/Module.h>

#include "codegen/gpu_kernel_target.hpp"
#include "codegen/rtlib_bitcode.hpp"
#include "codegen/segment_kernel.hpp"

namespace polyrt::codegen {

TextCompactionKernels emit_text_compaction_kernels(llvm::Module& module,
                                                   const GpuKernelTarget& target) {
  RtlibLinker rtlib(module, target.rtlib());
  return {
      emit_segment_kernel(module, rtlib, target, "polyrt_text_segment_bytes",
                          "pd_text_segment_bytes"),
      emit_segment_kernel(module, rtlib, target, "polyrt_text_scan_group", "pd_text_scan_group"),
      emit_segment_kernel(module, rtlib, target, "polyrt_text_scan_groups", "pd_text_scan_groups"),
      emit_segment_kernel(module, rtlib, target, "polyrt_text_pack", "pd_text_pack_segment")};
}

}  // namespace polyrt::codegen
