// The rtlib compiled to LLVM bitcode at build time and embedded in the library.
#pragma once

#include <memory>
#include <string_view>

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace polyrt::codegen {

enum class RtlibTarget { Host, Nvptx };

std::string_view rtlib_bitcode(RtlibTarget target);

// Declares rtlib functions in a module under construction and links, at the
// end, only the ones it uses (lazily parsed, LinkOnlyNeeded), stripped of
// their target attributes (they inherit the JIT's CPU) and internalized.
class RtlibLinker {
 public:
  // The module's triple and data layout must already be set; a mismatch with
  // the rtlib is refused with polyrt::Error.
  RtlibLinker(llvm::Module& destination, RtlibTarget target);
  ~RtlibLinker();
  RtlibLinker(const RtlibLinker&) = delete;
  RtlibLinker& operator=(const RtlibLinker&) = delete;

  // A declaration of rtlib function `name` with the rtlib's own prototype.
  llvm::Function* declare(std::string_view name);
  // Links the declared functions' bodies; call once, after building the IR.
  void link();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Links into `module` the bodies of every rtlib function (pd_*) it declares.
void link_declared_rtlib(llvm::Module& module, RtlibTarget target);

}  // namespace polyrt::codegen
