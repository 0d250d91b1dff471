//===- HostLowering.cpp - offload() calls -> libomptarget launches --------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "HostLowering.h"
#include "KernelEntries.h"
#include "LaunchABI.h"
#include "LaunchExtent.h"
#include "RuntimeABI.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Frontend/Offloading/Utility.h"
#include "llvm/Frontend/OpenMP/OMPConstants.h"
#include "llvm/Frontend/OpenMP/OMPIRBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace offload {
using abi::RuntimeFn;
using abi::transferBits;

namespace {

ParamLayout spanOf(const SpanField &F);

/// The region id of a kernel: its address is what __tgt_target_kernel
/// takes, and the offload entry ties it to the device symbol.
GlobalVariable *regionId(Module &M, Function &Kernel) {
  std::string Name = entryName(Kernel) + ".region_id";
  if (GlobalVariable *GV = M.getGlobalVariable(Name, /*AllowInternal=*/true))
    return GV;
  auto *I8 = Type::getInt8Ty(M.getContext());
  auto Linkage = Kernel.hasLocalLinkage() ? GlobalValue::InternalLinkage
                                          : GlobalValue::ExternalLinkage;
  return new GlobalVariable(M, I8, /*isConstant=*/true, Linkage, nullptr, Name);
}

/// Gives every kernel defined here a region id definition and an entry.
void emitEntries(Module &M) {
  for (AnnotatedKernel &K : collectKernels(M)) {
    defineExtentFunction(M, *K.Kernel, K.Desc);
    GlobalVariable *Id = regionId(M, *K.Kernel);
    if (Id->hasInitializer())
      continue;
    Id->setInitializer(ConstantInt::get(Type::getInt8Ty(M.getContext()), 0));
    if (!K.Kernel->hasLocalLinkage())
      Id->setLinkage(GlobalValue::WeakAnyLinkage); // templates: one per image
    offloading::emitOffloadingEntry(M, object::OffloadKind::OFK_OpenMP, Id,
                                    entryName(*K.Kernel), /*Size=*/0,
                                    /*Flags=*/0, /*Data=*/0);
  }
}

/// The ranges a launch group holds on the device (LaunchGroup in
/// KernelDescriptor.h), in allocas of the enclosing function: filled by the
/// group's first call, read back by its last.
struct GroupState {
  AllocaInst *Ptrs = nullptr, *Sizes = nullptr, *Types = nullptr,
             *Device = nullptr;
};
using GroupStates = DenseMap<std::pair<Function *, unsigned>, GroupState>;

/// What a marker call says: its descriptor and operands.
struct DecodedLaunch {
  CallSiteDescriptor Site;
  Value *Shape = nullptr; ///< the ofld::launch, or null
  Function *Kernel = nullptr;
  SmallVector<Value *, 8> Params; ///< addresses of the parameter objects
  Function *CpuThunk = nullptr;
};

/// Reads a marker call, or reports why it cannot be lowered.
std::optional<DecodedLaunch> decodeLaunch(Module &M, CallBase &Call) {
  LLVMContext &Ctx = M.getContext();
  DecodedLaunch L;
  // Every offload() specialisation shares the marker symbol, so calls whose
  // type differs from the first declaration's call it through the operand.
  bool Shaped = Call.getCalledOperand()->stripPointerCasts()->getName() ==
                abi::MarkerLaunchShaped;
  unsigned First = Shaped ? 1 : 0;
  if (Call.arg_size() < First + 2)
    return std::nullopt;
  StringRef Text;
  if (!getConstantStringInfo(Call.getArgOperand(Call.arg_size() - 1), Text)) {
    Ctx.emitError(&Call, "offload: this offload() call was not checked by the "
                         "plugin (is it in code the plugin cannot see?)");
    return std::nullopt;
  }
  Expected<CallSiteDescriptor> D = decodeCallSite(Text);
  if (!D) {
    Ctx.emitError(&Call,
                  "offload: bad call descriptor: " + toString(D.takeError()));
    return std::nullopt;
  }
  L.Site = std::move(*D);
  L.Shape = Shaped ? Call.getArgOperand(0) : nullptr;
  L.Kernel = dyn_cast<Function>(Call.getArgOperand(First)->stripPointerCasts());
  for (unsigned I = First + 1; I + 1 < Call.arg_size(); ++I)
    L.Params.push_back(Call.getArgOperand(I));
  if (!L.Kernel || L.Params.size() != L.Site.Kernel.Params.size()) {
    Ctx.emitError(&Call, "offload: call of '" + L.Site.Kernel.Name +
                             "' does not match its descriptor");
    return std::nullopt;
  }
  L.CpuThunk = M.getFunction(L.Site.Kernel.CpuThunk);
  if (!L.CpuThunk) {
    Ctx.emitError(&Call, "offload: CPU thunk of '" + L.Site.Kernel.Name +
                             "' was not emitted");
    return std::nullopt;
  }
  return L;
}

/// Moves a launch that is in no launch group out of its caller into a
/// function of its own, `void site(ptr objs, ptr launch)`, which the caller
/// calls with its parameter objects' addresses (and the shape), and returns
/// the marker call inside it, `L` updated to its operands. Why: the launch
/// sequence is some 230 IR instructions of runtime calls per call site (both
/// paths, the argument arrays), which -O2 optimised and selected
/// instructions for at every site: for bench/compile's 40 launches, 1.3 G of
/// the host back end's 3.1 G instructions. The site function and its launch
/// body are `optnone`: unoptimised they cost a fraction of that, and what they
/// lose at run time is nothing next to the launch they make. Launches of a
/// group share state in their caller's frame, so they stay there.
CallBase &outlineSite(Module &M, CallBase &Call, DecodedLaunch &L) {
  if (L.Site.Group.Id || llvm::any_of(L.Params, [](Value *P) {
        return !P->getType()->isPointerTy();
      }))
    return Call;
  LLVMContext &Ctx = M.getContext();
  auto *PtrTy = PointerType::get(Ctx, 0);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {PtrTy, PtrTy}, false);
  // The module's defaults: unwind tables, frame pointers.
  Function *F = Function::createWithDefaultAttr(
      FT, GlobalValue::InternalLinkage,
      M.getDataLayout().getProgramAddressSpace(),
      "__ofld_site." + L.Kernel->getName(), &M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::OptimizeNone);
  F->getArg(0)->setName("objs");
  F->getArg(1)->setName("launch");

