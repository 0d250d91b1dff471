//===- HostLowering.cpp - offload() calls -> libomptarget launches --------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "HostLowering.h"
#include "KernelEntries.h"
#include "LaunchABI.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Frontend/Offloading/Utility.h"
#include "llvm/Frontend/OpenMP/OMPConstants.h"
#include "llvm/Frontend/OpenMP/OMPIRBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using omp::OpenMPOffloadMappingFlags;

namespace offload {
namespace {

uint64_t bits(OpenMPOffloadMappingFlags F) {
  return static_cast<std::underlying_type_t<OpenMPOffloadMappingFlags>>(F);
}

OpenMPOffloadMappingFlags transferFlags(MapKind M) {
  switch (M) {
  case MapKind::To:
    return OpenMPOffloadMappingFlags::OMP_MAP_TO;
  case MapKind::From:
    return OpenMPOffloadMappingFlags::OMP_MAP_FROM;
  case MapKind::ToFrom:
    return OpenMPOffloadMappingFlags::OMP_MAP_TO |
           OpenMPOffloadMappingFlags::OMP_MAP_FROM;
  case MapKind::Literal:
    break;
  }
  return OpenMPOffloadMappingFlags::OMP_MAP_NONE;
}

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

/// Lowers one marker call.
class LaunchLowering {
public:
  LaunchLowering(Module &M, OpenMPIRBuilder &OMP, CallBase &Call)
      : M(M), OMP(OMP), Call(Call), Ctx(M.getContext()),
        PtrTy(PointerType::get(Ctx, 0)), I64(Type::getInt64Ty(Ctx)),
        I32(Type::getInt32Ty(Ctx)) {}

  bool run();

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
  };

  bool decode();
  void gatherArguments(IRBuilder<> &B);
  Value *defaultCount(IRBuilder<> &B);
  Constant *siteConstant();
  Value *arrayOf(IRBuilder<> &B, ArrayRef<Value *> Vals, Type *EltTy,
                 const Twine &Name);
  Value *sizesArray(IRBuilder<> &B);
  void emitMapper(IRBuilder<> &B, omp::RuntimeFunction Fn, Value *Ident,
                  Value *Device, Value *MapTypes);
  void emitCpuRun(IRBuilder<> &B);
  void prepareMapArrays(IRBuilder<> &B);
  void emitCapacityCheck(IRBuilder<> &B, Value *Device);
  Function *buildBody();
  void emitAsync(IRBuilder<> &B, Function *Body, Value *CallDims,
                 Value *Device);
  Constant *mapTypes(ArrayRef<uint64_t> Types, const Twine &Name);

  Module &M;
  OpenMPIRBuilder &OMP;
  CallBase &Call;
  LLVMContext &Ctx;
  PointerType *PtrTy;
  IntegerType *I64, *I32;

  CallSiteDescriptor Site;
  bool Shaped = false;
  Value *Shape = nullptr;
  Function *Kernel = nullptr;
  SmallVector<Value *, 8> Params; ///< addresses of the parameter objects
  SmallVector<Mapped, 8> Maps;
  SmallVector<Slot, 16> Slots;
  Value *Dims = nullptr, *Objs = nullptr;
  Function *CpuThunk = nullptr;
  Constant *SiteInfo = nullptr;
  Value *MapPtrs = nullptr, *MapSizes = nullptr, *MapNames = nullptr;
};

bool LaunchLowering::decode() {
  // Every offload() specialisation shares the marker symbol, so calls whose
  // type differs from the first declaration's call it through the operand.
  Shaped = Call.getCalledOperand()->stripPointerCasts()->getName() ==
           "__ofld_launch_shaped";
  unsigned First = Shaped ? 1 : 0;
  if (Call.arg_size() < First + 2)
    return false;
  StringRef Text;
  if (!getConstantStringInfo(Call.getArgOperand(Call.arg_size() - 1), Text)) {
    Ctx.emitError(&Call, "offload: this offload() call was not checked by the "
                         "plugin (is it in code the plugin cannot see?)");
    return false;
  }
  Expected<CallSiteDescriptor> D = decodeCallSite(Text);
  if (!D) {
    Ctx.emitError(&Call, "offload: bad call descriptor: " +
                             toString(D.takeError()));
    return false;
  }
  Site = std::move(*D);
  Shape = Shaped ? Call.getArgOperand(0) : nullptr;
  Kernel = dyn_cast<Function>(Call.getArgOperand(First)->stripPointerCasts());
  for (unsigned I = First + 1; I + 1 < Call.arg_size(); ++I)
    Params.push_back(Call.getArgOperand(I));
  if (!Kernel || Params.size() != Site.Kernel.Params.size()) {
    Ctx.emitError(&Call, "offload: call of '" + Site.Kernel.Name +
                             "' does not match its descriptor");
    return false;
  }
  CpuThunk = M.getFunction(Site.Kernel.CpuThunk);
  if (!CpuThunk) {
    Ctx.emitError(&Call, "offload: CPU thunk of '" + Site.Kernel.Name +
                             "' was not emitted");
    return false;
  }
  return true;
}

/// A private constant C string.
Constant *globalString(Module &M, StringRef S, const Twine &Name) {
  auto *Init = ConstantDataArray::getString(M.getContext(), S);
  auto *GV = new GlobalVariable(M, Init->getType(), true,
                                GlobalValue::PrivateLinkage, Init, Name);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return GV;
}

Constant *LaunchLowering::siteConstant() {
  // Matches `struct __ofld_site` in runtime-shim/lib/Runtime.cpp.
  auto *Ty = StructType::get(PtrTy, PtrTy, I32, I32);
  Constant *Init = ConstantStruct::get(
      Ty, {globalString(M, Site.Kernel.Name, ".ofld.kernel_name"),
           globalString(M, Site.File, ".ofld.file"),
           ConstantInt::get(I32, Site.Line), ConstantInt::get(I32, Site.Column)});
  auto *GV = new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage, Init,
                                ".ofld.site");
  return GV;
}

