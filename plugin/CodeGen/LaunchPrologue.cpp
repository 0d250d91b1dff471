//===- LaunchPrologue.cpp - grid dependency wait and launch mark ----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "LaunchPrologue.h"
#include "KernelEntries.h"
#include "LaunchABI.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
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

/// Puts the prologue in front of entry `E`'s first block: on sm_90, the
/// grid dependency wait; then, where the block is (0,0,0) and the launch
/// passed a mark word, a GPU-scope fence and a volatile store of the launch's
/// number to the word (pinned host memory the host reads after a fault).
/// The fence keeps the store behind its branch: without it ptxas predicates
/// the word's and number's loads and the store into every warp's path
/// (Jacobi-2D 6% slower on an H100), and a call instead of inline code
/// costs kernels that keep loop counters in uniform registers far more
/// (n-body 26%). All threads of the block store the same number.
void addPrologue(Function &E) {
  LLVMContext &Ctx = E.getContext();
  BasicBlock *Body = &E.getEntryBlock();
  auto *Prologue = BasicBlock::Create(Ctx, "prologue", &E, Body);
  auto *First = BasicBlock::Create(Ctx, "first", &E, Body);
  auto *Mark = BasicBlock::Create(Ctx, "mark", &E, Body);
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
  MDNode *Rarely = MDBuilder(Ctx).createUnlikelyBranchWeights();
  B.CreateCondBr(B.CreateICmpEQ(Block, B.getInt32(0)), First, Body, Rarely);
  // Only the first block looks at the mark's slots.
  B.SetInsertPoint(First);
  unsigned Slots = E.arg_size() - abi::NumMarkSlots;
  Value *Word = E.getArg(Slots + abi::MarkWordSlot);
  B.CreateCondBr(B.CreateICmpNE(Word, B.getInt64(0)), Mark, Body);
  B.SetInsertPoint(Mark);
  B.CreateFence(AtomicOrdering::AcquireRelease,
                Ctx.getOrInsertSyncScopeID("device"));
  B.CreateStore(
      B.CreateTrunc(E.getArg(Slots + abi::MarkNumberSlot), B.getInt32Ty()),
      B.CreateIntToPtr(Word, PointerType::get(Ctx, 0)),
      /*isVolatile=*/true);
  B.CreateBr(Body);
}

/// Whether `F` is an entry DeviceEntriesPass built, with at least the dims
/// and mark slots (all i64) at its end.
bool isEntry(const Function &F) {
  if (!isGpuEntry(F) || F.arg_size() < 1 + NumDimSlots + abi::NumMarkSlots)
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
  for (Function *E : Entries)
    addPrologue(*E);
  return PreservedAnalyses::none();
}

} // namespace offload
