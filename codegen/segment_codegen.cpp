#include "codegen/segment_codegen.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <unordered_map>

#include "codegen/native_call.hpp"
#include "codegen/rtlib_bitcode.hpp"
#include "polyrt/error.hpp"

namespace polyrt::codegen {

std::string segment_symbol(uint32_t step) {
  return "polyrt_seg_" + std::to_string(step);
}

namespace {

class SegmentEmitter {
 public:
  SegmentEmitter(llvm::Module& m, const ir::Graph& g, const plan::StatePlan& plan)
      : m_(m), g_(g), plan_(plan), ctx_(m.getContext()), ir_(ctx_), rtlib_(m, RtlibTarget::Host) {}

  void emit(uint32_t step_index) {
    const plan::Step& step = plan_.steps[step_index];
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

  void emit_member(uint32_t node_index, uint32_t member) {
    const ir::Node& n = g_.nodes[node_index];
    const NativeCall call = emit_native_call(ir_, m_, rtlib_, n, [&](size_t input) {
      const ir::Wire w = n.inputs[input];
      return word(plan_.node_slot[w.node] + w.port);
    });
    if (call.status) {
      auto* ok = llvm::BasicBlock::Create(ctx_, "ok", fn_);
      auto* failed = llvm::BasicBlock::Create(ctx_, "failed", fn_);
      ir_.CreateCondBr(ir_.CreateICmpEQ(call.status, ir_.getInt32(0)), ok, failed);
      ir_.SetInsertPoint(failed);
      ir_.CreateRet(ir_.getInt32((int32_t)member + 1));
      ir_.SetInsertPoint(ok);
    }
    const uint32_t first_out = plan_.node_slot[node_index];
    for (uint32_t k = 0; k < call.outputs.size(); ++k) {
      ir_.CreateAlignedStore(call.outputs[k], slot_ptr(first_out + k), llvm::Align(8));
      values_[first_out + k] = call.outputs[k];
    }
  }

  llvm::Module& m_;
  const ir::Graph& g_;
  const plan::StatePlan& plan_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> ir_;
  RtlibLinker rtlib_;
  llvm::Function* fn_ = nullptr;
  llvm::Value* slots_arg_ = nullptr;
  std::unordered_map<uint32_t, llvm::Value*> values_;
};

}  // namespace

std::vector<std::string> emit_segments(llvm::Module& module, const ir::Graph& graph,
                                       const plan::StatePlan& plan) {
  SegmentEmitter emitter(module, graph, plan);
  std::vector<std::string> symbols(plan.steps.size());
  for (uint32_t s = 0; s < plan.steps.size(); ++s) {
    if (plan.steps[s].kind != plan::StepKind::Segment) continue;
    emitter.emit(s);
    symbols[s] = segment_symbol(s);
  }
  return symbols;
}

bool emit_request_entry(llvm::Module& module, const plan::StatePlan& plan) {
  for (const plan::Step& step : plan.steps) {
    if (!step.is_frozen && step.kind != plan::StepKind::Segment) return false;
  }
  llvm::LLVMContext& ctx = module.getContext();
  llvm::IRBuilder<> ir(ctx);
  auto* fn_type = llvm::FunctionType::get(ir.getInt32Ty(), {ir.getPtrTy(), ir.getPtrTy()}, false);
  auto* fn =
      llvm::Function::Create(fn_type, llvm::Function::ExternalLinkage, kRequestSymbol, module);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::Value* slots = fn->getArg(0);
  llvm::Value* coordinates = fn->getArg(1);
  ir.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", fn));
  for (size_t c = 0; c < plan.coordinate_slots.size(); ++c) {
    llvm::Value* word = ir.CreateAlignedLoad(
        ir.getInt64Ty(), ir.CreateConstInBoundsGEP1_64(ir.getInt64Ty(), coordinates, c),
        llvm::Align(8));
    ir.CreateAlignedStore(
        word, ir.CreateConstInBoundsGEP1_64(ir.getInt64Ty(), slots, plan.coordinate_slots[c]),
        llvm::Align(8));
  }
  for (uint32_t s = 0; s < plan.steps.size(); ++s) {
    if (plan.steps[s].is_frozen) continue;
    llvm::CallInst* status = ir.CreateCall(module.getFunction(segment_symbol(s)), {slots});
    status->addFnAttr(llvm::Attribute::AlwaysInline);
    auto* ok = llvm::BasicBlock::Create(ctx, "ok", fn);
    auto* failed = llvm::BasicBlock::Create(ctx, "failed", fn);
    ir.CreateCondBr(ir.CreateICmpEQ(status, ir.getInt32(0)), ok, failed);
    ir.SetInsertPoint(failed);
    ir.CreateRet(status);
    ir.SetInsertPoint(ok);
  }
  ir.CreateRet(ir.getInt32(0));
  return true;
}

}  // namespace polyrt::codegen
