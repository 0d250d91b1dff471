//===- DeviceEntries.cpp - GPU/CPU kernel entries of a device image -------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "DeviceEntries.h"
#include "KernelEntries.h"
#include "LaunchABI.h"
#include "RuntimeABI.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

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

    SmallVector<SlotShape, 8> Shapes = slotShapes(K.Desc.Params);
    SmallVector<Type *, 16> Slots{PtrTy}; // dyn_ptr, unused by bare kernels
    SmallVector<std::pair<unsigned, uint64_t>, 4> ByVal; // slot, bytes
    for (auto [I, P] : enumerate(K.Desc.Params))
      appendSlotTypes(P, Shapes[I], GPU, Slots, ByVal);
    Slots.append(NumDimSlots + abi::NumMarkSlots, I64);

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
    // The GPU targets place such a kernel parameter in parameter space
    // (NVPTX: byval) or the kernarg segment (AMDGPU, whose kernels take no
    // byval: byref in the constant address space), at the offset of the
    // literal slots the host passes in its place.
    for (auto [Slot, Bytes] : ByVal) {
      auto *Ty = ArrayType::get(I64, inlineSlots(Bytes));
      E->addParamAttr(Slot, T.isAMDGPU()
                                ? Attribute::getWithByRefType(Ctx, Ty)
                                : Attribute::getWithByValType(Ctx, Ty));
      E->addParamAttr(Slot, Attribute::getWithAlignment(Ctx, Align(8)));
    }
    E->setVisibility(GlobalValue::ProtectedVisibility);
    E->setCallingConv(T.isNVPTX()    ? CallingConv::PTX_Kernel
                      : T.isAMDGPU() ? CallingConv::AMDGPU_KERNEL
                                     : CallingConv::C);

    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", E));
    unsigned Slot = 1;
    auto *ObjsTy =
        ArrayType::get(PtrTy, std::max<size_t>(1, K.Desc.Params.size()));
    Value *Objs = stackObject(B, ObjsTy, "objs");
    for (auto [I, P] : enumerate(K.Desc.Params)) {
      Value *Obj = rebuildObject(B, P, Shapes[I], E, Slot);
      B.CreateStore(Obj, B.CreateConstInBoundsGEP2_32(ObjsTy, Objs, 0, I));
    }
    if (GPU) {
      B.CreateCall(Thunk, {K.Kernel, Objs});
    } else {
      auto *DimsTy = ArrayType::get(I32, abi::NumDims);
      Value *Dims = stackObject(B, DimsTy, "dims");
      for (unsigned D = 0; D < abi::NumDims; ++D) {
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
  /// `ByVal` gets the slot and size of each byval parameter (GPUs).
  void appendSlotTypes(const ParamLayout &P, SlotShape Shape, bool GPU,
                       SmallVectorImpl<Type *> &Out,
                       SmallVectorImpl<std::pair<unsigned, uint64_t>> &ByVal) {
    switch (Shape) {
    case SlotShape::Literal:
      Out.push_back(I64);
      break;
    case SlotShape::Inline:
      if (GPU) {
        ByVal.push_back({unsigned(Out.size()), P.Bytes});
        Out.push_back(M.getTargetTriple().isAMDGPU()
                          ? PointerType::get(Ctx, ConstantAS)
                          : PtrTy);
      } else {
        Out.append(inlineSlots(P.Bytes), I64);
      }
      break;
    case SlotShape::Pointer:
      Out.push_back(PtrTy);
      break;
    case SlotShape::PointerAndCount:
    case SlotShape::Reduction:
      Out.push_back(PtrTy);
      Out.push_back(I64);
      break;
    case SlotShape::Aggregate:
      Out.append(inlineSlots(P.Bytes), I64);
      Out.append(P.Fields.size(), PtrTy);
      break;
    }
  }

  Value *stackObject(IRBuilder<> &B, Type *Ty, const Twine &Name) {
    unsigned AS = M.getDataLayout().getAllocaAddrSpace();
    Value *A = B.CreateAlloca(Ty, AS, nullptr, Name);
    return AS ? B.CreateAddrSpaceCast(A, PtrTy) : A;
  }

  /// Address of the parameter object that slot(s) `Slot...` describe.
  Value *rebuildObject(IRBuilder<> &B, const ParamLayout &P, SlotShape Shape,
                       Function *E, unsigned &Slot) {
    switch (Shape) {
    case SlotShape::Literal: {
      Value *Tmp = stackObject(B, I64, "literal");
      B.CreateStore(E->getArg(Slot++), Tmp); // little endian: value first
      return Tmp;
    }
    case SlotShape::Inline: {
      const Triple &T = M.getTargetTriple();
      if (T.isNVPTX() || T.isAMDGPU()) {
        // Read in place (ReadByValueInPlacePass) unless the kernel writes
        // its parameter; the target then copies it to the stack.
        Argument *Obj = E->getArg(Slot++);
        Obj->addAttr(Attribute::NoAlias);
        Obj->addAttr(Attribute::ReadOnly);
        return Obj->getType() == PtrTy ? static_cast<Value *>(Obj)
                                       : B.CreateAddrSpaceCast(Obj, PtrTy);
      }
      uint64_t N = inlineSlots(P.Bytes);
      auto *Ty = ArrayType::get(I64, N);
      Value *Tmp = stackObject(B, Ty, "inline");
      for (uint64_t W = 0; W < N; ++W)
        B.CreateStore(E->getArg(Slot++),
                      B.CreateConstInBoundsGEP2_32(Ty, Tmp, 0, W));
      return Tmp;
    }
    case SlotShape::Pointer: {
      Argument *Obj = E->getArg(Slot++);
      // A by-value object's device copy belongs to this launch and is only
      // ever copied from: to the optimiser it is constant memory, so the
      // parameter copy the call makes is read in place (no per-thread
      // stack copy of a large struct) unless the kernel writes to it.
      if (P.Kind == PayloadKind::Value) {
        Obj->addAttr(Attribute::NoAlias);
        Obj->addAttr(Attribute::ReadOnly);
        Obj->addAttr(Attribute::getWithDereferenceableBytes(Ctx, P.Bytes));
      }
      return Obj;
    }
    case SlotShape::Reduction: {
      // GPUs: __ofld::reduce::gpu_slot {target, scratch}; the CPU grid
      // combines into the variable itself and needs no scratch.
      Argument *Target = E->getArg(Slot++);
      Argument *Scratch = E->getArg(Slot++);
      const Triple &T = M.getTargetTriple();
      if (!T.isNVPTX() && !T.isAMDGPU())
        return Target;
      auto *SlotTy = StructType::get(PtrTy, I64);
      Value *Obj = stackObject(B, SlotTy, "reduction");
      B.CreateStore(Target, B.CreateStructGEP(SlotTy, Obj, 0));
      B.CreateStore(Scratch, B.CreateStructGEP(SlotTy, Obj, 1));
      return Obj;
    }
    case SlotShape::Aggregate: {
      // The object's bytes, each span's data pointer then replaced by its
      // elements' device address (every thread its own copy, which the
      // optimiser keeps in registers).
      uint64_t N = inlineSlots(P.Bytes);
      auto *Ty = ArrayType::get(I64, N);
      Value *Tmp = stackObject(B, Ty, "aggregate");
      for (uint64_t W = 0; W < N; ++W)
        B.CreateStore(E->getArg(Slot++),
                      B.CreateConstInBoundsGEP2_32(Ty, Tmp, 0, W));
      for (const SpanField &F : P.Fields)
        B.CreateAlignedStore(E->getArg(Slot++),
                             B.CreateConstInBoundsGEP1_64(
                                 B.getInt8Ty(), Tmp, F.Offset + F.DataOffset),
                             Align(8));
      return Tmp;
    }
    case SlotShape::PointerAndCount: {
      auto *SpanTy = ArrayType::get(Type::getInt8Ty(Ctx), P.SpanBytes);
      Value *Span = stackObject(B, SpanTy, "span");
      B.CreateStore(E->getArg(Slot++), B.CreateConstInBoundsGEP1_64(
                                           B.getInt8Ty(), Span, P.DataOffset));
      Value *Count = E->getArg(Slot++);
      if (P.Count == 0) // dynamic extent: the size member exists
        B.CreateStore(Count, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Span,
                                                          P.CountOffset));
      return Span;
    }
    }
    llvm_unreachable("bad slot shape");
  }

  /// AMDGPU's constant address space, where kernel arguments live.
  static constexpr unsigned ConstantAS = 4;

  Module &M;
  const AnnotatedKernel &K;
  LLVMContext &Ctx;
  PointerType *PtrTy;
  IntegerType *I64, *I32;
};

} // namespace

