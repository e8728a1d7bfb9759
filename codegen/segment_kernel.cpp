#include "codegen/segment_kernel.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "codegen/gpu_kernel_target.hpp"
#include "codegen/rtlib_bitcode.hpp"

namespace polyrt::codegen {

std::string emit_segment_kernel(llvm::Module& m, RtlibLinker& rtlib, const GpuKernelTarget& target,
                                const std::string& name, std::string_view callee_name) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::IRBuilder<> ir(ctx);
  llvm::Function* callee = rtlib.declare(callee_name);
  std::vector<llvm::Type*> params = {ir.getInt64Ty()};
  for (unsigned a = 0; a + 1 < callee->arg_size(); ++a) {
    params.push_back(callee->getArg(a)->getType());
  }
  llvm::Type* i32 = ir.getInt32Ty();
  std::vector<llvm::Type*> lane_params = params;
  lane_params.insert(lane_params.end(), 4, i32);
  auto* lanes = llvm::Function::Create(llvm::FunctionType::get(ir.getVoidTy(), lane_params, false),
                                       llvm::Function::InternalLinkage, name + "_lanes", m);
  lanes->addFnAttr(llvm::Attribute::NoUnwind);
  lanes->addFnAttr(llvm::Attribute::AlwaysInline);
  {
    // Segment block * block_dim + thread, then every grid-size-th one.
    const unsigned ids = (unsigned)params.size();
    auto* entry = llvm::BasicBlock::Create(ctx, "entry", lanes);
    auto* loop = llvm::BasicBlock::Create(ctx, "segments", lanes);
    auto* done = llvm::BasicBlock::Create(ctx, "done", lanes);
    ir.SetInsertPoint(entry);
    auto wide = [&](unsigned a) { return ir.CreateZExt(lanes->getArg(a), ir.getInt64Ty()); };
    llvm::Value* segments = lanes->getArg(0);
    llvm::Value* start = ir.CreateAdd(ir.CreateMul(wide(ids), wide(ids + 1)), wide(ids + 2));
    llvm::Value* stride = ir.CreateMul(wide(ids + 1), wide(ids + 3));
    ir.CreateCondBr(ir.CreateICmpULT(start, segments), loop, done);
    ir.SetInsertPoint(loop);
    llvm::PHINode* segment = ir.CreatePHI(ir.getInt64Ty(), 2);
    segment->addIncoming(start, entry);
    std::vector<llvm::Value*> args;
    for (unsigned a = 1; a < ids; ++a) args.push_back(lanes->getArg(a));
    args.push_back(segment);
    ir.CreateCall(callee, args);
    llvm::Value* next = ir.CreateAdd(segment, stride);
    segment->addIncoming(next, loop);
    ir.CreateCondBr(ir.CreateICmpULT(next, segments), loop, done);
    ir.SetInsertPoint(done);
    ir.CreateRetVoid();
  }
  const std::string symbol = target.entry_symbol(name);
  target.emit_entry(m, lanes, symbol, (unsigned)params.size());
  return symbol;
}

}  // namespace polyrt::codegen
