//===- LaunchPrologue.cpp - grid dependency wait and launch mark ----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "LaunchPrologue.h"
#include "LaunchABI.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace offload {

namespace {

/// The first Hopper architecture: griddepcontrol and programmatic launches.
constexpr unsigned FirstGridDependencySM = 90;

/// The SM number of `F`'s target CPU ("sm_90a" -> 90), or 0.
unsigned smOf(const Function &F) {
  StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
  if (!CPU.consume_front("sm_"))
    return 0;
  unsigned SM = 0;
  CPU = CPU.take_while(isDigit);
  return CPU.getAsInteger(10, SM) ? 0 : SM;
}

/// `void __ofld_mark_launch(i64 word, i64 number)`: thread 0 stores the
/// number at the word (a volatile store: the word is pinned host memory the
/// host reads after a fault). A word of 0 marks nothing.
Function *markFunction(Module &M) {
  constexpr StringLiteral Name = "__ofld_mark_launch";
  if (Function *F = M.getFunction(Name))
    return F;
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  auto *F = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {I64, I64}, false),
      GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoInline);
  F->addFnAttr(Attribute::Cold);
  F->addFnAttr(Attribute::NoUnwind);
  auto *Entry = BasicBlock::Create(Ctx, "entry", F);
  auto *Store = BasicBlock::Create(Ctx, "store", F);
  auto *Done = BasicBlock::Create(Ctx, "done", F);
  IRBuilder<> B(Entry);
  Value *Tid = B.CreateOr(
      B.CreateOr(B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_tid_x, {}),
                 B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_tid_y, {})),
      B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_tid_z, {}));
  Value *Word = F->getArg(0);
  B.CreateCondBr(B.CreateAnd(B.CreateICmpEQ(Tid, B.getInt32(0)),
                             B.CreateICmpNE(Word, B.getInt64(0))),
                 Store, Done);
  B.SetInsertPoint(Store);
  B.CreateStore(B.CreateTrunc(F->getArg(1), I32),
                B.CreateIntToPtr(Word, PointerType::get(Ctx, 0)),
                /*isVolatile=*/true);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  return F;
}

/// Puts the prologue in front of entry `E`'s first block.
void addPrologue(Function &E, Function *Mark) {
  LLVMContext &Ctx = E.getContext();
  BasicBlock *Body = &E.getEntryBlock();
  auto *Prologue = BasicBlock::Create(Ctx, "prologue", &E, Body);
  auto *MarkBlock = BasicBlock::Create(Ctx, "mark", &E, Body);
  // Allocas stay in the entry block, where later passes look for them.
  while (isa<AllocaInst>(Body->front()))
    Body->front().moveBefore(*Prologue, Prologue->end());
  IRBuilder<> B(Prologue);
  if (smOf(E) >= FirstGridDependencySM)
    B.CreateIntrinsic(Intrinsic::nvvm_griddepcontrol_wait, {});
  Value *Block = B.CreateOr(
      B.CreateOr(B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, {}),
                 B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ctaid_y, {})),
      B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ctaid_z, {}));
  unsigned First = E.arg_size() - abi::NumMarkSlots;
  B.CreateCondBr(B.CreateICmpEQ(Block, B.getInt32(0)), MarkBlock, Body,
                 MDBuilder(Ctx).createUnlikelyBranchWeights());
  B.SetInsertPoint(MarkBlock);
  B.CreateCall(
      Mark, {E.getArg(First + MarkWordSlot), E.getArg(First + MarkNumberSlot)});
  B.CreateBr(Body);
}

/// Whether `F` is an entry DeviceEntriesPass built: its name, its calling
/// convention, and at least the dims and mark slots (all i64) at its end.
bool isEntry(const Function &F) {
  if (F.isDeclaration() || !F.getName().starts_with("__ofld_") ||
      F.getCallingConv() != CallingConv::PTX_Kernel ||
      F.arg_size() < 1 + NumDimSlots + abi::NumMarkSlots)
    return false;
  for (unsigned I = F.arg_size() - abi::NumMarkSlots; I < F.arg_size(); ++I)
    if (!F.getArg(I)->getType()->isIntegerTy(64))
      return false;
  return true;
}

} // namespace

PreservedAnalyses LaunchProloguePass::run(Module &M, ModuleAnalysisManager &) {
  if (!M.getTargetTriple().isNVPTX())
    return PreservedAnalyses::all();
  SmallVector<Function *, 8> Entries;
  for (Function &F : M)
    if (isEntry(F))
      Entries.push_back(&F);
  if (Entries.empty())
    return PreservedAnalyses::all();
  Function *Mark = markFunction(M);
  for (Function *E : Entries)
    addPrologue(*E, Mark);
  return PreservedAnalyses::none();
}

} // namespace offload
