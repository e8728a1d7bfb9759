#include "codegen/jit/jit_cpu.hpp"

#include <llvm/ADT/StringRef.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>

#include <memory>

#include "polyrt/error.hpp"

namespace polyrt::jit {

JitCpu choose_jit_cpu(const std::string& triple, const JitCpu& host, const std::string& wanted) {
  if (wanted.empty()) return host;
  const std::string what = std::string(kJitCpuVariable) + "=" + wanted;
  std::string lookup_error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, lookup_error);
  if (!target) internal_error(what + ": no LLVM target for " + triple + " (" + lookup_error + ")");
  // Asked of the host's subtarget: creating one for an unknown CPU would
  // print LLVM's own warning.
  const std::unique_ptr<llvm::MCSubtargetInfo> host_info(
      target->createMCSubtargetInfo(triple, host.cpu, host.features));
  if (!host_info || !host_info->isCPUStringValid(wanted)) {
    throw RefusedError(
        what + " names no CPU LLVM knows for " + triple +
        " (e.g. x86-64-v2, x86-64-v3, x86-64-v4, skylake-avx512, znver4; the host is " + host.cpu +
        ")");
  }
  const std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, wanted, ""));
  // A 32-bit x86 CPU (i386, pentium4, k6-2, ...) is a valid name for the
  // triple, but LLVM aborts the process when asked for 64-bit code on it.
  if (llvm::StringRef(triple).starts_with("x86_64") && !info->checkFeatures("+64bit")) {
    throw RefusedError(
        what + " names a 32-bit CPU, which cannot run the 64-bit code polyrt generates " +
        "(e.g. x86-64, x86-64-v2, x86-64-v3, x86-64-v4; the host is " + host.cpu + ")");
  }
  // Every feature the host reports absent ("-name") must be absent from
  // the CPU's too.
  std::string missing;
  llvm::StringRef rest(host.features);
  while (!rest.empty()) {
    auto [feature, tail] = rest.split(',');
    rest = tail;
    if (!feature.consume_front("-")) continue;
    if (info->checkFeatures(("+" + feature).str())) {
      missing += (missing.empty() ? "" : ", ") + feature.str();
    }
  }
  if (!missing.empty()) {
    throw RefusedError(what + " needs features this " + host.cpu + " host lacks (" + missing +
                       "): its code would fault here");
  }
  return {wanted, ""};
}

}  // namespace polyrt::jit