Value *LaunchLowering::defaultCount(IRBuilder<> &B) {
  std::optional<unsigned> I = Site.Kernel.shapeParam();
  if (!I)
    return ConstantInt::getSigned(I64, -1);
  const ParamLayout &P = Site.Kernel.Params[*I];
  if (P.Count || P.Kind == PayloadKind::Object)
    return ConstantInt::get(I64, P.Count);
  return B.CreateLoad(I64, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Params[*I],
                                                        P.CountOffset),
                      "ofld.count");
}

void LaunchLowering::gatherArguments(IRBuilder<> &B) {
  using F = OpenMPOffloadMappingFlags;
  uint64_t Param = bits(F::OMP_MAP_TARGET_PARAM);
  uint64_t Literal = bits(F::OMP_MAP_LITERAL | F::OMP_MAP_TARGET_PARAM);
  for (auto [I, P] : enumerate(Site.Kernel.Params)) {
    Value *Obj = Params[I];
    std::string Name =
        I < Site.ArgSpellings.size() ? Site.ArgSpellings[I] : "arg";
    switch (slotsOf(P)) {
    case SlotShape::Literal: {
      Value *Bits = ConstantInt::get(I64, 0);
      if (P.Bytes)
        Bits = B.CreateZExt(
            B.CreateLoad(IntegerType::get(Ctx, P.Bytes * 8), Obj), I64);
      Slots.push_back({Bits, ConstantInt::get(I64, P.Bytes), Literal});
      break;
    }
    case SlotShape::Pointer: {
      // By-value objects too big for a slot travel as a private copy.
      MapKind Map = P.Kind == PayloadKind::Value ? MapKind::To : P.Map;
      Value *Size = ConstantInt::get(I64, P.Bytes);
      Maps.push_back({Obj, Size, bits(transferFlags(Map)), Name});
      Slots.push_back({Obj, Size, Param});
      break;
    }
    case SlotShape::PointerAndCount: {
      Value *Data = B.CreateLoad(
          PtrTy, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Obj, P.DataOffset),
          "ofld.data");
      Value *Count =
          P.Count ? static_cast<Value *>(ConstantInt::get(I64, P.Count))
                  : B.CreateLoad(I64,
                                 B.CreateConstInBoundsGEP1_64(
                                     B.getInt8Ty(), Obj, P.CountOffset),
                                 "ofld.count");
      Value *Bytes = B.CreateMul(Count, ConstantInt::get(I64, P.Bytes),
                                 "ofld.bytes", /*HasNUW=*/true);
      Maps.push_back({Data, Bytes, bits(transferFlags(P.Map)), Name});
      Slots.push_back({Data, Bytes, Param});
      Slots.push_back({Count, ConstantInt::get(I64, 8), Literal});
      break;
    }
    }
  }
  auto *DimsTy = ArrayType::get(I32, 6);
  for (unsigned D = 0; D < 6; D += 2) {
    auto Load = [&](unsigned Idx) {
      return B.CreateZExt(
          B.CreateLoad(I32, B.CreateConstInBoundsGEP2_32(DimsTy, Dims, 0, Idx)),
          I64);
    };
    Value *Packed = B.CreateOr(Load(D), B.CreateShl(Load(D + 1), 32));
    Slots.push_back({Packed, ConstantInt::get(I64, 8), Literal});
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

Constant *LaunchLowering::mapTypes(ArrayRef<uint64_t> Types,
                                   const Twine &Name) {
  SmallVector<uint64_t, 16> V(Types);
  return OMP.createOffloadMaptypes(V, Name.str());
}

/// Sizes of the mapped entries: a constant array when every size is known
/// at compile time, filled at run time when a span is among them.
Value *LaunchLowering::sizesArray(IRBuilder<> &B) {
  SmallVector<Constant *, 8> Static;
  for (const Mapped &E : Maps)
    if (auto *C = dyn_cast<Constant>(E.Size))
      Static.push_back(C);
  if (Static.size() == Maps.size()) {
    auto *Ty = ArrayType::get(I64, Maps.size());
    auto *GV = new GlobalVariable(M, Ty, true, GlobalValue::PrivateLinkage,
                                  ConstantArray::get(Ty, Static),
                                  ".offload_sizes");
    GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    return GV;
  }
  SmallVector<Value *, 8> Sizes;
  for (const Mapped &E : Maps)
    Sizes.push_back(E.Size);
  return arrayOf(B, Sizes, I64, ".offload_sizes");
}

/// The pointer, size and name arrays of the mapped entries, built once per
/// launch and shared by the begin and end mapper calls.
void LaunchLowering::prepareMapArrays(IRBuilder<> &B) {
  if (Maps.empty())
    return;
  SmallVector<Value *, 8> Ptrs;
  SmallVector<Constant *, 8> Names;
  for (const Mapped &E : Maps) {
    Ptrs.push_back(E.Ptr);
    uint32_t Size;
    // libomptarget shows the first field of ";name;file;line;column;;".
    Names.push_back(
        OMP.getOrCreateSrcLocStr(Site.File, E.Name, Site.Line, Site.Column, Size));
  }
  MapPtrs = arrayOf(B, Ptrs, PtrTy, ".offload_ptrs");
  MapSizes = sizesArray(B);
  MapNames = OMP.createOffloadMapnames(Names, ".offload_mapnames");
}

void LaunchLowering::emitMapper(IRBuilder<> &B, omp::RuntimeFunction Fn,
                                Value *Ident, Value *Device, Value *MapTypes) {
  if (Maps.empty())
    return; // nothing moves: no runtime call at all
  B.CreateCall(OMP.getOrCreateRuntimeFunction(M, Fn),
               {Ident, Device, ConstantInt::get(I32, Maps.size()), MapPtrs,
                MapPtrs, MapSizes, MapTypes, MapNames,
                ConstantPointerNull::get(PtrTy)});
}

/// Lets the runtime turn a mapping the device cannot hold into a message
/// naming the kernel and the argument, instead of libomptarget's abort.
/// Only emitted when a size is unknown at compile time or very large.
void LaunchLowering::emitCapacityCheck(IRBuilder<> &B, Value *Device) {
  bool Needed = false;
  for (const Mapped &E : Maps) {
    auto *C = dyn_cast<ConstantInt>(E.Size);
    Needed |= !C || C->getZExtValue() >= (uint64_t(1) << 30);
  }
  if (!Needed)
    return;
  auto Fn = M.getOrInsertFunction("__ofld_check_capacity",
                                  Type::getVoidTy(Ctx), PtrTy, I64, I32, PtrTy,
                                  PtrTy, PtrTy);
  B.CreateCall(Fn, {SiteInfo, Device, ConstantInt::get(I32, Maps.size()),
                    MapPtrs, MapSizes, MapNames});
}

void LaunchLowering::emitCpuRun(IRBuilder<> &B) {
  B.CreateCall(CpuThunk, {Dims, Kernel, Objs});
}

/// The launch proper, outlined so that it can run now or on a worker thread:
/// `void body(ptr objs, ptr dims, i64 device)`.
Function *LaunchLowering::buildBody() {
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {PtrTy, PtrTy, I64}, false);
  Function *Body = Function::Create(FT, GlobalValue::InternalLinkage,
                                    "__ofld_launch." + Kernel->getName(), M);
  Body->addFnAttr(Attribute::NoUnwind);
  Objs = Body->getArg(0);
  Dims = Body->getArg(1);
  Value *Device = Body->getArg(2);
  Objs->setName("objs");
  Dims->setName("dims");
  Device->setName("device");

  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Body));
  auto *ObjsTy = ArrayType::get(PtrTy, std::max<size_t>(1, Params.size()));
  for (unsigned I = 0; I < Params.size(); ++I)
    Params[I] =
        B.CreateLoad(PtrTy, B.CreateConstInBoundsGEP2_32(ObjsTy, Objs, 0, I));
  gatherArguments(B);

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
  emitCpuRun(B);
  B.CreateBr(Done);

  SmallVector<uint64_t, 8> Begin, Release;
  for (const Mapped &E : Maps) {
    Begin.push_back(E.Transfer);
    Release.push_back(0);
  }
  Constant *BeginTypes =
      Maps.empty() ? nullptr : mapTypes(Begin, ".offload_maptypes");
  Constant *ReleaseTypes =
      Maps.empty() ? nullptr : mapTypes(Release, ".offload_maptypes.release");

  B.SetInsertPoint(Offload);
  prepareMapArrays(B);
  emitCapacityCheck(B, Device);
  emitMapper(B, omp::OMPRTL___tgt_target_data_begin_mapper, Ident, Device,
             BeginTypes);
  SmallVector<Value *, 16> SlotVals, SlotSizes;
  SmallVector<uint64_t, 16> SlotTypes;
  for (const Slot &S : Slots) {
    SlotVals.push_back(S.Val);
    SlotSizes.push_back(S.Size);
    SlotTypes.push_back(S.MapType);
  }
  Value *Args = arrayOf(B, SlotVals, PtrTy, ".offload_kernel_args");
  Value *ArgSizes = arrayOf(B, SlotSizes, I64, ".offload_kernel_sizes");
  Constant *ArgTypes = mapTypes(SlotTypes, ".offload_kernel_maptypes");
  auto *DimsTy = ArrayType::get(I32, 6);
  SmallVector<Value *, 6> D;
  for (unsigned I = 0; I < 6; ++I)
    D.push_back(
        B.CreateLoad(I32, B.CreateConstInBoundsGEP2_32(DimsTy, Dims, 0, I)));
  OpenMPIRBuilder::TargetDataRTArgs RT(Args, Args, ArgSizes, ArgTypes,
                                       /*MapTypesArrayEnd=*/nullptr,
                                       ConstantPointerNull::get(PtrTy),
                                       ConstantPointerNull::get(PtrTy));
  Value *Teams[] = {D[0], D[1], D[2]}, *Threads[] = {D[3], D[4], D[5]};
  OpenMPIRBuilder::TargetKernelArgs KA(
      Slots.size(), RT, ConstantInt::get(I64, 0), Teams, Threads,
      ConstantInt::get(I32, 0), /*HasNoWait=*/false,
      omp::OMPDynGroupprivateFallbackType::Abort);
  SmallVector<Value *> KernelArgs;
  OpenMPIRBuilder::getKernelArgsVector(KA, B, KernelArgs);
  Value *Rc = nullptr;
  OpenMPIRBuilder::InsertPointTy AllocaIP(&Body->getEntryBlock(),
                                          Body->getEntryBlock().begin());
  B.restoreIP(OMP.emitTargetKernel(OpenMPIRBuilder::LocationDescription(B),
                                   AllocaIP, Rc, Ident, Device, D[0], D[3],
                                   regionId(M, *Kernel), KernelArgs));
  B.CreateCondBr(B.CreateICmpEQ(Rc, ConstantInt::get(I32, 0)), Launched,
                 Failed);

  B.SetInsertPoint(Launched);
  emitMapper(B, omp::OMPRTL___tgt_target_data_end_mapper, Ident, Device,
             BeginTypes);
  B.CreateBr(Done);

  // A launch that failed leaves the host data authoritative: release the
  // device copies without copying back, then run on the CPU (unless the
  // runtime decides the failure is fatal).
  B.SetInsertPoint(Failed);
  auto FailFn = M.getOrInsertFunction("__ofld_launch_failed",
                                      Type::getVoidTy(Ctx), PtrTy, I64, I32);
  B.CreateCall(FailFn, {SiteInfo, Device, Rc});
  emitMapper(B, omp::OMPRTL___tgt_target_data_end_mapper, Ident, Device,
             ReleaseTypes);
  emitCpuRun(B);
  B.CreateBr(Done);

  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return Body;
}

