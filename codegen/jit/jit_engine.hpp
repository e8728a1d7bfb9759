// The native code engine: one ORC LLJIT per process for the host CPU (its
// features detected), the O2 pipeline, the rtlib linked and inlined, and a
// two-level object cache (in memory, on disk). Safe for concurrent compiles:
// every compile builds its own TargetMachine. LLVM errors become polyrt
// errors with their root cause. LLVM headers stay in jit_engine.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/compiled_cache.hpp"
#include "codegen/jit/code_text.hpp"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace polyrt::jit {

// Objects built, and reused from memory or from disk.
using JitStats = cache::CacheStats;

// Compiled code: keeps its JIT dylib alive and hands out symbol addresses.
class JitCode {
 public:
  virtual ~JitCode() = default;
  // Addresses of the symbols asked for at compile time, in that order.
  virtual void* address(size_t index) const = 0;
};

struct JitOptions {
  // Directory of the on-disk object cache; nullopt disables it.
  std::optional<std::string> cache_dir;
};

class JitEngine {
 public:
  // The process-wide engine (disk cache from default_cache_dir()).
  static JitEngine& instance();
  explicit JitEngine(JitOptions options);
  ~JitEngine();

  // Triple and data layout every module for this engine must carry.
  const std::string& triple() const;
  const std::string& data_layout() const;
  const std::string& cpu() const;
  const std::string& features() const;  // "+avx2,+sse4.2,-avx512f,..."

  // Links the rtlib into `module`, optimizes it (O2) and compiles it, or takes
  // the object from a cache; resolves `symbols`. Throws polyrt::Error with the
  // LLVM root cause when the module is invalid or fails to compile or link.
  std::shared_ptr<JitCode> compile(std::unique_ptr<llvm::LLVMContext> context,
                                   std::unique_ptr<llvm::Module> module,
                                   const std::vector<std::string>& symbols);

  // `module` as `polyrt plan` prints it: as emitted (--emit-llvm
  // --before-o2), its O2-optimized IR with the rtlib linked (--emit-llvm),
  // or the machine code the engine would run, as assembly (--emit-asm).
  std::string code_text(llvm::Module& module, CodeText form);

  JitStats stats() const;

  struct Impl;  // defined in jit_engine.cpp, where the LLVM types live

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace polyrt::jit