  // The caller: the objects' addresses, the call.
  Function &Caller = *Call.getFunction();
  auto *ObjsTy = ArrayType::get(PtrTy, std::max<size_t>(1, L.Params.size()));
  IRBuilder<> Entry(&Caller.getEntryBlock(), Caller.getEntryBlock().begin());
  Value *Objs = Entry.CreateAlloca(ObjsTy, nullptr, "ofld.site.objs");
  IRBuilder<> B(&Call);
  for (auto [I, P] : enumerate(L.Params))
    B.CreateStore(P, B.CreateConstInBoundsGEP2_32(ObjsTy, Objs, 0, I));
  B.CreateCall(F, {Objs, L.Shape ? L.Shape : ConstantPointerNull::get(PtrTy)});
  if (auto *II = dyn_cast<InvokeInst>(&Call)) {
    B.CreateBr(II->getNormalDest());
    II->getUnwindDest()->removePredecessor(II->getParent());
  }

  // The site function: the marker call again, on the objects it was given.
  IRBuilder<> FB(BasicBlock::Create(Ctx, "entry", F));
  unsigned First = L.Shape ? 1 : 0;
  SmallVector<Value *, 8> Args;
  if (L.Shape)
    Args.push_back(F->getArg(1));
  Args.push_back(Call.getArgOperand(First)); // the kernel
  L.Params.clear();
  for (unsigned I = First + 1; I + 1 < Call.arg_size(); ++I)
    L.Params.push_back(
        FB.CreateLoad(PtrTy, FB.CreateConstInBoundsGEP2_32(ObjsTy, F->getArg(0),
                                                           0, I - First - 1)));
  Args.append(L.Params.begin(), L.Params.end());
  Args.push_back(Call.getArgOperand(Call.arg_size() - 1)); // the descriptor
  CallInst *Marker =
      FB.CreateCall(Call.getFunctionType(), Call.getCalledOperand(), Args);
  FB.CreateRetVoid();
  L.Shape = L.Shape ? F->getArg(1) : nullptr;
  Call.eraseFromParent();
  return *Marker;
}

/// A private constant C string.
Constant *globalString(Module &M, StringRef S, const Twine &Name) {
  auto *Init = ConstantDataArray::getString(M.getContext(), S);
  auto *GV = new GlobalVariable(M, Init->getType(), true,
                                GlobalValue::PrivateLinkage, Init, Name);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return GV;
}

/// The call's `struct __ofld_site`.
Constant *siteConstant(Module &M, const CallSiteDescriptor &Site) {
  LLVMContext &Ctx = M.getContext();
  IntegerType *I32 = Type::getInt32Ty(Ctx);
  // `struct __ofld_site`, field by field (runtime_abi.def).
  auto Field = [&](abi::SiteField F) -> Constant * {
    switch (F) {
    case abi::SiteField::Kernel:
      return globalString(M, Site.Kernel.Name, ".ofld.kernel_name");
    case abi::SiteField::File:
      return globalString(M, Site.File, ".ofld.file");
    case abi::SiteField::Line:
      return ConstantInt::get(I32, Site.Line);
    case abi::SiteField::Column:
      return ConstantInt::get(I32, Site.Column);
    case abi::SiteField::Flags:
      return ConstantInt::get(
          I32, Site.WarnedConstRegion ? abi::SiteFlagWarnedConst : 0);
    }
    llvm_unreachable("a site field without a value");
  };
  StructType *Ty = abi::siteType(Ctx);
  Constant *Init = ConstantStruct::get(Ty, {
#define OFLD_ABI_SITE_FIELD(Enum, Name, Type) Field(abi::SiteField::Enum),
#include "offload/runtime_abi.def"
                                           });
  auto *GV = new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage, Init,
                                ".ofld.site");
  return GV;
}

/// Lowers one marker call.
class LaunchLowering {
public:
  LaunchLowering(Module &M, OpenMPIRBuilder &OMP, GroupStates &Groups,
                 CallBase &Call, const DecodedLaunch &L)
      : M(M), OMP(OMP), Groups(Groups), Caller(*Call.getFunction()), Call(Call),
        Ctx(M.getContext()), PtrTy(PointerType::get(Ctx, 0)),
        I64(Type::getInt64Ty(Ctx)), I32(Type::getInt32Ty(Ctx)), Site(L.Site),
        Shape(L.Shape), Kernel(L.Kernel), CallParams(L.Params),
        CpuThunk(L.CpuThunk), SiteInfo(siteConstant(M, L.Site)) {}

  /// Replaces the call; the class is used once.
  void run();

private:
  struct Mapped {
    Value *Ptr, *Size;
    uint64_t Transfer; ///< to/from bits
    std::string Name;
  };
  struct Slot {
    llvm::Value *Val; ///< host pointer or literal bits
    Value *Size;
    uint64_t MapType;
    std::string Name;
  };
  /// A launch's arguments: the mapped ranges (transfer bits, not kernel
  /// parameters), then the kernel's slots.
  struct LaunchArgs {
    SmallVector<Mapped, 8> Maps;
    SmallVector<Slot, 16> Slots;
    unsigned total() const { return Maps.size() + Slots.size(); }
  };
  /// The arrays of a launch's arguments, in that order.
  struct ArgArrays {
    Value *Ptrs, *Sizes;
    Constant *Types, *Names;
  };
  struct Range {
    Value *Ptr, *Bytes, *Count; ///< Count: a span's element count, else null
  };

