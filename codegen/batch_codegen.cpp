#include "codegen/batch_codegen.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <unordered_map>

#include "codegen/native_call.hpp"
#include "polyrt/error.hpp"

namespace polyrt::codegen {

using plan::BatchValue;

std::string batch_kernel_symbol(uint32_t step) {
  return "polyrt_batch_kernel_" + std::to_string(step);
}

std::vector<uint32_t> kernel_columns(const ir::Graph& g, const plan::BatchPlan& p, uint32_t step) {
  std::vector<uint32_t> columns;
  auto add = [&](const BatchValue& v) {
    if (v.kind == BatchValue::Column &&
        std::find(columns.begin(), columns.end(), v.index) == columns.end()) {
      columns.push_back(v.index);
    }
  };
  for (uint32_t node : p.steps[step].nodes) {
    for (const ir::Wire& w : g.nodes[node].inputs) add(p.value_of(w));
    for (size_t k = 0; k < g.nodes[node].out_types.size(); ++k)
      add(p.values[p.port_base[node] + k]);
  }
  return columns;
}

namespace {

class BatchEmitter {
 public:
  BatchEmitter(llvm::Module& m, const ir::Graph& g, const plan::BatchPlan& p)
      : m_(m), g_(g), p_(p), ctx_(m.getContext()), ir_(ctx_), rtlib_(m, RtlibTarget::Host) {}

  std::string emit(uint32_t step) {
    const std::vector<uint32_t> columns = kernel_columns(g_, p_, step);
    llvm::Function* body = emit_body(step, columns);
    return emit_cpu_kernel(step, columns, body);
  }

 private:
  llvm::Function* emit_body(uint32_t step, const std::vector<uint32_t>& columns) {
    std::vector<llvm::Type*> params = {ir_.getInt64Ty(), ir_.getInt64Ty(), ir_.getPtrTy()};
    params.insert(params.end(), columns.size(), ir_.getPtrTy());
    auto* type = llvm::FunctionType::get(ir_.getInt32Ty(), params, false);
    auto* fn = llvm::Function::Create(type, llvm::Function::InternalLinkage,
                                      "polyrt_batch_body_" + std::to_string(step), m_);
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    fn->addFnAttr(llvm::Attribute::AlwaysInline);
    for (unsigned a = 2; a < fn->arg_size(); ++a) fn->addParamAttr(a, llvm::Attribute::NoAlias);
    ir_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn));
    llvm::Value* coordinate = fn->getArg(0);
    llvm::Value* row = fn->getArg(1);
    llvm::Value* scalars = fn->getArg(2);
    auto column_ptr = [&](uint32_t column) {
      const size_t k = std::find(columns.begin(), columns.end(), column) - columns.begin();
      return ir_.CreateInBoundsGEP(ir_.getInt64Ty(), fn->getArg(3 + (unsigned)k), row);
    };

    std::unordered_map<uint32_t, llvm::Value*> words;  // per port
    auto word = [&](ir::Wire w) -> llvm::Value* {
      const uint32_t port = p_.port_base[w.node] + w.port;
      auto it = words.find(port);
      if (it != words.end()) return it->second;
      const BatchValue& v = p_.values[port];
      llvm::Value* loaded = nullptr;
      switch (v.kind) {
        case BatchValue::Lane:
          loaded = coordinate;
          break;
        case BatchValue::Scalar:
          loaded = ir_.CreateAlignedLoad(
              ir_.getInt64Ty(), ir_.CreateConstInBoundsGEP1_64(ir_.getInt64Ty(), scalars, v.index),
              llvm::Align(8));
          break;
        case BatchValue::Column:
          loaded = ir_.CreateAlignedLoad(ir_.getInt64Ty(), column_ptr(v.index), llvm::Align(8));
          break;
        case BatchValue::None:
        case BatchValue::Register:
          internal_error("batch kernel input without a value");
      }
      words[port] = loaded;
      return loaded;
    };

    llvm::Value* status = ir_.getInt32(0);
    const auto& members = p_.steps[step].nodes;
    for (uint32_t m = 0; m < members.size(); ++m) {
      const ir::Node& n = g_.nodes[members[m]];
      const NativeCall call =
          emit_native_call(ir_, m_, rtlib_, n, [&](size_t input) { return word(n.inputs[input]); });
      if (call.status) {
        // Keep the first failure and run on: no branch leaves the lane early.
        llvm::Value* first = ir_.CreateAnd(ir_.CreateICmpEQ(status, ir_.getInt32(0)),
                                           ir_.CreateICmpNE(call.status, ir_.getInt32(0)));
        status = ir_.CreateSelect(first, ir_.getInt32((int32_t)m + 1), status);
      }
      for (uint32_t k = 0; k < call.outputs.size(); ++k) {
        const uint32_t port = p_.port_base[members[m]] + k;
        words[port] = call.outputs[k];
        if (p_.values[port].kind == BatchValue::Column) {
          ir_.CreateAlignedStore(call.outputs[k], column_ptr(p_.values[port].index),
                                 llvm::Align(8));
        }
      }
    }
    ir_.CreateRet(status);
    return fn;
  }

  std::string emit_cpu_kernel(uint32_t step, const std::vector<uint32_t>& columns,
                              llvm::Function* body) {
    llvm::Type* i64 = ir_.getInt64Ty();
    auto* type = llvm::FunctionType::get(
        i64, {i64, i64, ir_.getPtrTy(), ir_.getPtrTy(), ir_.getPtrTy()}, false);
    const std::string symbol = batch_kernel_symbol(step);
    auto* fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol, m_);
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    llvm::Value* first = fn->getArg(0);
    llvm::Value* count = fn->getArg(1);
    llvm::Value* all_columns = fn->getArg(2);
    llvm::Value* scalars = fn->getArg(3);
    llvm::Value* failed_member = fn->getArg(4);

