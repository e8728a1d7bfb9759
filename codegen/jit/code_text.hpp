// The forms in which `polyrt plan` prints generated code.
#pragma once

namespace polyrt::jit {

enum class CodeText {
  Emitted,    // LLVM IR as polyrt emitted it, before the rtlib is linked
  Optimized,  // LLVM IR after the rtlib is linked and O2
  Assembly,   // the target's machine code, as assembly
};

}  // namespace polyrt::jit
