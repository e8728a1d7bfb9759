// A GPU entry point (or its host twin) that calls one rtlib function once
// per unit of work, over a grid-stride loop: the plan-independent kernels
// (text compaction, row encoding) are each one of these. Its parameters
// are (i64 units, the callee's parameters but the last), the callee's last
// being the unit; the twin takes (ptr params, i32 block, i32 block_dim,
// i32 thread, i32 grid_dim), as batch kernels' twins do.
#pragma once

#include <string>
#include <string_view>

#include "codegen/batch_codegen.hpp"

namespace polyrt::codegen {

class RtlibLinker;

// Adds the entry `name` (with "_twin" appended for BatchTarget::HostTwin)
// over rtlib function `callee` to `module`; returns its symbol.
std::string emit_segment_kernel(llvm::Module& module, RtlibLinker& rtlib, BatchTarget target,
                                const std::string& name, std::string_view callee);

}  // namespace polyrt::codegen
