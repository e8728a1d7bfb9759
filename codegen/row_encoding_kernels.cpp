#include "codegen/row_encoding_kernels.hpp"

#include <llvm/IR/Module.h>

#include "codegen/rtlib_bitcode.hpp"
#include "codegen/segment_kernel.hpp"
#include "polyrt/error.hpp"

namespace polyrt::codegen {

RowEncodingKernels emit_row_encoding_kernels(llvm::Module& module, BatchTarget target) {
  if (target == BatchTarget::Cpu) internal_error("row encoding kernels run on a GPU");
  RtlibLinker rtlib(module, target == BatchTarget::Nvptx ? RtlibTarget::Nvptx : RtlibTarget::Host);
  return {emit_segment_kernel(module, rtlib, target, "polyrt_rows_segment_bytes",
                              "pd_rows_segment_bytes"),
          emit_segment_kernel(module, rtlib, target, "polyrt_rows_write", "pd_rows_write_segment")};
}

}  // namespace polyrt::codegen
