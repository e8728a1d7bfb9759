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

// A request's fused entry, `int32_t polyrt_request(uint64_t* slots, const
// uint64_t* coordinates)`: stores the coordinates into their slots and
// runs every step that is not frozen, each segment inlined (so the
// coordinates and every value stay in registers across segments); returns
// 0, or nonzero when a member failed (the caller then runs the cones it
// wanted the usual way, which raises the failure if one of them fails).
// Added to `module` after emit_segments, and only when every step to run
// is a segment; returns whether it was.
inline constexpr const char* kRequestSymbol = "polyrt_request";
bool emit_request_entry(llvm::Module& module, const plan::StatePlan& plan);

}  // namespace polyrt::codegen