  LaunchArgs gatherArguments(IRBuilder<> &B, ArrayRef<Value *> Params,
                             Value *Dims, Value *Device, Value *ShapeArg,
                             bool OnStream);
  Value *arrayOf(IRBuilder<> &B, ArrayRef<Value *> Vals, Type *EltTy,
                 const Twine &Name);
  ArgArrays emitArgumentArrays(IRBuilder<> &B, const LaunchArgs &Args,
                               bool SizesOnStack);
  Function *buildBody();
  Function *createBody();
  /// What emitPlan gives the launch: the transfer bits it reads (a copy
  /// the plan may rewrite) and the plan, null where nothing is mapped.
  struct PlannedMaps {
    Value *Types, *Plan;
  };
  PlannedMaps emitPlan(IRBuilder<> &B, const LaunchArgs &Args,
                       const ArgArrays &A, Value *Device, BasicBlock *Done,
                       BasicBlock *Launched);
  Value *emitKernelCall(IRBuilder<> &B, const LaunchArgs &Args,
                        const ArgArrays &A, Value *Types, Value *Dims,
                        Value *Device, Constant *Ident);
  void emitAsync(IRBuilder<> &B, ArrayRef<Value *> Params, Function *Body,
                 Value *CallDims, Value *Device);
  Range rangeOf(IRBuilder<> &B, const ParamLayout &P, Value *Obj);
  void runOnCpu(IRBuilder<> &B, Value *Dims, Value *Objs);
  void appendWords(IRBuilder<> &B, uint64_t Bytes, Value *Obj,
                   const std::string &Name, LaunchArgs &A);
  Value *fieldAt(IRBuilder<> &B, Value *Obj, const SpanField &F);
  GroupState &groupState();
  void emitGroupBegin(IRBuilder<> &B, ArrayRef<Value *> Params);
  void emitGroupEnd(IRBuilder<> &B);
  void emitLoopHolds(IRBuilder<> &B, ArrayRef<Value *> Params, Value *Device);

  Module &M;
  OpenMPIRBuilder &OMP;
  GroupStates &Groups;
  Function &Caller; ///< the function of the call
  CallBase &Call;   ///< erased by run()
  LLVMContext &Ctx;
  PointerType *PtrTy;
  IntegerType *I64, *I32;

  // The decoded call (DecodedLaunch) and its site record.
  const CallSiteDescriptor &Site;
  Value *const Shape;
  Function *const Kernel;
  ArrayRef<Value *> CallParams;
  Function *const CpuThunk;
  Constant *const SiteInfo;
};

/// `Device`, `ShapeArg`: where and how the launch runs, for reductions'
/// scratch; `OnStream`: the arguments are for __ofld_enqueue (the queue's
/// stream), else for libomptarget's synchronous launch.
LaunchLowering::LaunchArgs
LaunchLowering::gatherArguments(IRBuilder<> &B, ArrayRef<Value *> Params,
                                Value *Dims, Value *Device, Value *ShapeArg,
                                bool OnStream) {
  uint64_t Param = abi::MapTargetParam;
  uint64_t Literal = abi::MapLiteral | abi::MapTargetParam;
  LaunchArgs A;
  unsigned Reductions = 0;
  SmallVector<SlotShape, 8> Shapes = slotShapes(Site.Kernel.Params);
  for (auto [I, P] : enumerate(Site.Kernel.Params)) {
    Value *Obj = Params[I];
    std::string Name =
        I < Site.ArgSpellings.size() ? Site.ArgSpellings[I] : "arg";
    switch (Shapes[I]) {
    case SlotShape::Literal: {
      Value *Bits = ConstantInt::get(I64, 0);
      if (P.Bytes)
        Bits = B.CreateZExt(
            B.CreateLoad(IntegerType::get(Ctx, P.Bytes * 8), Obj), I64);
      A.Slots.push_back({Bits, ConstantInt::get(I64, P.Bytes), Literal, Name});
      break;
    }
    case SlotShape::Inline:
      appendWords(B, P.Bytes, Obj, Name, A);
      break;
    case SlotShape::Aggregate:
      // The object's bytes, then each span field's elements as a span
      // parameter's: mapped, and passed as a pointer libomptarget (or the
      // runtime) translates to the device's copy.
      appendWords(B, P.Bytes, Obj, Name, A);
      for (const SpanField &F : P.Fields) {
        auto [Data, Bytes, Count] = rangeOf(B, spanOf(F), fieldAt(B, Obj, F));
        std::string Field = Name + "." + F.Path;
        A.Maps.push_back({Data, Bytes, transferBits(F.Map), Field});
        A.Slots.push_back({Data, Bytes, Param, Field});
      }
      break;
    case SlotShape::Pointer: {
      // By-value objects too big for a slot travel as a private copy.
      MapKind Map = P.Kind == PayloadKind::Value ? MapKind::To : P.Map;
      Value *Size = ConstantInt::get(I64, P.Bytes);
      A.Maps.push_back({Obj, Size, transferBits(Map), Name});
      A.Slots.push_back({Obj, Size, Param, Name});
      break;
    }
    case SlotShape::PointerAndCount: {
      auto [Data, Bytes, Count] = rangeOf(B, P, Obj);
      A.Maps.push_back({Data, Bytes, transferBits(P.Map), Name});
      A.Slots.push_back({Data, Bytes, Param, Name});
      A.Slots.push_back({Count, ConstantInt::get(I64, 8), Literal, Name});
      break;
    }
    case SlotShape::Reduction: {
      // The variable moves as a `T&` does (its old value in, the result
      // out); the partials live in scratch of the runtime's.
      Value *Size = ConstantInt::get(I64, P.Bytes);
      A.Maps.push_back({Obj, Size, transferBits(P.Map), Name});
      A.Slots.push_back({Obj, Size, Param, Name});
      auto Fn = abi::declare(M, RuntimeFn::__ofld_reduction_scratch);
      Value *Scratch = B.CreateCall(Fn,
                                    {SiteInfo, Device, ShapeArg,
                                     ConstantInt::get(I32, OnStream), Dims,
                                     ConstantInt::get(I32, Reductions++)},
                                    "ofld.scratch");
      A.Slots.push_back({Scratch, ConstantInt::get(I64, 8), Literal, Name});
      break;
    }
    }
  }
  auto *DimsTy = ArrayType::get(I32, abi::NumDims);
  for (unsigned D = 0; D < abi::NumDims; D += 2) {
    auto Load = [&](unsigned Idx) {
      return B.CreateZExt(
          B.CreateLoad(I32, B.CreateConstInBoundsGEP2_32(DimsTy, Dims, 0, Idx)),
          I64);
    };
    Value *Packed = B.CreateOr(Load(D), B.CreateShl(Load(D + 1), 32));
    A.Slots.push_back({Packed, ConstantInt::get(I64, 8), Literal, "launch"});
  }
  // No launch mark: the runtime fills these in for the launches it queues
  // on a stream itself.
  for (unsigned M = 0; M < abi::NumMarkSlots; ++M)
    A.Slots.push_back({ConstantInt::get(I64, 0), ConstantInt::get(I64, 8),
                       Literal, "launch"});
  return A;
}

