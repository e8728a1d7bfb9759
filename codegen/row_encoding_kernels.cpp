#include "codegen/row_encoding_kernels.hpp"

#include <llvm/IR/Module.h>

#include "codegen/gpu_kernel_target.hpp"
#include "codegen/rtlib_bitcode.hpp"
#include "codegen/segment_kernel.hpp"

namespace polyrt::codegen {

RowEncodingKernels emit_row_encoding_kernels(llvm::Module& module, const GpuKernelTarget& target) {
  RtlibLinker rtlib(module, target.rtlib());
  return {emit_segment_kernel(module, rtlib, target, "polyrt_rows_segment_bytes",
                              "pd_rows_segment_bytes"),
          emit_segment_kernel(module, rtlib, target, "polyrt_rows_write", "pd_rows_write_segment")};
}

}  // namespace polyrt::codegen
