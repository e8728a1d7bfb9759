#include "codegen/batch_codegen.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <unordered_map>

#include "codegen/device_text_call.hpp"
#include "codegen/gpu_kernel_target.hpp"
#include "codegen/native_call.hpp"
#include "nodes/device_text_form.hpp"
#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"

namespace polyrt::codegen {

using plan::BatchValue;

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
  // `gpu`: the GPU target whose entries wrap the lanes; null for the CPU.
  BatchEmitter(llvm::Module& m, const ir::Graph& g, const plan::BatchPlan& p,
               const GpuKernelTarget* gpu)
      : m_(m),
        g_(g),
        p_(p),
        gpu_(gpu),
        ctx_(m.getContext()),
        ir_(ctx_),
        rtlib_(m, gpu ? gpu->rtlib() : RtlibTarget::Host) {}

  // The word of a scalar port that a constant node gives (a literal, or
  // what the passes folded), which the kernel then holds as an immediate:
  // LLVM turns a division by it into a multiply and keeps it in a
  // register. Str constants (their words are addresses) and the scalars of
  // externs and fixed coordinates, which change from batch to batch, are
  // read from the scalars.
  std::optional<uint64_t> constant_word(uint32_t port) const {
    const Value* v = plan::constant_at(g_, p_, port);
    if (!v) return std::nullopt;
    const Type t = v->is_none() ? Type::Str : v->type();
    if (!is_integer(t) && t != Type::F64 && t != Type::F32 && t != Type::Bool) return std::nullopt;
    return word_of(*v);
  }

