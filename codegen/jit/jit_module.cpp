#include "codegen/jit/jit_module.hpp"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace polyrt::jit {

JitModule::JitModule(const std::string& name, JitEngine& jit)
    : context(std::make_unique<llvm::LLVMContext>()),
      module(std::make_unique<llvm::Module>(name, *context)) {
  module->setTargetTriple(jit.triple());
  module->setDataLayout(jit.data_layout());
}

JitModule::~JitModule() = default;
JitModule::JitModule(JitModule&&) noexcept = default;

CompiledSteps compile_steps(JitEngine& jit, JitModule m, const std::vector<std::string>& symbols) {
  CompiledSteps out;
  out.addresses.assign(symbols.size(), nullptr);
  std::vector<std::string> wanted;
  std::vector<size_t> steps;
  for (size_t s = 0; s < symbols.size(); ++s) {
    if (symbols[s].empty()) continue;
    wanted.push_back(symbols[s]);
    steps.push_back(s);
  }
  if (wanted.empty()) return out;
  auto code = jit.compile(std::move(m.context), std::move(m.module), wanted);
  for (size_t k = 0; k < steps.size(); ++k) out.addresses[steps[k]] = code->address(k);
  out.code = code;
  return out;
}

}  // namespace polyrt::jit
