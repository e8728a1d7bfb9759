#include "codegen/rtlib_bitcode.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include "polyrt/error.hpp"

extern "C" {
extern const char pd_rtlib_host_bc[];
extern const uint64_t pd_rtlib_host_bc_size;
extern const char pd_rtlib_nvptx_bc[];
extern const uint64_t pd_rtlib_nvptx_bc_size;
}

namespace polyrt::codegen {

std::string_view rtlib_bitcode(RtlibTarget target) {
  return target == RtlibTarget::Host ? std::string_view(pd_rtlib_host_bc, pd_rtlib_host_bc_size)
                                     : std::string_view(pd_rtlib_nvptx_bc, pd_rtlib_nvptx_bc_size);
}

struct RtlibLinker::Impl {
  llvm::Module& dst;
  std::unique_ptr<llvm::Module> rtlib;
};

RtlibLinker::RtlibLinker(llvm::Module& destination, RtlibTarget target)
    : impl_(new Impl{destination, nullptr}) {
  const std::string_view blob = rtlib_bitcode(target);
  auto lazy = llvm::getLazyBitcodeModule(
      llvm::MemoryBufferRef(llvm::StringRef(blob.data(), blob.size()), "polyrt_rtlib"),
      destination.getContext());
  if (!lazy)
    internal_error("cannot read the embedded rtlib bitcode: " + llvm::toString(lazy.takeError()));
  impl_->rtlib = std::move(*lazy);
  llvm::Module& rt = *impl_->rtlib;
  const llvm::Triple want(destination.getTargetTriple()), have(rt.getTargetTriple());
  if (want.getArch() != have.getArch() || destination.getDataLayoutStr() != rt.getDataLayoutStr()) {
    internal_error("the embedded rtlib was built for " + rt.getTargetTriple() + " (" +
                   rt.getDataLayoutStr() + "), the module targets " +
                   destination.getTargetTriple() + " (" + destination.getDataLayoutStr() + ")");
  }
  rt.setTargetTriple(destination.getTargetTriple());  // vendor and OS may be spelled differently
}

RtlibLinker::~RtlibLinker() = default;

llvm::Function* RtlibLinker::declare(std::string_view name) {
  llvm::Function* proto =
      impl_->rtlib ? impl_->rtlib->getFunction(llvm::StringRef(name.data(), name.size())) : nullptr;
  if (!proto) internal_error("the rtlib has no function '" + std::string(name) + "'");
  auto callee = impl_->dst.getOrInsertFunction(proto->getName(), proto->getFunctionType());
  return llvm::cast<llvm::Function>(callee.getCallee());
}

void RtlibLinker::link() {
  if (!impl_->rtlib) internal_error("RtlibLinker::link called twice");
  const bool failed = llvm::Linker::linkModules(
      impl_->dst, std::move(impl_->rtlib), llvm::Linker::Flags::LinkOnlyNeeded,
      [](llvm::Module& dst, const llvm::StringSet<>& from_rtlib) {
        for (llvm::Function& f : dst) {
          if (f.hasName() && from_rtlib.count(f.getName())) {
            f.removeFnAttr("target-cpu");
            f.removeFnAttr("target-features");
            f.removeFnAttr("tune-cpu");
          }
        }
        llvm::internalizeModule(dst, [&](const llvm::GlobalValue& gv) {
          return !gv.hasName() || !from_rtlib.count(gv.getName());
        });
      });
  if (failed) internal_error("linking the rtlib bitcode into a JIT module failed");
}

void link_declared_rtlib(llvm::Module& module, RtlibTarget target) {
  RtlibLinker linker(module, target);
  for (llvm::Function& f : module) {
    if (f.isDeclaration() && f.getName().starts_with("pd_")) linker.declare(f.getName().str());
  }
  linker.link();
}

}  // namespace polyrt::codegen
