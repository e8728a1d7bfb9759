#include "codegen/shared_kernels.hpp"

#include "codegen/row_encoding_kernels.hpp"
#include "codegen/text_compaction.hpp"

namespace polyrt::codegen {

std::vector<std::string> emit_shared_kernels(llvm::Module& module, const GpuKernelTarget& target) {
  const TextCompactionKernels text = emit_text_compaction_kernels(module, target);
  const RowEncodingKernels rows = emit_row_encoding_kernels(module, target);
  return {text.segment_bytes, text.scan_group,    text.scan_groups,
          text.pack,          rows.segment_bytes, rows.write};
}

}  // namespace polyrt::codegen