    auto* entry = llvm::BasicBlock::Create(ctx_, "entry", fn);
    ir_.SetInsertPoint(entry);
    std::vector<llvm::Value*> column_args;
    for (uint32_t c : columns) {
      column_args.push_back(ir_.CreateAlignedLoad(
          ir_.getPtrTy(), ir_.CreateConstInBoundsGEP1_64(ir_.getPtrTy(), all_columns, c),
          llvm::Align(8)));
    }
    auto call_body = [&](llvm::Value* row) {
      std::vector<llvm::Value*> args = {ir_.CreateAdd(first, row), row, scalars};
      args.insert(args.end(), column_args.begin(), column_args.end());
      return ir_.CreateCall(body, args);
    };

    // The vectorizable pass: every row, OR-ing the statuses.
    auto* loop = llvm::BasicBlock::Create(ctx_, "rows", fn);
    auto* after = llvm::BasicBlock::Create(ctx_, "after", fn);
    auto* none_failed = llvm::BasicBlock::Create(ctx_, "none_failed", fn);
    ir_.CreateCondBr(ir_.CreateICmpEQ(count, ir_.getInt64(0)), none_failed, loop);
    ir_.SetInsertPoint(loop);
    llvm::PHINode* row = ir_.CreatePHI(i64, 2);
    llvm::PHINode* any = ir_.CreatePHI(ir_.getInt32Ty(), 2);
    row->addIncoming(ir_.getInt64(0), entry);
    any->addIncoming(ir_.getInt32(0), entry);
    llvm::Value* next_any = ir_.CreateOr(any, call_body(row));
    llvm::Value* next_row = ir_.CreateAdd(row, ir_.getInt64(1), "", true, true);
    row->addIncoming(next_row, loop);
    any->addIncoming(next_any, loop);
    ask_to_vectorize(ir_.CreateCondBr(ir_.CreateICmpULT(next_row, count), loop, after));

    // Only when a row failed: find the first one again, row by row.
    ir_.SetInsertPoint(after);
    auto* scan = llvm::BasicBlock::Create(ctx_, "scan", fn);
    auto* scan_next = llvm::BasicBlock::Create(ctx_, "scan_next", fn);
    auto* found = llvm::BasicBlock::Create(ctx_, "found", fn);
    ir_.CreateCondBr(ir_.CreateICmpEQ(next_any, ir_.getInt32(0)), none_failed, scan);
    ir_.SetInsertPoint(scan);
    llvm::PHINode* scan_row = ir_.CreatePHI(i64, 2);
    scan_row->addIncoming(ir_.getInt64(0), after);
    llvm::Value* status = call_body(scan_row);
    ir_.CreateCondBr(ir_.CreateICmpNE(status, ir_.getInt32(0)), found, scan_next);
    ir_.SetInsertPoint(scan_next);
    llvm::Value* scan_row_next = ir_.CreateAdd(scan_row, ir_.getInt64(1));
    scan_row->addIncoming(scan_row_next, scan_next);
    ir_.CreateCondBr(ir_.CreateICmpULT(scan_row_next, count), scan, none_failed);
    ir_.SetInsertPoint(found);
    ir_.CreateAlignedStore(ir_.CreateSub(status, ir_.getInt32(1)), failed_member, llvm::Align(4));
    ir_.CreateRet(scan_row);
    ir_.SetInsertPoint(none_failed);
    ir_.CreateRet(ir_.getInt64(plan::kNoFailingRow));
    return symbol;
  }

  // Without a vector 64-bit multiply (AVX2), LLVM's cost model keeps hash
  // loops scalar, yet 16 lanes of emulated multiplies (four registers per
  // value: independent chains to overlap) run the ladder kernel 2x faster
  // than scalar (measured: 4 lanes 1.3x, 8 1.6x, 32 no better than 16). A
  // loop that cannot be vectorized (branches inside transcendental functions)
  // stays scalar, with no measurable cost.
  void ask_to_vectorize(llvm::BranchInst* latch) {
    llvm::Metadata* enable[] = {llvm::MDString::get(ctx_, "llvm.loop.vectorize.enable"),
                                llvm::ConstantAsMetadata::get(ir_.getTrue())};
    llvm::Metadata* width[] = {llvm::MDString::get(ctx_, "llvm.loop.vectorize.width"),
                               llvm::ConstantAsMetadata::get(ir_.getInt32(16))};
    llvm::TempMDTuple self = llvm::MDNode::getTemporary(ctx_, {});
    llvm::Metadata* ops[] = {self.get(), llvm::MDNode::get(ctx_, enable),
                             llvm::MDNode::get(ctx_, width)};
    llvm::MDNode* loop_id = llvm::MDNode::getDistinct(ctx_, ops);
    loop_id->replaceOperandWith(0, loop_id);
    latch->setMetadata(llvm::LLVMContext::MD_loop, loop_id);
  }

  llvm::Module& m_;
  const ir::Graph& g_;
  const plan::BatchPlan& p_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> ir_;
  RtlibLinker rtlib_;
};

}  // namespace

std::vector<std::string> emit_batch_kernels(llvm::Module& module, const ir::Graph& graph,
                                            const plan::BatchPlan& plan) {
  BatchEmitter emitter(module, graph, plan);
  std::vector<std::string> symbols(plan.steps.size());
  for (uint32_t s = 0; s < plan.steps.size(); ++s) {
    if (plan.steps[s].kind == plan::BatchStep::Kernel) symbols[s] = emitter.emit(s);
  }
  return symbols;
}

}  // namespace polyrt::codegen