namespace {

/// `Fill` copies a whole by-value object (an entry argument the entry marked
/// `noalias readonly`) into stack copy `A`. Whether everything else only
/// reads `A`: loads, memory copies out of it, lifetime markers and the
/// address arithmetic in between; `Uses` gets those instructions, each
/// after the pointer it uses.
bool onlyReadAfterFill(AllocaInst *A, MemCpyInst *Fill,
                       SmallVectorImpl<Instruction *> &Uses) {
  SmallVector<Value *, 16> Work{A};
  while (!Work.empty()) {
    Value *P = Work.pop_back_val();
    for (User *U : P->users()) {
      auto *I = cast<Instruction>(U);
      if (I == Fill)
        continue; // `A` is its destination
      if (auto *II = dyn_cast<IntrinsicInst>(I);
          II && II->isLifetimeStartOrEnd()) {
        Uses.push_back(I);
        continue;
      }
      if (isa<GetElementPtrInst, AddrSpaceCastInst, BitCastInst>(I)) {
        Uses.push_back(I);
        Work.push_back(I);
        continue;
      }
      if (auto *L = dyn_cast<LoadInst>(I); L && !L->isVolatile()) {
        Uses.push_back(I);
        continue;
      }
      if (auto *C = dyn_cast<MemTransferInst>(I); C && !C->isVolatile() &&
                                                  C->getRawSource() == P &&
                                                  C->getRawDest() != P) {
        Uses.push_back(I);
        continue;
      }
      return false; // a store, a call, a comparison, a phi: keep the copy
    }
  }
  return true;
}

/// The stack copies of by-value objects in entry `E` that only fill from
/// an object and are then only read.
bool readInPlace(Function &E) {
  const DataLayout &DL = E.getDataLayout();
  SmallVector<std::pair<AllocaInst *, MemCpyInst *>, 4> Copies;
  for (Instruction &I : instructions(E)) {
    auto *Fill = dyn_cast<MemCpyInst>(&I);
    auto *Len = Fill ? dyn_cast<ConstantInt>(Fill->getLength()) : nullptr;
    if (!Len || Fill->isVolatile())
      continue;
    auto *A = dyn_cast<AllocaInst>(Fill->getRawDest());
    auto *Obj = dyn_cast<Argument>(Fill->getRawSource()->stripPointerCasts());
    std::optional<TypeSize> Size = A ? A->getAllocationSize(DL) : std::nullopt;
    if (A && Obj && Obj->hasNoAliasAttr() && Obj->onlyReadsMemory() && Size &&
        !Size->isScalable() && Size->getFixedValue() == Len->getZExtValue())
      Copies.push_back({A, Fill});
  }
  bool Changed = false;
  for (auto [A, Fill] : Copies) {
    SmallVector<Instruction *, 16> Uses;
    if (!onlyReadAfterFill(A, Fill, Uses))
      continue;
    // The object as the copy addressed it (a global pointer on AMDGPU),
    // computed where it dominates every use.
    Value *Src = Fill->getRawSource();
    if (auto *Cast = dyn_cast<Instruction>(Src)) {
      Src = IRBuilder<>(&*E.getEntryBlock().getFirstInsertionPt())
                .CreateAddrSpaceCast(Cast->stripPointerCasts(), Src->getType());
    }
    // Loads keep what they assumed of the copy's alignment only as far as
    // the object has it, too.
    Align Limit = std::min(Fill->getSourceAlign().valueOrOne(), A->getAlign());
    DenseMap<Value *, Value *> Now{{A, Src}};
    for (Instruction *I : Uses) {
      Value *Old = I->getOperand(isa<MemTransferInst>(I) ? 1 : 0);
      if (isa<IntrinsicInst>(I) && !isa<MemTransferInst>(I)) {
        continue; // a lifetime marker, erased below
      } else if (auto *G = dyn_cast<GetElementPtrInst>(I)) {
        SmallVector<Value *, 4> Idx(G->indices());
        Now[I] =
            IRBuilder<>(G).CreateGEP(G->getSourceElementType(), Now[Old], Idx,
                                     G->getName(), G->getNoWrapFlags());
      } else if (isa<CastInst>(I)) {
        Now[I] = Now[Old];
      } else if (auto *L = dyn_cast<LoadInst>(I)) {
        L->setOperand(LoadInst::getPointerOperandIndex(), Now[Old]);
        L->setAlignment(std::min(L->getAlign(), Limit));
      } else {
        auto *C = cast<MemTransferInst>(I);
        C->setSource(Now[Old]);
        C->setSourceAlignment(
            std::min(C->getSourceAlign().valueOrOne(), Limit));
      }
    }
    // Users first: the old address arithmetic and markers are unused now.
    Fill->eraseFromParent();
    for (Instruction *I : reverse(Uses))
      if (!isa<LoadInst, MemTransferInst>(I))
        I->eraseFromParent();
    A->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

} // namespace

PreservedAnalyses ReadByValueInPlacePass::run(Module &M,
                                              ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M)
    if (isGpuEntry(F))
      Changed |= readInPlace(F);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

namespace {
/// Keeps OpenMPOpt (and its Attributor) off the device module: bare kernels
/// call no OpenMP runtime, so it has nothing of OpenMP to optimise, and it
/// costs: its address-space inference casts stack pointers to the private
/// address space, and when InstCombine then replaces a local array copied
/// from a constant (`float w[] = {...}`) by that constant, the cast points a
/// global at the stack -- an illegal memory access on sm_90 at -O2 (LLVM 22).
/// It also took half of the optimiser's time on large kernels. OpenMPOpt
/// runs on modules whose "openmp" flag is set; "openmp-device" stays.
bool dropOpenMPFlag(Module &M) {
  NamedMDNode *Flags = M.getModuleFlagsMetadata();
  if (!Flags || !M.getModuleFlag("openmp"))
    return false;
  SmallVector<MDNode *, 8> Keep;
  for (MDNode *F : Flags->operands()) {
    auto *Key = F->getNumOperands() > 1 ? dyn_cast<MDString>(F->getOperand(1))
                                        : nullptr;
    if (!Key || Key->getString() != "openmp")
      Keep.push_back(F);
  }
  Flags->clearOperands();
  for (MDNode *F : Keep)
    Flags->addOperand(F);
  return true;
}
/// GPU entries reach the kernel through the launch thunk: entry ->
/// invoke<P...> (the kernel as a function pointer) -> invoke_with -> kernel.
/// The thunks are always inlined: until they are, the kernel call is
/// indirect, and LLVM 22's AMDGPU inline-cost analysis crashes on such a
/// call that passes a large by-value object.
void inlineThunks(Module &M, const AnnotatedKernel &K) {
  Function *Thunk = M.getFunction(K.Desc.InvokeThunk);
  if (!Thunk || Thunk->isDeclaration())
    return;
  SmallVector<Function *, 2> Chain{Thunk};
  for (Instruction &I : instructions(*Thunk))
    if (auto *Call = dyn_cast<CallBase>(&I))
      if (Function *F = Call->getCalledFunction();
          F && !F->isDeclaration() && !F->isIntrinsic())
        Chain.push_back(F);
  for (Function *F : Chain) {
    F->removeFnAttr(Attribute::NoInline);
    F->removeFnAttr(Attribute::OptimizeNone);
    F->addFnAttr(Attribute::AlwaysInline);
  }
}

/// Inlines the thunks and the kernel into entry `E` now, at every
/// optimisation level, for kernels that take a by-value object through
/// device memory: called, the kernel would receive the object through the
/// parameter space, copied word by word (NVPTX took 9 minutes at -O0 to
/// compile a 64 KiB struct), and at -O0 the thunks' stack slots keep the
/// call indirect, out of the always-inliner's reach. Only the thunks'
/// slots are promoted to registers; the kernel's own stay, for debuggers.
void inlineKernel(Function &E) {
  for (int Level = 0; Level < 3; ++Level) { // invoke, invoke_with, kernel
    SmallVector<CallBase *, 4> Calls;
    for (Instruction &I : instructions(E))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *F = Call->getCalledFunction();
            F && !F->isDeclaration() && !F->isIntrinsic())
          Calls.push_back(Call);
    for (CallBase *Call : Calls) {
      InlineFunctionInfo IFI;
      InlineFunction(*Call, IFI);
    }
    if (Level == 2)
      break;
    SmallVector<AllocaInst *, 8> Slots;
    for (Instruction &I : E.getEntryBlock())
      if (auto *A = dyn_cast<AllocaInst>(&I); A && isAllocaPromotable(A))
        Slots.push_back(A);
    if (!Slots.empty()) {
      DominatorTree DT(E);
      PromoteMemToReg(Slots, DT);
    }
  }
}

/// Block-shared arrays (ofld::shared_array: address space 3 on NVPTX and
/// AMDGPU) of 16 bytes or more get 16-byte alignment. The offload driver
/// assembles device code relocatably (`ptxas -c`), and a relocatable
/// module's shared array has only its declared alignment, the element's:
/// nvcc's whole-program ptxas places it itself and so knows that
/// consecutive floats at a multiple of 16 can be read with one 128-bit load.
/// k-means' distance loop read its centroids with 64 LDS.32 where nvcc's
/// has 16 LDS.128 (1.4x the CUDA time); declared 16-aligned, the same PTX
/// assembles to nvcc's loads. Costs at most 12 bytes of padding an array.
bool alignSharedArrays(Module &M) {
  constexpr unsigned SharedAddrSpace = 3;
  const Align Vector(16);
  const DataLayout &DL = M.getDataLayout();
  bool Changed = false;
  for (GlobalVariable &G : M.globals()) {
    if (G.getAddressSpace() != SharedAddrSpace || G.isDeclaration() ||
        DL.getTypeAllocSize(G.getValueType()) < Vector.value() ||
        G.getAlign().valueOrOne() >= Vector)
      continue;
    G.setAlignment(Vector);
    Changed = true;
  }
  return Changed;
}

} // namespace

PreservedAnalyses DeviceEntriesPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = dropOpenMPFlag(M);
  bool GPU = M.getTargetTriple().isNVPTX() || M.getTargetTriple().isAMDGPU();
  if (GPU)
    Changed |= alignSharedArrays(M);
  SmallVector<AnnotatedKernel, 8> Kernels = collectKernels(M);
  for (const AnnotatedKernel &K : Kernels) {
    if (!M.getFunction(entryName(*K.Kernel)))
      EntryBuilder(M, K).build();
    if (!GPU)
      continue;
    inlineThunks(M, K);
    SmallVector<SlotShape, 8> Shapes = slotShapes(K.Desc.Params);
    if (any_of(enumerate(K.Desc.Params), [&](auto IP) {
          auto [I, P] = IP;
          return P.Kind == PayloadKind::Value &&
                 (Shapes[I] == SlotShape::Pointer ||
                  Shapes[I] == SlotShape::Inline);
        }))
      if (Function *E = M.getFunction(entryName(*K.Kernel)))
        inlineKernel(*E);
  }
  releaseThunks(M, Kernels);
  return Kernels.empty() && !Changed ? PreservedAnalyses::all()
                                     : PreservedAnalyses::none();
}

} // namespace offload