  std::string emit(uint32_t step) {
    const std::vector<uint32_t> columns = kernel_columns(g_, p_, step);
    llvm::Function* body = emit_body(step, columns);
    if (!gpu_) return emit_cpu_kernel(step, columns, body);
    const std::string symbol = gpu_->entry_symbol("polyrt_gpu_kernel_" + std::to_string(step));
    // The scalars and the columns alias nothing else (nor does err).
    gpu_->emit_entry(m_, emit_gpu_lanes(step, columns, body), symbol, 2);
    return symbol;
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
    auto column_arg = [&](uint32_t column) {
      const size_t k = std::find(columns.begin(), columns.end(), column) - columns.begin();
      return fn->getArg(3 + (unsigned)k);
    };
    auto column_ptr = [&](uint32_t column) {
      return ir_.CreateInBoundsGEP(ir_.getInt64Ty(), column_arg(column), row);
    };
    // A device-made text's slot in this row (plan::device_text_slot).
    auto text_slot = [&](uint32_t column) {
      const uint64_t slot = plan::device_text_slot(p_.text_bounds[column]);
      return ir_.CreateInBoundsGEP(ir_.getInt8Ty(), column_arg(column),
                                   ir_.CreateMul(row, ir_.getInt64(slot)));
    };

    std::unordered_map<uint32_t, llvm::Value*> words;  // per port
    auto word = [&](ir::Wire w) -> llvm::Value* {
      const uint32_t port = p_.source_of(w);  // an alias reads what it passes through
      auto it = words.find(port);
      if (it != words.end()) return it->second;
      const BatchValue& v = p_.values[port];
      llvm::Value* loaded = nullptr;
      switch (v.kind) {
        case BatchValue::Lane:
          loaded = coordinate;
          break;
        case BatchValue::Scalar:
          if (const std::optional<uint64_t> constant = constant_word(port)) {
            loaded = ir_.getInt64(*constant);
            break;
          }
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
      const auto input_word = [&](size_t input) { return word(n.inputs[input]); };
      NativeCall call;
      if (n.def->native) {
        call = emit_native_call(ir_, m_, rtlib_, n, input_word);
      } else if (n.def->device_text->kind == nodes::DeviceTextKind::Word) {
        call.outputs = {emit_device_word(ir_, m_, rtlib_, n, input_word, [&](size_t input) {
          return text_of(n.inputs[input], text_slot);
        })};
      } else {
        emit_text_member(members[m], word, text_slot);
        continue;
      }
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

  using WordOf = std::function<llvm::Value*(ir::Wire)>;
  using SlotOf = std::function<llvm::Value*(uint32_t column)>;

  // A device text member: written into its column's slot in this row
  // (`slot_of`), its length before it.
  void emit_text_member(uint32_t node, const WordOf& word, const SlotOf& slot_of) {
    const ir::Node& n = g_.nodes[node];
    std::vector<Type> input_types;
    for (const ir::Wire& w : n.inputs) input_types.push_back(g_.nodes[w.node].out_types[w.port]);
    llvm::Value* slot = slot_of(p_.values[p_.port_base[node]].index);
    llvm::Value* length = emit_device_text(
        ir_, m_, rtlib_, n,
        ir_.CreateConstInBoundsGEP1_64(ir_.getInt8Ty(), slot, PD_DEVICE_TEXT_LENGTH),
        [&](size_t input) { return word(n.inputs[input]); },
        [&](size_t input) { return text_of(n.inputs[input], slot_of); }, input_types);
    ir_.CreateAlignedStore(ir_.CreateTrunc(length, ir_.getInt32Ty()), slot, llvm::Align(4));
  }

  // A text input of a device text: a constant, or a device-made text's slot.
  TextRef text_of(ir::Wire w, const SlotOf& slot_of) {
    const uint32_t port = p_.source_of(w);
    const BatchValue& v = p_.values[port];
    if (v.kind == BatchValue::Scalar) {
      const Value* constant = plan::constant_at(g_, p_, port);
      if (!constant) internal_error("a device text reads a str scalar that is no constant");
      return constant_text(ir_, m_, constant->text());
    }
    if (v.kind != BatchValue::Column || !p_.text_bounds[v.index]) {
      internal_error("a device text reads a str no kernel makes");
    }
    llvm::Value* slot = slot_of(v.index);
    llvm::Value* length = ir_.CreateAlignedLoad(ir_.getInt32Ty(), slot, llvm::Align(4));
    return {ir_.CreateConstInBoundsGEP1_64(ir_.getInt8Ty(), slot, PD_DEVICE_TEXT_LENGTH),
            ir_.CreateZExt(length, ir_.getInt64Ty())};
  }

  std::string emit_cpu_kernel(uint32_t step, const std::vector<uint32_t>& columns,
                              llvm::Function* body) {
    llvm::Type* i64 = ir_.getInt64Ty();
    auto* type = llvm::FunctionType::get(
        i64, {i64, i64, ir_.getPtrTy(), ir_.getPtrTy(), ir_.getPtrTy()}, false);
    const std::string symbol = "polyrt_batch_kernel_" + std::to_string(step);
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

  // The GPU lanes, which every GPU target's entry wraps:
  //   void lanes(i64 first, i64 count, ptr scalars, ptr c0.., ptr err,
  //              i32 block, i32 block_dim, i32 thread, i32 grid_dim)
  // Lane `block * block_dim + thread` takes every grid-size-th row; a
  // failing row lowers *err to (row << 32) | member atomically (the smallest
  // row wins, then the smallest member: the CPU kernel's first failure).
  llvm::Function* emit_gpu_lanes(uint32_t step, const std::vector<uint32_t>& columns,
                                 llvm::Function* body) {
    llvm::Type* i64 = ir_.getInt64Ty();
    llvm::Type* i32 = ir_.getInt32Ty();
    std::vector<llvm::Type*> params = {i64, i64, ir_.getPtrTy()};
    params.insert(params.end(), columns.size() + 1, ir_.getPtrTy());
    params.insert(params.end(), 4, i32);
    auto* fn = llvm::Function::Create(llvm::FunctionType::get(ir_.getVoidTy(), params, false),
                                      llvm::Function::InternalLinkage,
                                      "polyrt_gpu_lanes_" + std::to_string(step), m_);
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    fn->addFnAttr(llvm::Attribute::AlwaysInline);
    const unsigned ids = 3 + (unsigned)columns.size() + 1;
    llvm::Value* first = fn->getArg(0);
    llvm::Value* count = fn->getArg(1);
    llvm::Value* err = fn->getArg(ids - 1);
    auto* entry = llvm::BasicBlock::Create(ctx_, "entry", fn);
    auto* loop = llvm::BasicBlock::Create(ctx_, "rows", fn);
    auto* failed = llvm::BasicBlock::Create(ctx_, "failed", fn);
    auto* next = llvm::BasicBlock::Create(ctx_, "next", fn);
    auto* done = llvm::BasicBlock::Create(ctx_, "done", fn);
    ir_.SetInsertPoint(entry);
    auto wide = [&](unsigned arg) { return ir_.CreateZExt(fn->getArg(arg), i64); };
    llvm::Value* start = ir_.CreateAdd(ir_.CreateMul(wide(ids), wide(ids + 1)), wide(ids + 2));
    llvm::Value* stride = ir_.CreateMul(wide(ids + 1), wide(ids + 3));
    ir_.CreateCondBr(ir_.CreateICmpULT(start, count), loop, done);

    ir_.SetInsertPoint(loop);
    llvm::PHINode* row = ir_.CreatePHI(i64, 2);
    row->addIncoming(start, entry);
    std::vector<llvm::Value*> args = {ir_.CreateAdd(first, row), row, fn->getArg(2)};
    for (unsigned c = 0; c < columns.size(); ++c) args.push_back(fn->getArg(3 + c));
    llvm::Value* status = ir_.CreateCall(body, args);
    ir_.CreateCondBr(ir_.CreateICmpNE(status, ir_.getInt32(0)), failed, next);

    ir_.SetInsertPoint(failed);
    llvm::Value* member = ir_.CreateZExt(ir_.CreateSub(status, ir_.getInt32(1)), i64);
    ir_.CreateAtomicRMW(llvm::AtomicRMWInst::UMin, err,
                        ir_.CreateOr(ir_.CreateShl(row, 32), member), llvm::MaybeAlign(8),
                        llvm::AtomicOrdering::Monotonic);
    ir_.CreateBr(next);

    ir_.SetInsertPoint(next);
    llvm::Value* next_row = ir_.CreateAdd(row, stride);
    row->addIncoming(next_row, next);
    ir_.CreateCondBr(ir_.CreateICmpULT(next_row, count), loop, done);
    ir_.SetInsertPoint(done);
    ir_.CreateRetVoid();
    return fn;
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
  const GpuKernelTarget* gpu_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> ir_;
  RtlibLinker rtlib_;
};

}  // namespace

namespace {

std::vector<std::string> emit_kernels(BatchEmitter& emitter, const plan::BatchPlan& plan) {
  std::vector<std::string> symbols(plan.steps.size());
  for (uint32_t s = 0; s < plan.steps.size(); ++s) {
    if (plan.steps[s].kind == plan::BatchStep::Kernel) symbols[s] = emitter.emit(s);
  }
  return symbols;
}

}  // namespace

std::vector<std::string> emit_cpu_batch_kernels(llvm::Module& module, const ir::Graph& graph,
                                                const plan::BatchPlan& plan) {
  BatchEmitter emitter(module, graph, plan, nullptr);
  return emit_kernels(emitter, plan);
}

std::vector<std::string> emit_gpu_batch_kernels(llvm::Module& module, const ir::Graph& graph,
                                                const plan::BatchPlan& plan,
                                                const GpuKernelTarget& target) {
  BatchEmitter emitter(module, graph, plan, &target);
  return emit_kernels(emitter, plan);
}

}  // namespace polyrt::codegen
