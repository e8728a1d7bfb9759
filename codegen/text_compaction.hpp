// The kernels that compact device-made str columns (plan::device_text_slot
// slots) into Arrow's layout on the GPU, so that only a text's bytes cross to
// the host: plan-independent, added to a module whose plan has device text
// (and, for their scans, to one that encodes rows on the device). Each is a
// segment kernel (segment_kernel.hpp): one thread per unit of work (a
// segment of kTextSegmentRows rows, a group of kTextScanGroup segments)
// calls its rtlib function (core/rtlib/device_text.cpp); the first argument
// is the count of units:
//
//   polyrt_text_segment_bytes(i64 segments, ptr slots, i64 slot_bytes, i64 rows,
//                             i64 segment_rows, ptr sums)
//   polyrt_text_scan_group(i64 groups, ptr sums, i64 segments, i64 group_segments,
//                          ptr group_sums)
//   polyrt_text_scan_groups(i64 1, ptr group_sums, i64 groups)
//   polyrt_text_pack(i64 segments, ptr slots, i64 slot_bytes, i64 rows,
//                    i64 segment_rows, ptr sums, i64 group_segments,
//                    ptr group_sums, ptr offsets, ptr bytes, i64 base)
#pragma once

#include <cstdint>
#include <string>

#include "codegen/batch_codegen.hpp"

namespace polyrt::codegen {

// Rows per compaction thread: few enough that a chunk has threads for every
// SM, enough that the scan of the segments' sums stays short.
inline constexpr uint64_t kTextSegmentRows = 32;
// Segments per group of the scan: a 4 Mi-row chunk's 131,072 segments are
// scanned by 512 threads, then their 512 totals by one.
inline constexpr uint64_t kTextScanGroup = 256;

struct TextCompactionKernels {
  std::string segment_bytes, scan_group, scan_groups, pack;  // entry symbols
};

TextCompactionKernels emit_text_compaction_kernels(llvm::Module& module,
                                                   const GpuKernelTarget& target);

}  // namespace polyrt::codegen
