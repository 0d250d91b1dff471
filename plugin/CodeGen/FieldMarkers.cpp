//===- FieldMarkers.cpp - drop the annotations of [[offload::out]] --------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "FieldMarkers.h"

#include "offload/Core/KernelAttributes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace offload {

namespace {

/// Whether annotation call `II` carries one of the plugin's markers.
bool isPluginMarker(const IntrinsicInst &II) {
  StringRef Text;
  if (!getConstantStringInfo(II.getArgOperand(1), Text))
    return false;
  return Text == OutMarker || Text == InMarker;
}

} // namespace

PreservedAnalyses DropFieldMarkersPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  SmallVector<IntrinsicInst *, 16> Calls;
  SmallVector<Function *, 2> Decls;
  for (Function &F : M) {
    if (F.getIntrinsicID() != Intrinsic::ptr_annotation &&
        F.getIntrinsicID() != Intrinsic::var_annotation)
      continue;
    Decls.push_back(&F);
    for (User *U : F.users())
      if (auto *II = dyn_cast<IntrinsicInst>(U);
          II && II->getCalledFunction() == &F && isPluginMarker(*II))
        Calls.push_back(II);
  }
  SmallVector<GlobalVariable *, 4> Texts;
  for (IntrinsicInst *II : Calls) {
    if (auto *G =
            dyn_cast<GlobalVariable>(II->getArgOperand(1)->stripPointerCasts()))
      if (!is_contained(Texts, G))
        Texts.push_back(G);
    if (!II->getType()->isVoidTy()) // ptr.annotation returns its pointer
      II->replaceAllUsesWith(II->getArgOperand(0));
    II->eraseFromParent();
  }
  // The declarations and the marker's text, unless still used (another
  // annotation, a function's annotation).
  for (Function *F : Decls)
    if (F->use_empty())
      F->eraseFromParent();
  for (GlobalVariable *G : Texts)
    if (G->use_empty() && G->hasLocalLinkage())
      G->eraseFromParent();
  return Calls.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace offload