/// `Bytes` bytes of the object at `Obj` as literal slots, 8 at a time; the
/// last slot zero-padded.
void LaunchLowering::appendWords(IRBuilder<> &B, uint64_t Bytes, Value *Obj,
                                 const std::string &Name, LaunchArgs &A) {
  for (uint64_t W = 0; W * 8 < Bytes; ++W) {
    uint64_t N = std::min<uint64_t>(8, Bytes - W * 8);
    Value *Word = B.CreateAlignedLoad(
        IntegerType::get(Ctx, N * 8),
        B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Obj, W * 8), Align(1));
    A.Slots.push_back({B.CreateZExt(Word, I64), ConstantInt::get(I64, 8),
                       abi::MapLiteral | abi::MapTargetParam, Name});
  }
}

/// The address of span field `F` inside the object at `Obj`.
Value *LaunchLowering::fieldAt(IRBuilder<> &B, Value *Obj, const SpanField &F) {
  return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Obj, F.Offset);
}

/// The layout a span parameter of span field `F`'s type has.
ParamLayout spanOf(const SpanField &F) {
  ParamLayout P;
  P.Kind = PayloadKind::Span;
  P.Map = F.Map;
  P.Bytes = F.Bytes;
  P.Count = F.Count;
  P.DataOffset = F.DataOffset;
  P.CountOffset = F.CountOffset;
  return P;
}

/// The host range a mapped parameter covers: the object, or a span's
/// elements.
LaunchLowering::Range
LaunchLowering::rangeOf(IRBuilder<> &B, const ParamLayout &P, Value *Obj) {
  if (P.Kind != PayloadKind::Span)
    return {Obj, ConstantInt::get(I64, P.Bytes), nullptr};
  Value *Data = B.CreateLoad(
      PtrTy, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Obj, P.DataOffset),
      "ofld.data");
  Value *Count = P.Count ? static_cast<Value *>(ConstantInt::get(I64, P.Count))
                         : B.CreateLoad(I64,
                                        B.CreateConstInBoundsGEP1_64(
                                            B.getInt8Ty(), Obj, P.CountOffset),
                                        "ofld.count");
  Value *Bytes = B.CreateMul(Count, ConstantInt::get(I64, P.Bytes),
                             "ofld.bytes", /*HasNUW=*/true);
  return {Data, Bytes, Count};
}

/// Runs the grid on this CPU, on the host's own memory: [[offload::in]]
/// parameters get a private copy of their data first (a device's copy is
/// the launch's own), freed once the grid has run.
void LaunchLowering::runOnCpu(IRBuilder<> &B, Value *Dims, Value *Objs) {
  ArrayRef<ParamLayout> Params = Site.Kernel.Params;
  if (llvm::none_of(Params, [](const ParamLayout &P) { return P.Scratch; })) {
    B.CreateCall(CpuThunk, {Dims, Kernel, Objs});
    return;
  }
  Function *F = B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F->getEntryBlock(), F->getEntryBlock().begin());
  auto *ObjsTy = ArrayType::get(PtrTy, std::max<size_t>(1, Params.size()));
  Value *Private = Entry.CreateAlloca(ObjsTy, nullptr, "ofld.cpu.objs");
  FunctionCallee Malloc = M.getOrInsertFunction("malloc", PtrTy, I64);
  FunctionCallee Free =
      M.getOrInsertFunction("free", Type::getVoidTy(Ctx), PtrTy);
  SmallVector<Value *, 4> Copies;
  for (auto [I, P] : enumerate(Params)) {
    Value *Obj =
        B.CreateLoad(PtrTy, B.CreateConstInBoundsGEP2_32(ObjsTy, Objs, 0, I));
    if (P.Scratch) {
      Range R = rangeOf(B, P, Obj);
      // malloc(0) may give null: one byte more keeps the span's pointer a
      // real one.
      Value *Copy =
          B.CreateCall(Malloc, {B.CreateAdd(R.Bytes, ConstantInt::get(I64, 1))},
                       "ofld.scratch");
      B.CreateMemCpy(Copy, MaybeAlign(), R.Ptr, MaybeAlign(), R.Bytes);
      Copies.push_back(Copy);
      if (P.Kind == PayloadKind::Span) {
        // A span object of the copy's own, pointing at the copy.
        Value *Span =
            Entry.CreateAlloca(ArrayType::get(B.getInt8Ty(), P.SpanBytes),
                               nullptr, "ofld.scratch.span");
        cast<AllocaInst>(Span)->setAlignment(Align(16));
        B.CreateMemCpy(Span, Align(16), Obj, MaybeAlign(), P.SpanBytes);
        B.CreateStore(Copy, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Span,
                                                         P.DataOffset));
        Obj = Span;
      } else {
        Obj = Copy;
      }
    }
    B.CreateStore(Obj, B.CreateConstInBoundsGEP2_32(ObjsTy, Private, 0, I));
  }
  B.CreateCall(CpuThunk, {Dims, Kernel, Private});
  for (Value *Copy : Copies)
    B.CreateCall(Free, {Copy});
}

GroupState &LaunchLowering::groupState() {
  Function *F = &Caller;
  GroupState &G = Groups[{F, Site.Group.Id}];
  if (G.Ptrs)
    return G;
  IRBuilder<> Entry(&F->getEntryBlock(), F->getEntryBlock().begin());
  unsigned N = Site.Group.NumHeld;
  G.Ptrs =
      Entry.CreateAlloca(ArrayType::get(PtrTy, N), nullptr, "ofld.group.ptrs");
  G.Sizes =
      Entry.CreateAlloca(ArrayType::get(I64, N), nullptr, "ofld.group.sizes");
  G.Types =
      Entry.CreateAlloca(ArrayType::get(I64, N), nullptr, "ofld.group.types");
  G.Device = Entry.CreateAlloca(I64, nullptr, "ofld.group.device");
  return G;
}