/// For a launch that does not wait: copies what lives only as long as the
/// call (by-value parameters and span objects; references stay references)
/// into a heap context the runtime frees after running the body.
void LaunchLowering::emitAsync(IRBuilder<> &B, Function *Body,
                               Value *CallDims, Value *Device) {
  uint64_t ObjsBytes = 8 * std::max<size_t>(1, Params.size());
  uint64_t Offset = ObjsBytes + 6 * 4;
  SmallVector<std::pair<uint64_t, uint64_t>, 8> Copies; // offset, bytes
  for (const ParamLayout &P : Site.Kernel.Params) {
    uint64_t Bytes = P.Kind == PayloadKind::Value  ? P.Bytes
                     : P.Kind == PayloadKind::Span ? P.SpanBytes
                                                   : 0;
    Offset = alignTo(Offset, 16);
    Copies.push_back({Offset, Bytes});
    Offset += Bytes;
  }
  auto AllocFn = M.getOrInsertFunction("__ofld_async_alloc", PtrTy, I64);
  Value *Ctx8 = B.CreateCall(AllocFn, {ConstantInt::get(I64, Offset)}, "ofld.ctx");
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
  B.CreateMemCpy(CtxDims, Align(4), CallDims, Align(4), 6 * 4);
  auto SubmitFn = M.getOrInsertFunction("__ofld_async_submit",
                                        Type::getVoidTy(Ctx), PtrTy, PtrTy,
                                        PtrTy, PtrTy, I64);
  B.CreateCall(SubmitFn, {SiteInfo, Body, Ctx8, CtxDims, Device});
}

