#include "codegen/text_compaction.hpp"

#include <llvm/IR/Module.h>

#include "codegen/rtlib_bitcode.hpp"
#include "codegen/segment_kernel.hpp"
#include "polyrt/error.hpp"

namespace polyrt::codegen {

TextCompactionKernels emit_text_compaction_kernels(llvm::Module& module, BatchTarget target) {
  if (target == BatchTarget::Cpu) internal_error("text compaction kernels run on a GPU");
  RtlibLinker rtlib(module, target == BatchTarget::Nvptx ? RtlibTarget::Nvptx : RtlibTarget::Host);
  return {
      emit_segment_kernel(module, rtlib, target, "polyrt_text_segment_bytes",
                          "pd_text_segment_bytes"),
      emit_segment_kernel(module, rtlib, target, "polyrt_text_scan_group", "pd_text_scan_group"),
      emit_segment_kernel(module, rtlib, target, "polyrt_text_scan_groups", "pd_text_scan_groups"),
      emit_segment_kernel(module, rtlib, target, "polyrt_text_pack", "pd_text_pack_segment")};
}

}  // namespace polyrt::codegen
