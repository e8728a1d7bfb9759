#include "gpu_backend/ptx/ptx_entries.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include "codegen/batch_codegen.hpp"

namespace polyrt::gpu {

namespace {

// The launch bounds ptxas allocates registers for (kGpuBlockThreads says
// why two blocks per SM).
void mark_kernel(llvm::Module& module, llvm::Function* fn) {
  fn->setCallingConv(llvm::CallingConv::PTX_Kernel);
  llvm::LLVMContext& ctx = module.getContext();
  llvm::NamedMDNode* annotations = module.getOrInsertNamedMetadata("nvvm.annotations");
  for (auto [key, value] :
       {std::pair<const char*, unsigned>{"kernel", 1},
        std::pair<const char*, unsigned>{"maxntidx", codegen::kGpuBlockThreads},
        std::pair<const char*, unsigned>{"minctasm", codegen::kGpuMinBlocksPerSm}}) {
    llvm::Metadata* ops[] = {
        llvm::ValueAsMetadata::get(fn), llvm::MDString::get(ctx, key),
        llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), value))};
    annotations->addOperand(llvm::MDNode::get(ctx, ops));
  }
}

class PtxEntries final : public codegen::GpuKernelTarget {
 public:
  codegen::RtlibTarget rtlib() const override { return codegen::RtlibTarget::Nvptx; }

  std::string entry_symbol(std::string_view kernel) const override { return std::string(kernel); }

  void emit_entry(llvm::Module& module, llvm::Function* lanes, const std::string& symbol,
                  unsigned first_noalias) const override {
    llvm::IRBuilder<> ir(module.getContext());
    const unsigned params = (unsigned)lanes->arg_size() - 4;
    std::vector<llvm::Type*> types;
    for (unsigned a = 0; a < params; ++a) types.push_back(lanes->getArg(a)->getType());
    auto* fn = llvm::Function::Create(llvm::FunctionType::get(ir.getVoidTy(), types, false),
                                      llvm::Function::ExternalLinkage, symbol, module);
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    for (unsigned a = first_noalias; a < params; ++a) {
      fn->addParamAttr(a, llvm::Attribute::NoAlias);
    }
    ir.SetInsertPoint(llvm::BasicBlock::Create(module.getContext(), "entry", fn));
    std::vector<llvm::Value*> args;
    for (unsigned a = 0; a < params; ++a) args.push_back(fn->getArg(a));
    // The block, block size, thread and grid size (x only).
    for (llvm::Intrinsic::ID id :
         {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x,
          llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x,
          llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x}) {
      args.push_back(ir.CreateIntrinsic(id, {}, {}));
    }
    ir.CreateCall(lanes, args);
    ir.CreateRetVoid();
    mark_kernel(module, fn);
  }
};

}  // namespace

const codegen::GpuKernelTarget& ptx_entries() {
  static const PtxEntries entries;
  return entries;
}

}  // namespace polyrt::gpu
