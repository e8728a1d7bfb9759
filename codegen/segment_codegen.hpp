// Emits the native segments of a planned program as LLVM functions:
// `int32_t polyrt_seg_<step>(uint64_t* slots)` returns 0, or 1 + the index of
// the failing member. Members call their rtlib functions (declared from the
// embedded bitcode, inlined after linking); values flow between members in
// registers and every member output is stored to its slot. Functions with no
// fallible member contain no failure check.
#pragma once

#include <string>
#include <vector>

#include "plan/state_plan.hpp"

namespace llvm {
class Module;
}

namespace polyrt::codegen {

std::string segment_symbol(uint32_t step);

// Adds one function per Segment step of `plan` to `module` (whose triple and
// data layout are set); returns the symbols, indexed like plan.steps ("" for
// other steps). Code generation needs the plan only, not the slots runtime.
std::vector<std::string> emit_segments(llvm::Module& module, const ir::Graph& graph,
                                       const plan::StatePlan& plan);

}  // namespace polyrt::codegen
