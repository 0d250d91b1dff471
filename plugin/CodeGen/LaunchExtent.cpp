//===- LaunchExtent.cpp - a kernel's bounds check as a host function ------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The terms of each dimension (LaunchBound.h) become IR in prefix order:
// signed 64-bit arithmetic, a division by zero giving 0 as
// ofld::detail::bound_div does for offload-rewrite's output.
//
//===----------------------------------------------------------------------===//

#include "LaunchExtent.h"
#include "KernelEntries.h"

#include "offload/launch.hpp"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace offload {
namespace {

std::string extentName(const Function &Kernel) {
  return entryName(Kernel) + ".extent";
}

FunctionType *extentType(LLVMContext &Ctx) {
  auto *Ptr = PointerType::getUnqual(Ctx);
  return FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false);
}

/// Emits the expression starting at Terms[I], advancing I past it.
Value *emitTerms(IRBuilder<> &B, ArrayRef<BoundTerm> Terms, size_t &I,
                 const KernelDescriptor &D, Value *Objs) {
  const BoundTerm &T = Terms[I++];
  Type *I64 = B.getInt64Ty();
  auto Arg = [&](unsigned P) {
    return B.CreateLoad(B.getPtrTy(),
                        B.CreateConstInBoundsGEP1_64(B.getPtrTy(), Objs, P));
  };
  switch (T.Op) {
  case BoundTerm::Const:
    return ConstantInt::getSigned(I64, T.Constant);
  case BoundTerm::Value: {
    Value *At =
        B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Arg(T.Param), T.Offset);
    Value *V = B.CreateLoad(B.getIntNTy(T.Bytes * 8), At);
    return T.Signed ? B.CreateSExt(V, I64) : B.CreateZExt(V, I64);
  }
  case BoundTerm::Count: {
    const ParamLayout &P = D.Params[T.Param];
    if (P.Count) // a static extent
      return ConstantInt::get(I64, P.Count);
    return B.CreateLoad(I64, B.CreateConstInBoundsGEP1_64(
                                 B.getInt8Ty(), Arg(T.Param), P.CountOffset));
  }
  default:
    break;
  }
  Value *L = emitTerms(B, Terms, I, D, Objs);
  Value *R = emitTerms(B, Terms, I, D, Objs);
  switch (T.Op) {
  case BoundTerm::Add:
    return B.CreateAdd(L, R);
  case BoundTerm::Sub:
    return B.CreateSub(L, R);
  case BoundTerm::Mul:
    return B.CreateMul(L, R);
  case BoundTerm::Div: {
    Value *Zero = ConstantInt::get(I64, 0);
    Value *IsZero = B.CreateICmpEQ(R, Zero);
    Value *Safe = B.CreateSelect(IsZero, ConstantInt::get(I64, 1), R);
    return B.CreateSelect(IsZero, Zero, B.CreateSDiv(L, Safe));
  }
  case BoundTerm::Min:
    return B.CreateBinaryIntrinsic(Intrinsic::smin, L, R);
  case BoundTerm::Max:
    return B.CreateBinaryIntrinsic(Intrinsic::smax, L, R);
  default:
    llvm_unreachable("operands handled above");
  }
}

} // namespace

void defineExtentFunction(Module &M, Function &Kernel,
                          const KernelDescriptor &D) {
  LLVMContext &Ctx = M.getContext();
  std::string Name = extentName(Kernel);
  Function *F = M.getFunction(Name);
  if (F && !F->isDeclaration())
    return;
  if (!F)
    F = Function::Create(extentType(Ctx), GlobalValue::ExternalLinkage, Name,
                         M);
  // One definition per program where templates give one per TU.
  F->setLinkage(Kernel.hasLocalLinkage() ? GlobalValue::InternalLinkage
                                         : GlobalValue::WeakODRLinkage);
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  Value *Objs = F->getArg(0), *Out = F->getArg(1);
  // A descriptor without a bound (none was read) refuses a launch without
  // a grid rather than guess one.
  LaunchBound Bound;
  for (DimBound &Dim : Bound.Dims)
    Dim.S = DimBound::Unknown;
  const LaunchBound &Use = D.Bound ? *D.Bound : Bound;
  for (auto [I, Dim] : enumerate(Use.Dims)) {
    Value *V;
    if (Dim.S == DimBound::Bounded) {
      size_t At = 0;
      V = emitTerms(B, Dim.Terms, At, D, Objs);
    } else {
      V = B.getInt64(Dim.S == DimBound::Unindexed
                         ? ofld::detail::extent_unindexed
                         : ofld::detail::extent_unknown);
    }
    B.CreateStore(V, B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), Out, I));
  }
  B.CreateRetVoid();
}

void emitExtentCall(IRBuilder<> &B, Module &M, Function &Kernel, Value *Objs,
                    Value *Extent) {
  FunctionCallee Fn =
      M.getOrInsertFunction(extentName(Kernel), extentType(M.getContext()));
  if (auto *F = dyn_cast<Function>(Fn.getCallee()); F && F->isDeclaration())
    F->setLinkage(Kernel.hasLocalLinkage() ? GlobalValue::InternalLinkage
                                           : GlobalValue::ExternalLinkage);
  B.CreateCall(Fn, {Objs, Extent});
}

} // namespace offload
