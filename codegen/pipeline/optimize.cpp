#include "codegen/pipeline/optimize.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "cache/content_hash.hpp"
#include "polyrt/error.hpp"

namespace polyrt::codegen {

namespace {

void run_o2(llvm::Module& m, llvm::TargetMachine& tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(m, mam);
}

// Optimizer remarks and warnings (a loop the vectorizer was asked to but
// could not vectorize) are not the user's business; errors become the thrown
// message instead of LLVM printing them and exiting.
void collect_errors(const llvm::DiagnosticInfo* info, void* errors) {
  if (info->getSeverity() != llvm::DS_Error) return;
  llvm::raw_string_ostream out(*static_cast<std::string*>(errors));
  llvm::DiagnosticPrinterRawOStream printer(out);
  info->print(printer);
  out << "\n";
}

}  // namespace

void verify_generated_module(const llvm::Module& module) {
  std::string errors;
  llvm::raw_string_ostream stream(errors);
  if (llvm::verifyModule(module, &stream)) {
    internal_error("the generated LLVM module is invalid: " + stream.str());
  }
}

std::string target_salt(std::string_view triple, std::string_view cpu, std::string_view features,
                        std::string_view rtlib_blob) {
  return cache::ContentHash()
      .add(LLVM_VERSION_STRING)
      .add(triple)
      .add(cpu)
      .add(features)
      .add(rtlib_blob)
      .hex();
}

std::string module_key(std::string_view target_salt, const llvm::Module& module) {
  llvm::SmallVector<char, 0> bitcode;
  llvm::raw_svector_ostream os(bitcode);
  llvm::WriteBitcodeToFile(module, os);
  return cache::ContentHash()
      .add(target_salt)
      .add(std::string_view(bitcode.data(), bitcode.size()))
      .hex();
}

void optimize_o2(llvm::Module& m, llvm::TargetMachine& tm) {
  std::string errors;
  m.getContext().setDiagnosticHandlerCallBack(collect_errors, &errors);
  run_o2(m, tm);
  m.getContext().setDiagnosticHandlerCallBack(nullptr, nullptr);  // `errors` ends here
  if (!errors.empty()) internal_error("LLVM could not optimize the generated code: " + errors);
}

std::string module_assembly(llvm::Module& module, llvm::TargetMachine& target_machine) {
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager pm;
  if (target_machine.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile)) {
    internal_error("LLVM cannot emit assembly for " + target_machine.getTargetTriple().str() + " " +
                   target_machine.getTargetCPU().str());
  }
  pm.run(module);
  return std::string(text.str());
}

std::string module_text(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return os.str();
}

}  // namespace polyrt::codegen
