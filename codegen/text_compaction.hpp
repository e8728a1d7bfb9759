// The kernels that compact device-made str columns (plan::device_text_slot
// slots) into Arrow's layout on the GPU, so that only a text's bytes cross to
// the host: plan-independent, added to a module whose plan has device text.
// Each runs one thread per segment of kTextSegmentRows rows over a
// grid-stride loop and calls its rtlib function (core/rtlib/device_text.cpp):
//
//   polyrt_text_segment_bytes(i64 segments, ptr slots, i64 slot_bytes, i64 rows,
//                             i64 segment_rows, ptr sums)
//   polyrt_text_scan(i64 segments (1), ptr sums, i64 count)
//   polyrt_text_pack(i64 segments, ptr slots, i64 slot_bytes, i64 rows,
//                    i64 segment_rows, ptr sums, ptr offsets, ptr bytes)
//
// For BatchTarget::HostTwin each is a twin (ptr params, i32 block,
// i32 block_dim, i32 thread, i32 grid_dim), as batch kernels' are.
#pragma once

#include <cstdint>
#include <string>

#include "codegen/batch_codegen.hpp"

namespace polyrt::codegen {

// Rows per compaction thread: few enough that a chunk has threads for every
// SM, enough that the scan of the segments' sums stays short.
inline constexpr uint64_t kTextSegmentRows = 32;

struct TextCompactionKernels {
  std::string segment_bytes, scan, pack;  // entry symbols
};

TextCompactionKernels emit_text_compaction_kernels(llvm::Module& module, BatchTarget target);

}  // namespace polyrt::codegen
