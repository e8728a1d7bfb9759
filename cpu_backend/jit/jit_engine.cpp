#include "cpu_backend/jit/jit_engine.hpp"

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/IRCompileLayer.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "codegen/rtlib_bitcode.hpp"
#include "cpu_backend/jit/content_hash.hpp"
#include "cpu_backend/jit/disk_cache.hpp"
#include "polyrt/error.hpp"

namespace polyrt::cpu {

namespace {

void initialize_llvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

// The new-pass-manager O2 pipeline with the target's cost model (the
// vectorizer needs it). No fast-math flags exist in our IR, so nothing fuses.
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

void optimize(llvm::Module& m, llvm::TargetMachine& tm) {
  std::string errors;
  m.getContext().setDiagnosticHandlerCallBack(collect_errors, &errors);
  run_o2(m, tm);
  m.getContext().setDiagnosticHandlerCallBack(nullptr, nullptr);  // `errors` ends here
  if (!errors.empty()) throw Error("LLVM could not optimize the native code: " + errors);
}

std::string error_text(llvm::Error e) {
  return llvm::toString(std::move(e));
}

}  // namespace

struct JitEngine::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  llvm::orc::JITTargetMachineBuilder jtmb{llvm::Triple()};
  std::string triple, data_layout, cpu, features;
  std::string key_salt;  // LLVM version, triple, CPU, features, rtlib content
  DiskCache disk{std::nullopt};
  std::mutex cache_mutex;
  std::unordered_map<std::string, std::string> memory;
  std::atomic<uint64_t> compiled{0}, memory_hits{0}, disk_hits{0};
  std::atomic<uint64_t> dylib_counter{0};
  std::mutex error_mutex;
  std::string last_session_error;

  std::unique_ptr<llvm::TargetMachine> target_machine() {
    auto tm = jtmb.createTargetMachine();
    if (!tm)
      throw Error("cannot create a target machine for the JIT: " + error_text(tm.takeError()));
    return std::move(*tm);
  }

  // Memory cache, then disk cache, then O2 + codegen (stored in both).
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> compile_module(llvm::Module& m) {
    const std::string key = m.getModuleIdentifier();
    {
      std::lock_guard<std::mutex> lock(cache_mutex);
      auto it = memory.find(key);
      if (it != memory.end()) {
        ++memory_hits;
        return llvm::MemoryBuffer::getMemBufferCopy(it->second, key);
      }
    }
    if (auto object = disk.load(key)) {
      ++disk_hits;
      std::lock_guard<std::mutex> lock(cache_mutex);
      memory.emplace(key, *object);
      return llvm::MemoryBuffer::getMemBufferCopy(*object, key);
    }
    auto tm = jtmb.createTargetMachine();
    if (!tm) return tm.takeError();
    optimize(m, **tm);
    llvm::orc::SimpleCompiler compiler(**tm);
    auto object = compiler(m);
    if (!object) return object.takeError();
    ++compiled;
    const std::string bytes((*object)->getBufferStart(), (*object)->getBufferSize());
    disk.store(key, bytes);
    std::lock_guard<std::mutex> lock(cache_mutex);
    memory.emplace(key, bytes);
    return object;
  }

  std::string take_session_error() {
    std::lock_guard<std::mutex> lock(error_mutex);
    std::string e;
    e.swap(last_session_error);
    return e;
  }
};

namespace {

class CachingCompiler : public llvm::orc::IRCompileLayer::IRCompiler {
 public:
  CachingCompiler(llvm::orc::IRSymbolMapper::ManglingOptions mo, JitEngine::Impl& engine)
      : IRCompiler(std::move(mo)), engine_(engine) {}
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> operator()(llvm::Module& m) override {
    return engine_.compile_module(m);
  }

 private:
  JitEngine::Impl& engine_;
};

class DylibCode : public JitCode {
 public:
  DylibCode(llvm::orc::LLJIT& jit, llvm::orc::JITDylib& dylib, std::vector<void*> addresses)
      : jit_(jit), dylib_(dylib), addresses_(std::move(addresses)) {}
  ~DylibCode() override { llvm::consumeError(jit_.getExecutionSession().removeJITDylib(dylib_)); }
  void* address(size_t index) const override { return addresses_.at(index); }

 private:
  llvm::orc::LLJIT& jit_;
  llvm::orc::JITDylib& dylib_;
  std::vector<void*> addresses_;
};

}  // namespace

// Never destroyed: compiled code of programs that outlive main (held in
// statics) still refers to it at exit.
JitEngine& JitEngine::instance() {
  static JitEngine* engine = new JitEngine(JitOptions{default_cache_dir()});
  return *engine;
}

