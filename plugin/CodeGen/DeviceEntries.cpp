//===- DeviceEntries.cpp - GPU/CPU kernel entries of a device image -------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "DeviceEntries.h"
#include "KernelEntries.h"
#include "LaunchABI.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace offload {

namespace {

/// Builds one entry. `Alloca` objects live in the target's alloca address
/// space; the thunks take generic pointers.
class EntryBuilder {
public:
  EntryBuilder(Module &M, const AnnotatedKernel &K)
      : M(M), K(K), Ctx(M.getContext()), PtrTy(PointerType::get(Ctx, 0)),
        I64(Type::getInt64Ty(Ctx)), I32(Type::getInt32Ty(Ctx)) {}

  void build() {
    const Triple &T = M.getTargetTriple();
    bool GPU = T.isNVPTX() || T.isAMDGPU();
    StringRef ThunkName = GPU ? K.Desc.InvokeThunk : K.Desc.CpuThunk;
    Function *Thunk = M.getFunction(ThunkName);
    if (!Thunk || Thunk->isDeclaration()) {
      Ctx.emitError("offload: launch thunk '" + ThunkName + "' of kernel '" +
                    K.Desc.Name + "' was not emitted");
      return;
    }

    SmallVector<Type *, 16> Slots{PtrTy}; // dyn_ptr, unused by bare kernels
    for (const ParamLayout &P : K.Desc.Params)
      appendSlotTypes(P, Slots);
    Slots.append(NumDimSlots, I64);

    auto *FT = FunctionType::get(Type::getVoidTy(Ctx), Slots, false);
    Function *E = Function::Create(FT, GlobalValue::WeakODRLinkage,
                                   entryName(*K.Kernel), M);
    // Keep the kernel's target features, but not its parameter attributes
    // (byval and friends describe the C++ signature, not the slots).
    E->setAttributes(AttributeList::get(
        Ctx, K.Kernel->getAttributes().getFnAttrs(), AttributeSet(), {}));
    E->removeFnAttr(Attribute::NoInline);
    E->removeFnAttr(Attribute::OptimizeNone);
    E->addParamAttr(0, Attribute::NoAlias);
    E->setVisibility(GlobalValue::ProtectedVisibility);
    E->setCallingConv(T.isNVPTX()    ? CallingConv::PTX_Kernel
                      : T.isAMDGPU() ? CallingConv::AMDGPU_KERNEL
                                     : CallingConv::C);

    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", E));
    unsigned Slot = 1;
    auto *ObjsTy = ArrayType::get(PtrTy, std::max<size_t>(1, K.Desc.Params.size()));
    Value *Objs = stackObject(B, ObjsTy, "objs");
    for (auto [I, P] : enumerate(K.Desc.Params)) {
      Value *Obj = rebuildObject(B, P, E, Slot);
      B.CreateStore(Obj, B.CreateConstInBoundsGEP2_32(ObjsTy, Objs, 0, I));
    }
    if (GPU) {
      B.CreateCall(Thunk, {K.Kernel, Objs});
    } else {
      auto *DimsTy = ArrayType::get(I32, 6);
      Value *Dims = stackObject(B, DimsTy, "dims");
      for (unsigned D = 0; D < 6; ++D) {
        Value *Packed = E->getArg(Slot + D / 2);
        Value *Part = D % 2 ? B.CreateLShr(Packed, 32) : Packed;
        B.CreateStore(B.CreateTrunc(Part, I32),
                      B.CreateConstInBoundsGEP2_32(DimsTy, Dims, 0, D));
      }
      B.CreateCall(Thunk, {Dims, K.Kernel, Objs});
    }
    B.CreateRetVoid();
  }

private:
  void appendSlotTypes(const ParamLayout &P, SmallVectorImpl<Type *> &Out) {
    switch (slotsOf(P)) {
    case SlotShape::Literal:
      Out.push_back(I64);
      break;
    case SlotShape::Pointer:
      Out.push_back(PtrTy);
      break;
    case SlotShape::PointerAndCount:
      Out.push_back(PtrTy);
      Out.push_back(I64);
      break;
    }
  }

  Value *stackObject(IRBuilder<> &B, Type *Ty, const Twine &Name) {
    unsigned AS = M.getDataLayout().getAllocaAddrSpace();
    Value *A = B.CreateAlloca(Ty, AS, nullptr, Name);
    return AS ? B.CreateAddrSpaceCast(A, PtrTy) : A;
  }

  /// Address of the parameter object that slot(s) `Slot...` describe.
  Value *rebuildObject(IRBuilder<> &B, const ParamLayout &P, Function *E,
                       unsigned &Slot) {
    switch (slotsOf(P)) {
    case SlotShape::Literal: {
      Value *Tmp = stackObject(B, I64, "literal");
      B.CreateStore(E->getArg(Slot++), Tmp); // little endian: value first
      return Tmp;
    }
    case SlotShape::Pointer:
      return E->getArg(Slot++);
    case SlotShape::PointerAndCount: {
      auto *SpanTy = ArrayType::get(Type::getInt8Ty(Ctx), P.SpanBytes);
      Value *Span = stackObject(B, SpanTy, "span");
      B.CreateStore(E->getArg(Slot++),
                    B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Span,
                                                 P.DataOffset));
      Value *Count = E->getArg(Slot++);
      if (P.Count == 0) // dynamic extent: the size member exists
        B.CreateStore(Count, B.CreateConstInBoundsGEP1_64(
                                 B.getInt8Ty(), Span, P.CountOffset));
      return Span;
    }
    }
    llvm_unreachable("bad slot shape");
  }

  Module &M;
  const AnnotatedKernel &K;
  LLVMContext &Ctx;
  PointerType *PtrTy;
  IntegerType *I64, *I32;
};

} // namespace

PreservedAnalyses DeviceEntriesPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<AnnotatedKernel, 8> Kernels = collectKernels(M);
  for (const AnnotatedKernel &K : Kernels)
    if (!M.getFunction(entryName(*K.Kernel)))
      EntryBuilder(M, K).build();
  releaseThunks(M, Kernels);
  return Kernels.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace offload
