// The compile pipeline every target shares: verification of the modules
// polyrt generates, cache keys, the O2 pipeline with the target's cost model,
// and IR as text. LLVM errors become polyrt::Error with their root cause.
#pragma once

#include <string>
#include <string_view>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace polyrt::codegen {

// A module polyrt generated must verify; one that does not is a polyrt bug.
void verify_generated_module(const llvm::Module& module);

// What a compiled module's key covers besides its own IR: the LLVM version,
// the target (triple, CPU or sm, features, PTX ISA...) and the rtlib blob
// linked into it.
std::string target_salt(std::string_view triple, std::string_view cpu, std::string_view features,
                        std::string_view rtlib_blob);

// The cache key of `module` (our IR, before the rtlib is linked) for a target.
std::string module_key(std::string_view target_salt, const llvm::Module& module);

// The new-pass-manager O2 pipeline. No fast-math flags exist in our IR and
// the target machines forbid contraction, so nothing fuses.
void optimize_o2(llvm::Module& module, llvm::TargetMachine& target_machine);

std::string module_text(const llvm::Module& module);

// The target's assembly of `module` (PTX for NVPTX): `--emit-asm`, `--emit-ptx`.
std::string module_assembly(llvm::Module& module, llvm::TargetMachine& target_machine);

}  // namespace polyrt::codegen
