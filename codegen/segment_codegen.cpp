#include "codegen/segment_codegen.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <unordered_map>

#include "codegen/rtlib_bitcode.hpp"
#include "polyrt/error.hpp"

namespace polyrt::codegen {

std::string segment_symbol(uint32_t step) {
  return "polyrt_seg_" + std::to_string(step);
}

namespace {

class SegmentEmitter {
 public:
  SegmentEmitter(llvm::Module& m, const ir::Graph& g, const slots::SlotProgram& sp)
      : m_(m), g_(g), sp_(sp), ctx_(m.getContext()), ir_(ctx_), rtlib_(m, RtlibTarget::Host) {}

  void emit(uint32_t step_index) {
    const plan::Step& step = sp_.plan.steps[step_index];
    auto* fn_type = llvm::FunctionType::get(ir_.getInt32Ty(), {ir_.getPtrTy()}, false);
    fn_ = llvm::Function::Create(fn_type, llvm::Function::ExternalLinkage,
                                 segment_symbol(step_index), m_);
    fn_->addFnAttr(llvm::Attribute::NoUnwind);
    slots_arg_ = fn_->getArg(0);
    auto* entry = llvm::BasicBlock::Create(ctx_, "entry", fn_);
    ir_.SetInsertPoint(entry);
    values_.clear();
    for (uint32_t k = 0; k < step.nodes.size(); ++k) emit_member(step.nodes[k], k);
    ir_.CreateRet(ir_.getInt32(0));
  }

 private:
  llvm::Value* slot_ptr(uint32_t slot) {
    return ir_.CreateConstInBoundsGEP1_64(ir_.getInt64Ty(), slots_arg_, slot);
  }

  // The i64 word of a slot: from a register when a member wrote it, else loaded.
  llvm::Value* word(uint32_t slot) {
    auto it = values_.find(slot);
    if (it != values_.end()) return it->second;
    llvm::Value* v = ir_.CreateAlignedLoad(ir_.getInt64Ty(), slot_ptr(slot), llvm::Align(8));
    values_[slot] = v;
    return v;
  }

  llvm::Value* as_type(llvm::Value* word, llvm::Type* type) {
    if (type->isDoubleTy()) return ir_.CreateBitCast(word, type);
    if (type->isIntegerTy(64)) return word;
    throw Error("internal error: unsupported native argument type");
  }

  llvm::Value* table(const std::vector<double>* f64s, const std::vector<uint64_t>* u64s) {
    llvm::Constant* init =
        f64s ? llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<double>(*f64s))
             : llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<uint64_t>(*u64s));
    // Tables are module content (never a process address), so cached objects stay valid.
    return new llvm::GlobalVariable(m_, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                    init, "polyrt_table");
  }

  void emit_member(uint32_t node_index, uint32_t member) {
    const ir::Node& n = g_.nodes[node_index];
    const nodes::NativeForm& form = *n.def->native;
    llvm::Function* callee = rtlib_.declare(form.symbol);
    llvm::FunctionType* type = callee->getFunctionType();
    const uint32_t first_out = sp_.plan.node_slot[node_index];
    const size_t outs = n.out_types.size();
    llvm::AllocaInst* out_buffer = nullptr;
    std::vector<llvm::Value*> args;
    for (size_t k = 0; k < form.args.size(); ++k) {
      const nodes::NativeArg a = form.args[k];
      llvm::Type* param_type = type->getParamType((unsigned)k);
      switch (a.kind) {
        case nodes::NativeArgKind::Input: {
          const ir::Wire w = n.inputs[a.index];
          args.push_back(as_type(word(sp_.plan.node_slot[w.node] + w.port), param_type));
          break;
        }
        case nodes::NativeArgKind::Param:
        case nodes::NativeArgKind::F64Count:
        case nodes::NativeArgKind::U64Count: {
          const slots::WordRef ref = sp_.node_words[node_index][k];
          args.push_back(as_type(ir_.getInt64(sp_.const_words[ref.index]), param_type));
          break;
        }
        case nodes::NativeArgKind::F64Table:
          args.push_back(table(&n.prepared->f64s, nullptr));
          break;
        case nodes::NativeArgKind::U64Table:
          args.push_back(table(nullptr, &n.prepared->u64s));
          break;
        case nodes::NativeArgKind::Outputs: {
          llvm::IRBuilder<> at_entry(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
          out_buffer = at_entry.CreateAlloca(ir_.getInt64Ty(), ir_.getInt32((uint32_t)outs));
          args.push_back(out_buffer);
          break;
        }
      }
    }
    llvm::Value* result = ir_.CreateCall(callee, args);
    if (form.fallible) {
      auto* ok = llvm::BasicBlock::Create(ctx_, "ok", fn_);
      auto* failed = llvm::BasicBlock::Create(ctx_, "failed", fn_);
      ir_.CreateCondBr(ir_.CreateICmpEQ(result, ir_.getInt32(0)), ok, failed);
      ir_.SetInsertPoint(failed);
      ir_.CreateRet(ir_.getInt32((int32_t)member + 1));
      ir_.SetInsertPoint(ok);
    }
    for (uint32_t k = 0; k < outs; ++k) {
      llvm::Value* out;
      if (out_buffer) {
        out = ir_.CreateLoad(ir_.getInt64Ty(),
                             ir_.CreateConstInBoundsGEP1_64(ir_.getInt64Ty(), out_buffer, k));
      } else if (result->getType()->isDoubleTy()) {
        // The canonical NaN every engine stores (nodes::kCanonicalNanBits).
        llvm::Value* is_nan = ir_.CreateFCmpUNO(result, result);
        llvm::Value* bits = ir_.CreateBitCast(result, ir_.getInt64Ty());
        out = ir_.CreateSelect(is_nan, ir_.getInt64(nodes::kCanonicalNanBits), bits);
      } else {
        out = result;
      }
      ir_.CreateAlignedStore(out, slot_ptr(first_out + k), llvm::Align(8));
      values_[first_out + k] = out;
    }
  }

  llvm::Module& m_;
  const ir::Graph& g_;
  const slots::SlotProgram& sp_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> ir_;
  RtlibLinker rtlib_;
  llvm::Function* fn_ = nullptr;
  llvm::Value* slots_arg_ = nullptr;
  std::unordered_map<uint32_t, llvm::Value*> values_;
};

}  // namespace

std::vector<std::string> emit_segments(llvm::Module& module, const ir::Graph& graph,
                                       const slots::SlotProgram& sp) {
  SegmentEmitter emitter(module, graph, sp);
  std::vector<std::string> symbols(sp.plan.steps.size());
  for (uint32_t s = 0; s < sp.plan.steps.size(); ++s) {
    if (sp.plan.steps[s].kind != plan::StepKind::Segment) continue;
    emitter.emit(s);
    symbols[s] = segment_symbol(s);
  }
  return symbols;
}

}  // namespace polyrt::codegen