/// First call of a group: map the held ranges on the device the group's
/// launches will select, with the group's transfers.
void LaunchLowering::emitGroupBegin(IRBuilder<> &B, ArrayRef<Value *> Params) {
  GroupState &G = groupState();
  unsigned N = Site.Group.NumHeld, Slot = 0;
  auto *PtrsTy = ArrayType::get(PtrTy, N), *I64sTy = ArrayType::get(I64, N);
  SmallVector<Constant *, 8> Names;
  auto Hold = [&](Value *Ptr, Value *Bytes, MapKind Held,
                  const std::string &Name) {
    B.CreateStore(Ptr, B.CreateConstInBoundsGEP2_32(PtrsTy, G.Ptrs, 0, Slot));
    B.CreateStore(Bytes,
                  B.CreateConstInBoundsGEP2_32(I64sTy, G.Sizes, 0, Slot));
    B.CreateStore(ConstantInt::get(I64, transferBits(Held)),
                  B.CreateConstInBoundsGEP2_32(I64sTy, G.Types, 0, Slot));
    uint32_t Size;
    Names.push_back(OMP.getOrCreateSrcLocStr(Site.File, Name, Site.Line,
                                             Site.Column, Size));
    ++Slot;
  };
  for (auto [I, Held] : enumerate(Site.Group.Held)) {
    if (Held == MapKind::Literal)
      continue;
    const ParamLayout &P = Site.Kernel.Params[I];
    std::string Name =
        I < Site.ArgSpellings.size() ? Site.ArgSpellings[I] : "arg";
    // A struct of spans: each span field, with its own transfer.
    if (P.Kind == PayloadKind::Aggregate) {
      for (const SpanField &F : P.Fields) {
        auto [Ptr, Bytes, Count] =
            rangeOf(B, spanOf(F), fieldAt(B, Params[I], F));
        Hold(Ptr, Bytes, F.Map, Name + "." + F.Path);
      }
      continue;
    }
    auto [Ptr, Bytes, Count] = rangeOf(B, P, Params[I]);
    Hold(Ptr, Bytes, Held, Name);
  }
  auto Fn = abi::declare(M, RuntimeFn::__ofld_group_begin);
  Value *Device = B.CreateCall(
      Fn,
      {SiteInfo, ConstantInt::get(I32, N), G.Ptrs, G.Sizes, G.Types,
       OMP.createOffloadMapnames(Names, ".offload_group_mapnames")},
      "ofld.group");
  B.CreateStore(Device, G.Device);
}

/// Last call of a group: copy the held ranges back and release them.
void LaunchLowering::emitGroupEnd(IRBuilder<> &B) {
  GroupState &G = groupState();
  auto Fn = abi::declare(M, RuntimeFn::__ofld_group_end);
  B.CreateCall(Fn, {B.CreateLoad(I64, G.Device),
                    ConstantInt::get(I32, Site.Group.NumHeld), G.Ptrs, G.Sizes,
                    G.Types});
}

/// A launch in a loop that keeps some of its ranges on the device
/// (LoopResidency.h): the loop's scope holds them, on the launch's device,
/// before the launch maps them (and finds them present).
void LaunchLowering::emitLoopHolds(IRBuilder<> &B, ArrayRef<Value *> Params,
                                   Value *Device) {
  if (Site.LoopHolds.empty())
    return;
  auto Fn = abi::declare(M, RuntimeFn::__ofld_loop_hold);
  for (const LoopHoldSite &H : Site.LoopHolds) {
    if (H.Param >= Params.size())
      continue;
    auto [Ptr, Bytes, Count] =
        rangeOf(B, Site.Kernel.Params[H.Param], Params[H.Param]);
    uint32_t Size;
    Constant *Name = OMP.getOrCreateSrcLocStr(
        Site.File,
        H.Param < Site.ArgSpellings.size() ? Site.ArgSpellings[H.Param] : "arg",
        Site.Line, Site.Column, Size);
    B.CreateCall(Fn, {SiteInfo, ConstantInt::get(I32, H.Depth), Device, Ptr,
                      Bytes, ConstantInt::get(I64, transferBits(H.Map)), Name});
  }
}

Value *LaunchLowering::arrayOf(IRBuilder<> &B, ArrayRef<Value *> Vals,
                               Type *EltTy, const Twine &Name) {
  Function *F = B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&F->getEntryBlock(), F->getEntryBlock().begin());
  auto *Ty = ArrayType::get(EltTy, Vals.size());
  Value *A = Entry.CreateAlloca(Ty, nullptr, Name);
  for (auto [I, V] : enumerate(Vals))
    B.CreateStore(V, B.CreateConstInBoundsGEP2_32(Ty, A, 0, I));
  return A;
}

/// The one set of argument arrays for the runtime and __tgt_target_kernel.
/// `SizesOnStack`: the runtime may rewrite the sizes (a map plan), so they
/// cannot be a constant even where every size is known here.
LaunchLowering::ArgArrays
LaunchLowering::emitArgumentArrays(IRBuilder<> &B, const LaunchArgs &Args,
                                   bool SizesOnStack) {
  SmallVector<Value *, 16> Ptrs, Sizes;
  SmallVector<uint64_t, 16> Types;
  SmallVector<Constant *, 16> Names;
  auto AddName = [&](StringRef Name) {
    uint32_t Size;
    // libomptarget shows the first field of ";name;file;line;column;;".
    Names.push_back(OMP.getOrCreateSrcLocStr(Site.File, Name, Site.Line,
                                             Site.Column, Size));
  };
  for (const Mapped &E : Args.Maps) {
    Ptrs.push_back(E.Ptr);
    Sizes.push_back(E.Size);
    Types.push_back(E.Transfer);
    AddName(E.Name);
  }
  for (const Slot &S : Args.Slots) {
    Ptrs.push_back(S.Val);
    Sizes.push_back(S.Size);
    Types.push_back(S.MapType);
    AddName(S.Name);
  }
  ArgArrays A;
  A.Ptrs = arrayOf(B, Ptrs, PtrTy, ".offload_ptrs");
  A.Names = OMP.createOffloadMapnames(Names, ".offload_mapnames");
  A.Types = OMP.createOffloadMaptypes(Types, ".offload_maptypes");
  if (all_of(Sizes, [](Value *V) { return isa<Constant>(V); }) &&
      !SizesOnStack) {
    SmallVector<Constant *, 16> C;
    for (Value *V : Sizes)
      C.push_back(cast<Constant>(V));
    auto *Ty = ArrayType::get(I64, C.size());
    auto *GV = new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage,
                                  ConstantArray::get(Ty, C), ".offload_sizes");
    GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    A.Sizes = GV;
  } else {
    A.Sizes = arrayOf(B, Sizes, I64, ".offload_sizes");
  }
  return A;
}

