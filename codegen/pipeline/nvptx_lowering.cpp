#include "codegen/pipeline/nvptx_lowering.hpp"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

namespace polyrt::codegen {

namespace {

bool wider_than_64_bits(const llvm::Type* type) {
  const llvm::Type* scalar = type->getScalarType();
  return scalar->isIntegerTy() && scalar->getIntegerBitWidth() > 64;
}

// Intrinsics NVPTX lowers to its own instructions or expands inline (a loop
// for memcpy, a select chain for an integer minimum), never to a call: the
// integer ones at any width up to 64 bits (wider ones are refused apart),
// saturating and overflow-checked arithmetic, the rounding, sign, scaling,
// class and square root of floats, and markers that emit nothing; each
// checked with llc 19 for sm_90. Everything else, sin, exp, pow and powi
// among them, is refused.
bool lowers_inline(const llvm::Function& callee) {
  if (callee.getName().starts_with("llvm.nvvm.")) return true;
  switch (callee.getIntrinsicID()) {
    case llvm::Intrinsic::memcpy:
    case llvm::Intrinsic::memmove:
    case llvm::Intrinsic::memset:
    case llvm::Intrinsic::umin:
    case llvm::Intrinsic::umax:
    case llvm::Intrinsic::smin:
    case llvm::Intrinsic::smax:
    case llvm::Intrinsic::abs:
    case llvm::Intrinsic::ctlz:
    case llvm::Intrinsic::cttz:
    case llvm::Intrinsic::ctpop:
    case llvm::Intrinsic::bswap:
    case llvm::Intrinsic::bitreverse:
    case llvm::Intrinsic::fshl:
    case llvm::Intrinsic::fshr:
    case llvm::Intrinsic::uadd_with_overflow:
    case llvm::Intrinsic::usub_with_overflow:
    case llvm::Intrinsic::umul_with_overflow:
    case llvm::Intrinsic::sadd_with_overflow:
    case llvm::Intrinsic::ssub_with_overflow:
    case llvm::Intrinsic::smul_with_overflow:
    case llvm::Intrinsic::uadd_sat:
    case llvm::Intrinsic::usub_sat:
    case llvm::Intrinsic::sadd_sat:
    case llvm::Intrinsic::ssub_sat:
    case llvm::Intrinsic::ushl_sat:
    case llvm::Intrinsic::sshl_sat:
    case llvm::Intrinsic::fptoui_sat:
    case llvm::Intrinsic::fptosi_sat:
    case llvm::Intrinsic::fabs:
    case llvm::Intrinsic::sqrt:
    case llvm::Intrinsic::copysign:
    case llvm::Intrinsic::floor:
    case llvm::Intrinsic::ceil:
    case llvm::Intrinsic::trunc:
    case llvm::Intrinsic::rint:
    case llvm::Intrinsic::nearbyint:
    case llvm::Intrinsic::round:
    case llvm::Intrinsic::roundeven:
    case llvm::Intrinsic::minnum:
    case llvm::Intrinsic::maxnum:
    case llvm::Intrinsic::minimum:
    case llvm::Intrinsic::maximum:
    case llvm::Intrinsic::ldexp:
    case llvm::Intrinsic::is_fpclass:
    case llvm::Intrinsic::lifetime_start:
    case llvm::Intrinsic::lifetime_end:
    case llvm::Intrinsic::assume:
    case llvm::Intrinsic::expect:
    case llvm::Intrinsic::experimental_noalias_scope_decl:
      return true;
    default:
      return false;
  }
}

std::string type_name(const llvm::Type* type) {
  std::string text;
  llvm::raw_string_ostream out(text);
  type->print(out);
  return out.str();
}

// What is wrong with `inst` for NVPTX, or "".
std::string problem_of(const llvm::Instruction& inst) {
  if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
    const llvm::Function* callee = call->getCalledFunction();
    if (!callee) return "an indirect call";
    if (callee->isDeclaration() && !lowers_inline(*callee)) {
      return "a call of " + callee->getName().str();
    }
  }
  if (wider_than_64_bits(inst.getType())) {
    return std::string(inst.getOpcodeName()) + " " + type_name(inst.getType());
  }
  for (const llvm::Use& operand : inst.operands()) {
    if (wider_than_64_bits(operand->getType())) {
      return std::string(inst.getOpcodeName()) + " of " + type_name(operand->getType());
    }
  }
  return "";
}

}  // namespace

std::vector<LoweringProblem> nvptx_lowering_problems(const llvm::Module& module) {
  std::vector<LoweringProblem> problems;
  for (const llvm::Function& function : module) {
    for (const llvm::Instruction& inst : llvm::instructions(function)) {
      std::string problem = problem_of(inst);
      if (!problem.empty()) problems.push_back({function.getName().str(), std::move(problem)});
    }
  }
  return problems;
}

}  // namespace polyrt::codegen