JitEngine::JitEngine(JitOptions options) : impl_(new Impl) {
  initialize_llvm();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) throw Error("cannot detect the host for the JIT: " + error_text(jtmb.takeError()));
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  jtmb->getOptions().AllowFPOpFusion = llvm::FPOpFusion::Standard;  // never Fast: bit-exactness
  impl_->jtmb = *jtmb;
  Impl* impl = impl_.get();
  llvm::orc::LLJITBuilder builder;
  builder.setJITTargetMachineBuilder(*jtmb);
  builder.setCompileFunctionCreator(
      [impl](llvm::orc::JITTargetMachineBuilder jtmb)
          -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
        return std::make_unique<CachingCompiler>(
            llvm::orc::irManglingOptionsFromTargetOptions(jtmb.getOptions()), *impl);
      });
  auto jit = builder.create();
  if (!jit) throw Error("cannot create the LLVM JIT: " + error_text(jit.takeError()));
  impl_->jit = std::move(*jit);
  impl_->jit->getExecutionSession().setErrorReporter([impl](llvm::Error e) {
    std::lock_guard<std::mutex> lock(impl->error_mutex);
    impl->last_session_error = error_text(std::move(e));
  });
  impl_->triple = impl_->jit->getTargetTriple().str();
  impl_->data_layout = impl_->jit->getDataLayout().getStringRepresentation();
  impl_->cpu = jtmb->getCPU();
  impl_->features = jtmb->getFeatures().getString();
  const std::string_view rtlib = codegen::rtlib_bitcode(codegen::RtlibTarget::Host);
  impl_->key_salt = ContentHash()
                        .add(LLVM_VERSION_STRING)
                        .add(impl_->triple)
                        .add(impl_->cpu)
                        .add(impl_->features)
                        .add(rtlib)
                        .hex();
  impl_->disk = DiskCache(options.cache_dir);
}

JitEngine::~JitEngine() = default;

const std::string& JitEngine::triple() const {
  return impl_->triple;
}
const std::string& JitEngine::data_layout() const {
  return impl_->data_layout;
}
const std::string& JitEngine::cpu() const {
  return impl_->cpu;
}

std::shared_ptr<JitCode> JitEngine::compile(std::unique_ptr<llvm::LLVMContext> context,
                                            std::unique_ptr<llvm::Module> module,
                                            const std::vector<std::string>& symbols) {
  std::string verify_errors;
  llvm::raw_string_ostream verify_stream(verify_errors);
  if (llvm::verifyModule(*module, &verify_stream)) {
    internal_error("the generated LLVM module is invalid: " + verify_stream.str());
  }
  if (module->getTargetTriple() != impl_->triple ||
      module->getDataLayoutStr() != impl_->data_layout) {
    internal_error("a JIT module must use the JIT's triple and data layout");
  }
  // The key covers our IR before the rtlib is linked; the salt covers the rtlib.
  llvm::SmallVector<char, 0> bitcode;
  {
    llvm::raw_svector_ostream os(bitcode);
    llvm::WriteBitcodeToFile(*module, os);
  }
  const std::string key = ContentHash()
                              .add(impl_->key_salt)
                              .add(std::string_view(bitcode.data(), bitcode.size()))
                              .hex();
  codegen::link_declared_rtlib(*module, codegen::RtlibTarget::Host);
  module->setModuleIdentifier(key);

  llvm::orc::LLJIT& jit = *impl_->jit;
  auto dylib = jit.createJITDylib("polyrt_" + std::to_string(impl_->dylib_counter++));
  if (!dylib) throw Error("cannot create a JIT dylib: " + error_text(dylib.takeError()));
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      jit.getDataLayout().getGlobalPrefix());
  if (!process)
    throw Error("cannot expose process symbols to the JIT: " + error_text(process.takeError()));
  dylib->addGenerator(std::move(*process));
  if (auto e = jit.addIRModule(
          *dylib, llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))) {
    throw Error("cannot add a module to the JIT: " + error_text(std::move(e)));
  }
  std::vector<void*> addresses;
  for (const std::string& name : symbols) {
    auto address = jit.lookup(*dylib, name);
    if (!address) {
      std::string message = error_text(address.takeError());
      const std::string cause = impl_->take_session_error();
      if (!cause.empty()) message += " (cause: " + cause + ")";
      llvm::consumeError(jit.getExecutionSession().removeJITDylib(*dylib));
      throw Error("JIT compilation failed: " + message);
    }
    addresses.push_back(address->toPtr<void*>());
  }
  return std::make_shared<DylibCode>(jit, *dylib, std::move(addresses));
}

std::string JitEngine::optimized_ir(llvm::Module& module) {
  codegen::link_declared_rtlib(module, codegen::RtlibTarget::Host);
  optimize(module, *impl_->target_machine());
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return os.str();
}

JitStats JitEngine::stats() const {
  return JitStats{impl_->compiled.load(), impl_->memory_hits.load(), impl_->disk_hits.load()};
}

}  // namespace polyrt::cpu