/// The launch body's function, `void body(ptr objs, ptr dims, i64 device)`,
/// without blocks.
Function *LaunchLowering::createBody() {
  auto *FT =
      FunctionType::get(Type::getVoidTy(Ctx), {PtrTy, PtrTy, I64}, false);
  Function *Body = Function::Create(FT, GlobalValue::InternalLinkage,
                                    "__ofld_launch." + Kernel->getName(), M);
  Body->addFnAttr(Attribute::NoUnwind);
  // Runs once per launch: not worth -O2's time (outlineSite says why).
  Body->addFnAttr(Attribute::NoInline);
  Body->addFnAttr(Attribute::OptimizeNone);
  Body->getArg(0)->setName("objs");
  Body->getArg(1)->setName("dims");
  Body->getArg(2)->setName("device");
  return Body;
}

/// The runtime must see the mapped ranges before the launch: to merge
/// ranges that overlap (one buffer passed twice), to report a mapping the
/// device cannot hold, to move a small range to memory the device holds or
/// to stage a large one through pinned memory (MapPlan.cpp). Every launch
/// that maps something may need one of them; it may rewrite the ranges and
/// their transfer bits. A plan that failed branches to `Done`.
LaunchLowering::PlannedMaps
LaunchLowering::emitPlan(IRBuilder<> &B, const LaunchArgs &Args,
                         const ArgArrays &A, Value *Device, BasicBlock *Done,
                         BasicBlock *Launched) {
  if (Args.Maps.empty())
    return {A.Types, nullptr};
  Function *Body = B.GetInsertBlock()->getParent();
  IRBuilder<> Entry(&Body->getEntryBlock(), Body->getEntryBlock().begin());
  Value *Mutable = Entry.CreateAlloca(ArrayType::get(I64, Args.total()),
                                      nullptr, ".offload_maptypes.plan");
  B.CreateMemCpy(Mutable, Align(8), A.Types, Align(8), 8 * Args.total());
  auto Fn = abi::declare(M, RuntimeFn::__ofld_plan_maps);
  Value *Plan = B.CreateCall(
      Fn,
      {SiteInfo, Device, ConstantInt::get(I32, Args.Maps.size()),
       ConstantInt::get(I32, Args.total()), A.Ptrs, A.Sizes, Mutable, A.Names},
      "ofld.plan");
  // The plan reported a failure (to a handler, or for the next wait):
  // the launch does not run.
  auto *Abandoned =
      M.getOrInsertGlobal(abi::VariableAbandonedPlan, Type::getInt8Ty(Ctx));
  auto *Go = BasicBlock::Create(Ctx, "ofld.planned", Body, Launched);
  B.CreateCondBr(B.CreateICmpEQ(Plan, Abandoned), Done, Go);
  B.SetInsertPoint(Go);
  return {Mutable, Plan};
}

/// One __tgt_target_kernel call maps the ranges (in order), launches and
/// unmaps (in reverse), synchronised once: separate begin/end mapper calls
/// would each wait for the device. Returns its result (0: launched).
Value *LaunchLowering::emitKernelCall(IRBuilder<> &B, const LaunchArgs &Args,
                                      const ArgArrays &A, Value *Types,
                                      Value *Dims, Value *Device,
                                      Constant *Ident) {
  Function *Body = B.GetInsertBlock()->getParent();
  auto *DimsTy = ArrayType::get(I32, abi::NumDims);
  SmallVector<Value *, abi::NumDims> D;
  for (unsigned I = 0; I < abi::NumDims; ++I)
    D.push_back(
        B.CreateLoad(I32, B.CreateConstInBoundsGEP2_32(DimsTy, Dims, 0, I)));
  OpenMPIRBuilder::TargetDataRTArgs RT(
      A.Ptrs, A.Ptrs, A.Sizes, Types,
      /*MapTypesArrayEnd=*/nullptr,
      /*MappersArray=*/ConstantPointerNull::get(PtrTy), A.Names);
  Value *Teams[] = {D[0], D[1], D[2]}, *Threads[] = {D[3], D[4], D[5]};
  // The dynamic shared memory (ofld::launch's .shared_bytes): libomptarget
  // hands it to the launch, opting in above CUDA's default limit; the
  // runtime has checked it against the device's.
  OpenMPIRBuilder::TargetKernelArgs KA(
      Args.total(), RT, ConstantInt::get(I64, 0), Teams, Threads,
      D[abi::SharedBytesDim], /*HasNoWait=*/false,
      omp::OMPDynGroupprivateFallbackType::Abort);
  SmallVector<Value *> KernelArgs;
  OpenMPIRBuilder::getKernelArgsVector(KA, B, KernelArgs);
  Value *Rc = nullptr;
  OpenMPIRBuilder::InsertPointTy AllocaIP(&Body->getEntryBlock(),
                                          Body->getEntryBlock().begin());
  B.restoreIP(OMP.emitTargetKernel(OpenMPIRBuilder::LocationDescription(B),
                                   AllocaIP, Rc, Ident, Device, D[0], D[3],
                                   regionId(M, *Kernel), KernelArgs));
  return Rc;
}

