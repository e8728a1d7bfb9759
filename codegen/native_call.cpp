#include "codegen/native_call.hpp"

#include <llvm/IR/Module.h>

#include <bit>

#include "nodes/native_form.hpp"
#include "polyrt/error.hpp"

namespace polyrt::codegen {

namespace {

llvm::Value* as_type(llvm::IRBuilder<>& ir, llvm::Value* word, llvm::Type* type) {
  if (type->isDoubleTy()) return ir.CreateBitCast(word, type);
  if (type->isIntegerTy(64)) return word;
  internal_error("unsupported native argument type");
}

// Tables are module content (never a process address), so cached objects stay valid.
llvm::Value* table(llvm::Module& m, const std::vector<double>* f64s,
                   const std::vector<uint64_t>* u64s) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Constant* init = f64s ? llvm::ConstantDataArray::get(ctx, llvm::ArrayRef<double>(*f64s))
                              : llvm::ConstantDataArray::get(ctx, llvm::ArrayRef<uint64_t>(*u64s));
  return new llvm::GlobalVariable(m, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                  "polyrt_table");
}

}  // namespace

llvm::Value* canonical_f64_word(llvm::IRBuilder<>& ir, llvm::Value* result) {
  llvm::Value* is_nan = ir.CreateFCmpUNO(result, result);
  llvm::Value* bits = ir.CreateBitCast(result, ir.getInt64Ty());
  return ir.CreateSelect(is_nan, ir.getInt64(nodes::kCanonicalNanBits), bits);
}

uint64_t param_word(const Value& v) {
  return v.type() == Type::F64 ? std::bit_cast<uint64_t>(v.as_f64()) : v.as_u64();
}

NativeCall emit_native_call(llvm::IRBuilder<>& ir, llvm::Module& module, RtlibLinker& rtlib,
                            const ir::Node& n,
                            const std::function<llvm::Value*(size_t input)>& input_word) {
  const nodes::NativeForm& form = *n.def->native;
  llvm::Function* callee = rtlib.declare(form.symbol);
  llvm::FunctionType* type = callee->getFunctionType();
  const size_t outs = n.out_types.size();
  llvm::AllocaInst* out_buffer = nullptr;
  std::vector<llvm::Value*> args;
  for (size_t k = 0; k < form.args.size(); ++k) {
    const nodes::NativeArg a = form.args[k];
    llvm::Type* param_type = type->getParamType((unsigned)k);
    switch (a.kind) {
      case nodes::NativeArgKind::Input:
        args.push_back(as_type(ir, input_word(a.index), param_type));
        break;
      case nodes::NativeArgKind::Param:
        args.push_back(as_type(ir, ir.getInt64(param_word(n.params[a.index])), param_type));
        break;
      case nodes::NativeArgKind::F64Count:
        args.push_back(as_type(ir, ir.getInt64(n.prepared->f64s.size()), param_type));
        break;
      case nodes::NativeArgKind::U64Count:
        args.push_back(as_type(ir, ir.getInt64(n.prepared->u64s.size()), param_type));
        break;
      case nodes::NativeArgKind::F64Table:
        args.push_back(table(module, &n.prepared->f64s, nullptr));
        break;
      case nodes::NativeArgKind::U64Table:
        args.push_back(table(module, nullptr, &n.prepared->u64s));
        break;
      case nodes::NativeArgKind::Outputs: {
        llvm::Function* fn = ir.GetInsertBlock()->getParent();
        llvm::IRBuilder<> at_entry(&fn->getEntryBlock(), fn->getEntryBlock().begin());
        out_buffer = at_entry.CreateAlloca(ir.getInt64Ty(), ir.getInt32((uint32_t)outs));
        for (uint32_t o = 0; o < outs; ++o) {
          ir.CreateStore(ir.getInt64(0),
                         ir.CreateConstInBoundsGEP1_64(ir.getInt64Ty(), out_buffer, o));
        }
        args.push_back(out_buffer);
        break;
      }
    }
  }
  NativeCall call;
  llvm::Value* result = ir.CreateCall(callee, args);
  if (form.fallible) call.status = result;
  for (uint32_t k = 0; k < outs; ++k) {
    if (out_buffer) {
      call.outputs.push_back(ir.CreateLoad(
          ir.getInt64Ty(), ir.CreateConstInBoundsGEP1_64(ir.getInt64Ty(), out_buffer, k)));
    } else if (result->getType()->isDoubleTy()) {
      call.outputs.push_back(canonical_f64_word(ir, result));
    } else {
      call.outputs.push_back(result);
    }
  }
  return call;
}

}  // namespace polyrt::codegen
