// The kernels that encode a chunk's text rows (CSV, TSV, JSON Lines) on the
// GPU, for a plan whose outputs all live there (BatchPlan::rows_on_device):
// plan-independent, each a segment kernel (segment_kernel.hpp) over its
// rtlib function (core/rtlib/device_rows.cpp). The outputs are described by
// an array of rt::DeviceRowField (core/rtlib/device_rows.h) the host lays
// out in device memory; a chunk's rows are encoded by a length pass per
// segment of kTextSegmentRows rows, the text compaction's two scans of the
// segments' sums (text_compaction.hpp), and a write pass:
//
//   polyrt_rows_segment_bytes(i64 segments, ptr fields, i64 field_count,
//                             i64 format, i64 rows, i64 segment_rows, ptr sums)
//   polyrt_rows_write(i64 segments, ptr fields, i64 field_count, i64 format,
//                     i64 rows, i64 segment_rows, ptr sums, i64 group_segments,
//                     ptr group_sums, ptr bytes)
//
// A row's bytes are computed twice (its length, then its text), where a
// slot per row would reserve its bound: JSON's escapes make that 6 bytes
// per byte of text, and a chunk's rows are read from device memory, whose
// bandwidth the GPU has plenty of (docs/gpu.md).
#pragma once

#include <string>

#include "codegen/batch_codegen.hpp"

namespace polyrt::codegen {

struct RowEncodingKernels {
  std::string segment_bytes, write;  // entry symbols
};

RowEncodingKernels emit_row_encoding_kernels(llvm::Module& module, const GpuKernelTarget& target);

}  // namespace polyrt::codegen
