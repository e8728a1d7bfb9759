#include "codegen/jit/jit_engine.hpp"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/IRCompileLayer.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

#include "cache/disk_cache.hpp"
#include "codegen/jit/jit_cpu.hpp"
#include "codegen/pipeline/llvm_fatal_errors.hpp"
#include "codegen/pipeline/optimize.hpp"
#include "codegen/rtlib_bitcode.hpp"
#include "polyrt/error.hpp"

namespace polyrt::jit {

namespace {

void initialize_llvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    codegen::install_llvm_fatal_error_handler();
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
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
  std::unique_ptr<cache::CompiledCache> cache;  // objects, keyed by module_key
  std::atomic<uint64_t> dylib_counter{0};
  std::mutex error_mutex;
  std::string last_session_error;

  std::unique_ptr<llvm::TargetMachine> target_machine() {
    auto tm = jtmb.createTargetMachine();
    if (!tm)
      internal_error("cannot create a target machine for the JIT: " + error_text(tm.takeError()));
    return std::move(*tm);
  }

  // Memory cache, then disk cache, then O2 + codegen (stored in both).
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> compile_module(llvm::Module& m) {
    const std::string key = m.getModuleIdentifier();
    if (std::optional<std::string> object = cache->find(key)) {
      return llvm::MemoryBuffer::getMemBufferCopy(*object, key);
    }
    auto tm = jtmb.createTargetMachine();
    if (!tm) return tm.takeError();
    codegen::optimize_o2(m, **tm);
    llvm::orc::SimpleCompiler compiler(**tm);
    auto object = compiler(m);
    if (!object) return object.takeError();
    cache->keep(key, std::string((*object)->getBufferStart(), (*object)->getBufferSize()));
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
  static JitEngine* engine = new JitEngine(JitOptions{cache::default_cache_dir()});
  return *engine;
}

JitEngine::JitEngine(JitOptions options) : impl_(new Impl) {
  initialize_llvm();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) internal_error("cannot detect the host for the JIT: " + error_text(jtmb.takeError()));
  const char* wanted = std::getenv(kJitCpuVariable);
  const JitCpu cpu =
      choose_jit_cpu(jtmb->getTargetTriple().str(),
                     {jtmb->getCPU(), jtmb->getFeatures().getString()}, wanted ? wanted : "");
  jtmb->setCPU(cpu.cpu);
  jtmb->getFeatures() = llvm::SubtargetFeatures(cpu.features);
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
  if (!jit) internal_error("cannot create the LLVM JIT: " + error_text(jit.takeError()));
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
  impl_->key_salt = codegen::target_salt(impl_->triple, impl_->cpu, impl_->features, rtlib);
  impl_->cache = std::make_unique<cache::CompiledCache>(options.cache_dir, ".o");
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
const std::string& JitEngine::features() const {
  return impl_->features;
}

std::shared_ptr<JitCode> JitEngine::compile(std::unique_ptr<llvm::LLVMContext> context,
                                            std::unique_ptr<llvm::Module> module,
                                            const std::vector<std::string>& symbols) {
  codegen::verify_generated_module(*module);
  if (module->getTargetTriple() != impl_->triple ||
      module->getDataLayoutStr() != impl_->data_layout) {
    internal_error("a JIT module must use the JIT's triple and data layout");
  }
  // The key covers our IR before the rtlib is linked; the salt covers the rtlib.
  const std::string key = codegen::module_key(impl_->key_salt, *module);
  codegen::link_declared_rtlib(*module, codegen::RtlibTarget::Host);
  module->setModuleIdentifier(key);

  llvm::orc::LLJIT& jit = *impl_->jit;
  auto dylib = jit.createJITDylib("polyrt_" + std::to_string(impl_->dylib_counter++));
  if (!dylib) internal_error("cannot create a JIT dylib: " + error_text(dylib.takeError()));
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      jit.getDataLayout().getGlobalPrefix());
  if (!process)
    internal_error("cannot expose process symbols to the JIT: " + error_text(process.takeError()));
  dylib->addGenerator(std::move(*process));
  if (auto e = jit.addIRModule(
          *dylib, llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))) {
    internal_error("cannot add a module to the JIT: " + error_text(std::move(e)));
  }
  std::vector<void*> addresses;
  for (const std::string& name : symbols) {
    auto address = jit.lookup(*dylib, name);
    if (!address) {
      std::string message = error_text(address.takeError());
      const std::string cause = impl_->take_session_error();
      if (!cause.empty()) message += " (cause: " + cause + ")";
      llvm::consumeError(jit.getExecutionSession().removeJITDylib(*dylib));
      internal_error("JIT compilation failed: " + message);
    }
    addresses.push_back(address->toPtr<void*>());
  }
  return std::make_shared<DylibCode>(jit, *dylib, std::move(addresses));
}

std::string JitEngine::code_text(llvm::Module& module, CodeText form) {
  if (form == CodeText::Emitted) return codegen::module_text(module);
  codegen::link_declared_rtlib(module, codegen::RtlibTarget::Host);
  const std::unique_ptr<llvm::TargetMachine> tm = impl_->target_machine();
  codegen::optimize_o2(module, *tm);
  return form == CodeText::Assembly ? codegen::module_assembly(module, *tm)
                                    : codegen::module_text(module);
}

JitStats JitEngine::stats() const {
  return impl_->cache->stats();
}

}  // namespace polyrt::jit