/// The launch through libomptarget, outlined so that it can run now or on
/// the queue's worker thread: `void body(ptr objs, ptr dims, i64 device)`.
/// A negative device runs the kernel's grid on this CPU.
Function *LaunchLowering::buildBody() {
  Function *Body = createBody();
  Value *Objs = Body->getArg(0);
  Value *Dims = Body->getArg(1);
  Value *Device = Body->getArg(2);

  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Body));
  auto *ObjsTy = ArrayType::get(PtrTy, std::max<size_t>(1, CallParams.size()));
  SmallVector<Value *, 8> Params;
  for (unsigned I = 0; I < CallParams.size(); ++I)
    Params.push_back(
        B.CreateLoad(PtrTy, B.CreateConstInBoundsGEP2_32(ObjsTy, Objs, 0, I)));
  LaunchArgs Args =
      gatherArguments(B, Params, Dims, Device, ConstantPointerNull::get(PtrTy),
                      /*OnStream=*/false);

  uint32_t LocSize;
  Constant *Loc = OMP.getOrCreateSrcLocStr(
      Site.Function.empty() ? StringRef("unknown") : StringRef(Site.Function),
      Site.File, Site.Line, Site.Column, LocSize);
  Constant *Ident = OMP.getOrCreateIdent(Loc, LocSize);

  auto *Done = BasicBlock::Create(Ctx, "ofld.done", Body);
  auto *OnCpu = BasicBlock::Create(Ctx, "ofld.cpu", Body, Done);
  auto *Offload = BasicBlock::Create(Ctx, "ofld.offload", Body, Done);
  auto *Launched = BasicBlock::Create(Ctx, "ofld.launched", Body, Done);
  auto *Failed = BasicBlock::Create(Ctx, "ofld.failed", Body, Done);
  B.CreateCondBr(B.CreateICmpSLT(Device, ConstantInt::get(I64, 0)), OnCpu,
                 Offload);

  B.SetInsertPoint(OnCpu);
  runOnCpu(B, Dims, Objs);
  B.CreateBr(Done);

  B.SetInsertPoint(Offload);
  ArgArrays A =
      emitArgumentArrays(B, Args, /*SizesOnStack=*/!Args.Maps.empty());
  auto [Types, Plan] = emitPlan(B, Args, A, Device, Done, Launched);
  Value *Rc = emitKernelCall(B, Args, A, Types, Dims, Device, Ident);
  B.CreateCondBr(B.CreateICmpEQ(Rc, ConstantInt::get(I32, 0)), Launched,
                 Failed);

  auto FinishFn = abi::declare(M, RuntimeFn::__ofld_finish_maps);
  B.SetInsertPoint(Launched);
  if (Plan)
    B.CreateCall(FinishFn, {Plan, ConstantInt::get(I32, 1)});
  B.CreateBr(Done);

  // A launch that failed leaves the host data authoritative (unless the
  // device keeps some of it: the runtime then reports it, whatever the
  // policy): the runtime reports it (fatal when offloading is mandatory),
  // drops what the plan mapped without copying back, and the kernel runs on
  // the CPU. As in clang's own OpenMP fallback, what libomptarget mapped
  // itself stays.
  B.SetInsertPoint(Failed);
  auto FailFn = abi::declare(M, RuntimeFn::__ofld_launch_failed);
  B.CreateCall(FailFn,
               {SiteInfo, Device, Rc, ConstantInt::get(I32, Args.Maps.size()),
                A.Ptrs, A.Sizes});
  if (Plan)
    B.CreateCall(FinishFn, {Plan, ConstantInt::get(I32, 0)});
  runOnCpu(B, Dims, Objs);
  B.CreateBr(Done);

  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return Body;
}

/// For a launch that does not wait: copies what lives only as long as the
/// call (by-value parameters and span objects; references stay references)
/// into a heap context the runtime frees after running the body.
void LaunchLowering::emitAsync(IRBuilder<> &B, ArrayRef<Value *> Params,
                               Function *Body, Value *CallDims, Value *Device) {
  uint64_t ObjsBytes = 8 * std::max<size_t>(1, Params.size());
  uint64_t Offset = ObjsBytes + abi::NumDims * 4;
  SmallVector<std::pair<uint64_t, uint64_t>, 8> Copies; // offset, bytes
  for (const ParamLayout &P : Site.Kernel.Params) {
    // An object of spans is copied, as the device gets a copy of it.
    bool ByValue =
        P.Kind == PayloadKind::Value || P.Kind == PayloadKind::Aggregate;
    uint64_t Bytes = ByValue                       ? P.Bytes
                     : P.Kind == PayloadKind::Span ? P.SpanBytes
                                                   : 0;
    Offset = alignTo(Offset, 16);
    Copies.push_back({Offset, Bytes});
    Offset += Bytes;
  }
  auto AllocFn = abi::declare(M, RuntimeFn::__ofld_async_alloc);
  Value *Ctx8 =
      B.CreateCall(AllocFn, {ConstantInt::get(I64, Offset)}, "ofld.ctx");
  auto *ObjsTy = ArrayType::get(PtrTy, std::max<size_t>(1, Params.size()));
  for (auto [I, P] : enumerate(Params)) {
    Value *Obj = P;
    if (uint64_t Bytes = Copies[I].second) {
      Obj = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx8, Copies[I].first);
      B.CreateMemCpy(Obj, Align(16), P, Align(1), Bytes);
    }
    B.CreateStore(Obj, B.CreateConstInBoundsGEP2_32(ObjsTy, Ctx8, 0, I));
  }
  Value *CtxDims = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx8, ObjsBytes);
  B.CreateMemCpy(CtxDims, Align(4), CallDims, Align(4), abi::NumDims * 4);
  auto SubmitFn = abi::declare(M, RuntimeFn::__ofld_async_submit);
  Value *ShapeArg = Shape ? Shape : ConstantPointerNull::get(PtrTy);
  B.CreateCall(SubmitFn, {SiteInfo, ShapeArg, Body, Ctx8, CtxDims, Device});
}

