// Emits the call of one node's native form (its rtlib function) with the
// node's constant arguments baked in: the one place both the per-state
// segments and the batch kernels turn a node into IR.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <functional>
#include <vector>

#include "codegen/rtlib_bitcode.hpp"
#include "graph/graph.hpp"

namespace polyrt::codegen {

struct NativeCall {
  llvm::Value* status = nullptr;      // i32, 0 on success; null when the node cannot fail
  std::vector<llvm::Value*> outputs;  // i64 words (an f64 NaN is the canonical NaN)
};

// An f64 result's word, any NaN the canonical one every engine stores
// (nodes::kCanonicalNanBits).
llvm::Value* canonical_f64_word(llvm::IRBuilder<>& ir, llvm::Value* result);

// A constant argument's word as rtlib functions take it (f64 as its bits).
uint64_t param_word(const Value& v);

// `input_word(k)` gives the i64 word of the node's k-th input. The output
// buffer of multi-output nodes is zeroed first, so a failed call leaves
// defined words behind.
NativeCall emit_native_call(llvm::IRBuilder<>& ir, llvm::Module& module, RtlibLinker& rtlib,
                            const ir::Node& node,
                            const std::function<llvm::Value*(size_t input)>& input_word);

}  // namespace polyrt::codegen
