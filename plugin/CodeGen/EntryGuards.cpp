//===- EntryGuards.cpp - one bounds test at the top of an NVPTX entry ----===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "EntryGuards.h"
#include "KernelEntries.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace offload {

namespace {

/// A guard computes its condition from a few ids, sizes and parameters
/// (Jacobi-2D's second test: 10 instructions); a block that does more than
/// this is work, not a test, and is not executed speculatively.
constexpr unsigned MaxGuardInstructions = 16;

/// The index of `BI`'s successor `To`, or -1.
int successorIndex(const BranchInst *BI, const BasicBlock *To) {
  for (unsigned I = 0; I < BI->getNumSuccessors(); ++I)
    if (BI->getSuccessor(I) == To)
      return int(I);
  return -1;
}

/// Whether block `G` (before its branch) only computes values that may be
/// computed whether or not it is reached, in few instructions.
bool speculatable(BasicBlock &G, const TargetTransformInfo &TTI) {
  unsigned Cost = 0;
  for (Instruction &I : G) {
    if (I.isTerminator())
      break;
    if (isa<PHINode>(I) || !isSafeToSpeculativelyExecute(&I))
      return false;
    if (TTI.getInstructionCost(&I, TargetTransformInfo::TCK_SizeAndLatency) !=
            TargetTransformInfo::TCC_Free &&
        ++Cost > MaxGuardInstructions)
      return false;
  }
  return true;
}

/// Folds the entry block's branch and the one of the guard block after it
/// into one branch (EntryGuards.h). Returns whether it did.
bool foldOnce(Function &E, const TargetTransformInfo &TTI) {
  BasicBlock *Entry = &E.getEntryBlock();
  auto *BI = dyn_cast<BranchInst>(Entry->getTerminator());
  if (!BI || !BI->isConditional())
    return false;
  for (unsigned ExitIdx : {0u, 1u}) {
    BasicBlock *Exit = BI->getSuccessor(ExitIdx);
    BasicBlock *Guard = BI->getSuccessor(1 - ExitIdx);
    if (Guard == Exit || Guard->getSinglePredecessor() != Entry)
      continue;
    auto *GBI = dyn_cast<BranchInst>(Guard->getTerminator());
    int GuardExitIdx =
        GBI && GBI->isConditional() ? successorIndex(GBI, Exit) : -1;
    if (GuardExitIdx < 0)
      continue;
    BasicBlock *Body = GBI->getSuccessor(1 - GuardExitIdx);
    if (Body == Exit || Body == Guard)
      continue;
    // The exit must not tell the two ways in apart.
    if (any_of(Exit->phis(), [&](PHINode &P) {
          return P.getIncomingValueForBlock(Entry) !=
                 P.getIncomingValueForBlock(Guard);
        }))
      continue;
    if (!speculatable(*Guard, TTI))
      continue;

    // The guard's computation moves up; nothing it used was defined
    // elsewhere than in the entry block (its only predecessor).
    for (Instruction &I :
         make_early_inc_range(make_range(Guard->begin(), GBI->getIterator()))) {
      I.moveBefore(BI->getIterator());
      I.dropUBImplyingAttrsAndMetadata();
    }
    IRBuilder<> B(BI);
    Value *LeaveFirst = BI->getCondition(), *LeaveSecond = GBI->getCondition();
    if (ExitIdx == 1)
      LeaveFirst = B.CreateNot(LeaveFirst);
    if (GuardExitIdx == 1)
      LeaveSecond = B.CreateNot(LeaveSecond);
    B.CreateCondBr(B.CreateLogicalOr(LeaveFirst, LeaveSecond, "leave"), Exit,
                   Body);
    for (PHINode &P : Exit->phis())
      P.removeIncomingValue(Guard, /*DeletePHIIfEmpty=*/false);
    Body->replacePhiUsesWith(Guard, Entry);
    BI->eraseFromParent();
    Guard->eraseFromParent();
    return true;
  }
  return false;
}

} // namespace

PreservedAnalyses FoldEntryGuardsPass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  if (!M.getTargetTriple().isNVPTX())
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (!isGpuEntry(F))
      continue;
    const TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
    bool Folded = false;
    while (foldOnce(F, TTI))
      Folded = true;
    if (Folded) {
      FAM.invalidate(F, PreservedAnalyses::none());
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace offload
