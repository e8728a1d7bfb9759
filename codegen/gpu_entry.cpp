#include "codegen/gpu_entry.hpp"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include "codegen/batch_codegen.hpp"

namespace polyrt::codegen {

void mark_gpu_kernel(llvm::Module& module, llvm::Function* fn) {
  fn->setCallingConv(llvm::CallingConv::PTX_Kernel);
  llvm::LLVMContext& ctx = module.getContext();
  llvm::NamedMDNode* annotations = module.getOrInsertNamedMetadata("nvvm.annotations");
  for (auto [key, value] : {std::pair<const char*, unsigned>{"kernel", 1},
                            std::pair<const char*, unsigned>{"maxntidx", kGpuBlockThreads},
                            std::pair<const char*, unsigned>{"minctasm", kGpuMinBlocksPerSm}}) {
    llvm::Metadata* ops[] = {
        llvm::ValueAsMetadata::get(fn), llvm::MDString::get(ctx, key),
        llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), value))};
    annotations->addOperand(llvm::MDNode::get(ctx, ops));
  }
}

std::array<llvm::Value*, 4> gpu_thread_indices(llvm::IRBuilder<>& ir) {
  std::array<llvm::Value*, 4> indices{};
  const llvm::Intrinsic::ID ids[] = {
      llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x,
      llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x};
  for (size_t k = 0; k < 4; ++k) indices[k] = ir.CreateIntrinsic(ids[k], {}, {});
  return indices;
}

std::vector<llvm::Value*> launch_arguments(llvm::IRBuilder<>& ir, llvm::Value* params,
                                           const std::vector<llvm::Type*>& types) {
  std::vector<llvm::Value*> args;
  for (size_t a = 0; a < types.size(); ++a) {
    llvm::Value* slot = ir.CreateAlignedLoad(
        ir.getPtrTy(), ir.CreateConstInBoundsGEP1_64(ir.getPtrTy(), params, a), llvm::Align(8));
    args.push_back(ir.CreateAlignedLoad(types[a], slot, llvm::Align(8)));
  }
  return args;
}

}  // namespace polyrt::codegen
