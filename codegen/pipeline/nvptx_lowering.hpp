// What LLVM's NVPTX back end cannot lower by itself, found in a module before
// it generates code. For such an operation (a 128-bit division, an
// llvm.sin.f64, a call of a C library function) the back end either calls a
// runtime routine NVPTX does not have or finds no instruction, and in both
// cases LLVM reports a fatal error and aborts the process (issue 54). So the
// PTX compiler runs this check on the optimized module and refuses what it
// finds as an InternalError, before the back end sees it.
//
// The rule is stricter than the back end: no integer wider than 64 bits at
// all. The back end lowers a 128-bit add or multiply, but its loop strength
// reduction may rewrite arithmetic on 128-bit values into a 128-bit division
// after this check has run (the product of `x % 26` and a 64-bit constant
// became `udiv i128 x, 26`), so wide integers must not reach it. The rtlib's
// wide products are two words for that reason (pd_mul_wide in pd_rt.h).
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace polyrt::codegen {

struct LoweringProblem {
  std::string function;   // the defined function it is in (a kernel's entry after O2)
  std::string operation;  // what it is: "udiv i128", "a call of llvm.sin.f64"
};

// Every operation of `module`'s defined functions that NVPTX code generation
// must not see, in module order.
std::vector<LoweringProblem> nvptx_lowering_problems(const llvm::Module& module);

}  // namespace polyrt::codegen