bool LaunchLowering::run() {
  if (!decode())
    return false;
  Function *F = Call.getFunction();
  BasicBlock *BB = Call.getParent();
  IRBuilder<> Entry(&F->getEntryBlock(), F->getEntryBlock().begin());
  IRBuilder<> B(&Call);
  SiteInfo = siteConstant();

  auto *ObjsTy = ArrayType::get(PtrTy, std::max<size_t>(1, Params.size()));
  Value *CallObjs = Entry.CreateAlloca(ObjsTy, nullptr, "ofld.objs");
  Value *CallDims = Entry.CreateAlloca(ArrayType::get(I32, 6), nullptr, "ofld.dims");
  for (auto [I, P] : enumerate(Params))
    B.CreateStore(P, B.CreateConstInBoundsGEP2_32(ObjsTy, CallObjs, 0, I));

  Value *ShapeArg = Shape ? Shape : ConstantPointerNull::get(PtrTy);
  auto ShapeFn = M.getOrInsertFunction("__ofld_launch_shape", I32, PtrTy,
                                       PtrTy, I64, PtrTy);
  Value *Mode = B.CreateCall(
      ShapeFn, {SiteInfo, ShapeArg, defaultCount(B), CallDims}, "ofld.mode");
  auto SelectFn =
      M.getOrInsertFunction("__ofld_select_device", I64, PtrTy, PtrTy);
  Value *Device = B.CreateCall(SelectFn, {SiteInfo, ShapeArg}, "ofld.device");
  SmallVector<Value *, 8> CallParams(Params);
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
  auto *Now = BasicBlock::Create(Ctx, "ofld.now", F, Tail);
  auto *Later = BasicBlock::Create(Ctx, "ofld.async", F, Tail);
  B.SetInsertPoint(BB);
  // Mode: 0 nothing to run (empty grid), 1 run now, 2 run without waiting.
  SwitchInst *Sw = B.CreateSwitch(Mode, Now, 2);
  Sw->addCase(ConstantInt::get(I32, 0), Tail);
  Sw->addCase(ConstantInt::get(I32, 2), Later);

  B.SetInsertPoint(Now);
  B.CreateCall(Body, {CallObjs, CallDims, Device});
  B.CreateBr(Tail);

  B.SetInsertPoint(Later);
  Params = CallParams;
  emitAsync(B, Body, CallDims, Device);
  B.CreateBr(Tail);
  return true;
}

} // namespace

PreservedAnalyses HostLoweringPass::run(Module &M, ModuleAnalysisManager &) {
  emitEntries(M);
  SmallVector<CallBase *, 8> Calls;
  for (StringRef Name : {"__ofld_launch", "__ofld_launch_shaped"})
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
  for (CallBase *CB : Calls)
    LaunchLowering(M, OMP, *CB).run();
  for (StringRef Name : {"__ofld_launch", "__ofld_launch_shaped"})
    if (Function *Marker = M.getFunction(Name); Marker && Marker->use_empty())
      Marker->eraseFromParent();
  OMP.finalize();
  return PreservedAnalyses::none();
}

} // namespace offload
