// Emits the text of a string node that a GPU kernel writes (its
// nodes::DeviceTextForm): the rtlib writers called at a row's text slot, the
// node's tables and constant strings as module content.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <functional>

#include "codegen/rtlib_bitcode.hpp"
#include "graph/graph.hpp"

namespace polyrt::codegen {

// A text in a kernel: its first byte and its length (i64).
struct TextRef {
  llvm::Value* bytes = nullptr;
  llvm::Value* length = nullptr;
};

// A constant string as module content (never a process address, so cached
// objects stay valid).
TextRef constant_text(llvm::IRBuilder<>& ir, llvm::Module& module, std::string_view text);

// Writes node n's text at `out` (room for its bound and PD_DEVICE_TEXT_SLACK
// bytes) and returns its length (i64). `input_word(k)` gives the word of
// input k, `input_text(k)` the text of a str input k; `input_types` are the
// inputs' types.
llvm::Value* emit_device_text(llvm::IRBuilder<>& ir, llvm::Module& module, RtlibLinker& rtlib,
                              const ir::Node& n, llvm::Value* out,
                              const std::function<llvm::Value*(size_t input)>& input_word,
                              const std::function<TextRef(size_t input)>& input_text,
                              const std::vector<Type>& input_types);

// The word of node n's Word form (an integer, or an f64's bits with any NaN
// the canonical one), its arguments as emit_device_text's.
llvm::Value* emit_device_word(llvm::IRBuilder<>& ir, llvm::Module& module, RtlibLinker& rtlib,
                              const ir::Node& n,
                              const std::function<llvm::Value*(size_t input)>& input_word,
                              const std::function<TextRef(size_t input)>& input_text);

}  // namespace polyrt::codegen
