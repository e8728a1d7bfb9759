// A GPU kernel that calls one rtlib function once per unit of work, over a
// grid-stride loop: the plan-independent kernels (text compaction, row
// encoding) are each one of these. Its lanes take (i64 units, the callee's
// parameters but the last), the callee's last being the unit; the target
// wraps them in its entry, as it does a batch step's.
#pragma once

#include <string>
#include <string_view>

namespace llvm {
class Module;
}

namespace polyrt::codegen {

class GpuKernelTarget;
class RtlibLinker;

// Adds `target`'s entry for the kernel `name` over rtlib function `callee`
// to `module`; returns its symbol.
std::string emit_segment_kernel(llvm::Module& module, RtlibLinker& rtlib,
                                const GpuKernelTarget& target, const std::string& name,
                                std::string_view callee);

}  // namespace polyrt::codegen