void LaunchLowering::run() {
  Function *F = &Caller;
  BasicBlock *BB = Call.getParent();
  IRBuilder<> Entry(&F->getEntryBlock(), F->getEntryBlock().begin());
  IRBuilder<> B(&Call);
  Value *ShapeArg = Shape ? Shape : ConstantPointerNull::get(PtrTy);
  auto SelectFn = abi::declare(M, RuntimeFn::__ofld_select_device);
  // A loop's holds come before a group the launch opens inside the loop:
  // the loop keeps the ranges across trips, the group then finds them.
  bool OpensGroup = Site.Group.Id && Site.Group.Opens;
  if (OpensGroup && !Site.LoopHolds.empty())
    emitLoopHolds(B, CallParams,
                  B.CreateCall(SelectFn, {SiteInfo, ShapeArg}, "ofld.device"));
  if (OpensGroup)
    emitGroupBegin(B, CallParams);

  auto *ObjsTy = ArrayType::get(PtrTy, std::max<size_t>(1, CallParams.size()));
  Value *CallObjs = Entry.CreateAlloca(ObjsTy, nullptr, "ofld.objs");
  Value *CallDims = Entry.CreateAlloca(ArrayType::get(I32, abi::NumDims),
                                       nullptr, "ofld.dims");
  for (auto [I, P] : enumerate(CallParams))
    B.CreateStore(P, B.CreateConstInBoundsGEP2_32(ObjsTy, CallObjs, 0, I));

  // The device first: the launch shape is checked against its limits.
  Constant *Region = regionId(M, *Kernel);
  Value *Device = B.CreateCall(SelectFn, {SiteInfo, ShapeArg}, "ofld.device");
  // What the kernel's bounds check admits: the default shape.
  Value *Extent =
      Entry.CreateAlloca(ArrayType::get(I64, 3), nullptr, "ofld.extent");
  emitExtentCall(B, M, *Kernel, CallObjs, Extent);
  auto ShapeFn = abi::declare(M, RuntimeFn::__ofld_launch_shape);
  Value *Mode = B.CreateCall(
      ShapeFn, {SiteInfo, ShapeArg, Extent, Device, Region, CallDims},
      "ofld.mode");
  Function *Body = buildBody();

  // Split the block at the call; every path below ends in Tail.
  BasicBlock *Tail;
  if (auto *II = dyn_cast<InvokeInst>(&Call)) {
    Tail = BasicBlock::Create(Ctx, "ofld.cont", F);
    BranchInst::Create(II->getNormalDest(), Tail);
    II->getNormalDest()->replacePhiUsesWith(BB, Tail);
    II->getUnwindDest()->removePredecessor(BB);
    II->eraseFromParent();
  } else {
    Tail = BB->splitBasicBlock(&Call, "ofld.cont");
    BB->getTerminator()->eraseFromParent();
    Call.eraseFromParent();
  }
  auto *Enqueue = BasicBlock::Create(Ctx, "ofld.enqueue", F, Tail);
  auto *Now = BasicBlock::Create(Ctx, "ofld.now", F, Tail);
  auto *Later = BasicBlock::Create(Ctx, "ofld.async", F, Tail);
  B.SetInsertPoint(BB);
  // Nothing to run (an empty grid).
  B.CreateCondBr(B.CreateICmpEQ(Mode, ConstantInt::get(I32, abi::ModeSkip)),
                 Tail, Enqueue);

  // Where all of the launch's data is on the device, the runtime queues it
  // on its stream and returns 1 (Streams.cpp); else (0) libomptarget's path
  // runs it, now (ModeNow) or on the queue's worker (ModeAsync).
  B.SetInsertPoint(Enqueue);
  if (!OpensGroup)
    emitLoopHolds(B, CallParams, Device);
  LaunchArgs Args = gatherArguments(B, CallParams, CallDims, Device, ShapeArg,
                                    /*OnStream=*/true);
  ArgArrays A = emitArgumentArrays(B, Args, /*SizesOnStack=*/false);
  auto EnqueueFn = abi::declare(M, RuntimeFn::__ofld_enqueue);
  Value *Queued = B.CreateCall(EnqueueFn,
                               {SiteInfo, ShapeArg, Region, Device, CallDims,
                                Mode, ConstantInt::get(I32, Args.Maps.size()),
                                ConstantInt::get(I32, Args.total()), A.Ptrs,
                                A.Sizes, A.Types, A.Names},
                               "ofld.queued");
  SwitchInst *Sw = B.CreateSwitch(Queued, Tail, 1);
  Sw->addCase(ConstantInt::get(I32, 0), Now);
  // (ModeAsync is checked in ofld.now.)

  B.SetInsertPoint(Now);
  auto *Sync = BasicBlock::Create(Ctx, "ofld.sync", F, Later);
  B.CreateCondBr(B.CreateICmpEQ(Mode, ConstantInt::get(I32, abi::ModeAsync)),
                 Later, Sync);
  B.SetInsertPoint(Sync);
  // A by-value argument is read once, at the call, as on a GPU: the CPU's
  // grid runs the body once per thread, and the argument may name memory
  // the kernel writes (`offload(k, a, a[t])`).
  for (auto [I, P] : enumerate(Site.Kernel.Params)) {
    if (P.Kind != PayloadKind::Value || !P.Bytes)
      continue;
    Value *Copy = Entry.CreateAlloca(ArrayType::get(B.getInt8Ty(), P.Bytes),
                                     nullptr, "ofld.value");
    cast<AllocaInst>(Copy)->setAlignment(Align(16));
    B.CreateMemCpy(Copy, Align(16), CallParams[I], Align(1), P.Bytes);
    B.CreateStore(Copy, B.CreateConstInBoundsGEP2_32(ObjsTy, CallObjs, 0, I));
  }
  B.CreateCall(Body, {CallObjs, CallDims, Device});
  B.CreateBr(Tail);

  B.SetInsertPoint(Later);
  emitAsync(B, CallParams, Body, CallDims, Device);
  B.CreateBr(Tail);

  if (Site.Group.Id && Site.Group.Closes) {
    B.SetInsertPoint(Tail, Tail->getFirstInsertionPt());
    emitGroupEnd(B);
  }
}

} // namespace

PreservedAnalyses HostLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  emitEntries(M);
  // The launches below call the CPU thunks they need; no host code calls an
  // invoke thunk (the device images' entries do).
  releaseThunks(M, collectKernels(M));
  SmallVector<CallBase *, 8> Calls;
  for (StringRef Name : {abi::MarkerLaunch, abi::MarkerLaunchShaped})
    if (Function *Marker = M.getFunction(Name))
      for (User *U : Marker->users())
        if (auto *CB = dyn_cast<CallBase>(U);
            CB && CB->getCalledOperand()->stripPointerCasts() == Marker)
          Calls.push_back(CB);
  if (Calls.empty())
    return PreservedAnalyses::none();

  OpenMPIRBuilder OMP(M);
  OMP.setConfig(OpenMPIRBuilderConfig(/*IsTargetDevice=*/false, /*IsGPU=*/false,
                                      /*OpenMPOffloadMandatory=*/false,
                                      /*HasRequiresReverseOffload=*/false,
                                      /*HasRequiresUnifiedAddress=*/false,
                                      /*HasRequiresUnifiedSharedMemory=*/false,
                                      /*HasRequiresDynamicAllocators=*/false));
  OMP.initialize();
  GroupStates Groups;
  for (CallBase *CB : Calls)
    if (std::optional<DecodedLaunch> L = decodeLaunch(M, *CB))
      LaunchLowering(M, OMP, Groups, outlineSite(M, *CB, *L), *L).run();
  for (StringRef Name : {abi::MarkerLaunch, abi::MarkerLaunchShaped})
    if (Function *Marker = M.getFunction(Name); Marker && Marker->use_empty())
      Marker->eraseFromParent();
  OMP.finalize();
  return PreservedAnalyses::none();
}

} // namespace offload
