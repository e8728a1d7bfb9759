// A module being built for the process JIT (its triple and data layout set),
// and the compile of the per-step functions the native and batch tiers emit.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen/jit/jit_engine.hpp"

namespace polyrt::jit {

struct JitModule {
  JitModule(const std::string& name, JitEngine& jit);
  ~JitModule();
  JitModule(JitModule&&) noexcept;
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
};

struct CompiledSteps {
  std::vector<void*> addresses;      // per step: its function, or null
  std::shared_ptr<const void> code;  // keeps the functions alive (null when none)
};

// Compiles the module and resolves `symbols` (per step; "" for a step without one).
CompiledSteps compile_steps(JitEngine& jit, JitModule module,
                            const std::vector<std::string>& symbols);

}  // namespace polyrt::jit
