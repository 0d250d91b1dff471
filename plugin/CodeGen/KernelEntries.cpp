//===- KernelEntries.cpp - kernels of a module and their entry names ------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "KernelEntries.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace offload {

/// The prefix of every entry's name.
constexpr StringLiteral EntryPrefix = "__ofld_";

std::string entryName(const Function &Kernel) {
  std::string Name = EntryPrefix.str();
  // PTX identifiers allow only [A-Za-z0-9_$]; keep the name identical on
  // every target rather than rely on each backend's renaming.
  for (char C : Kernel.getName())
    Name += isAlnum(C) || C == '_' ? C : '_';
  if (Kernel.hasLocalLinkage())
    Name +=
        "_" + utohexstr(xxh3_64bits(Kernel.getParent()->getSourceFileName()));
  return Name;
}

bool isGpuEntry(const Function &F) {
  return !F.isDeclaration() && F.getName().starts_with(EntryPrefix) &&
         (F.getCallingConv() == CallingConv::PTX_Kernel ||
          F.getCallingConv() == CallingConv::AMDGPU_KERNEL);
}

SmallVector<AnnotatedKernel, 8> collectKernels(Module &M) {
  SmallVector<AnnotatedKernel, 8> Out;
  GlobalVariable *GA = M.getGlobalVariable("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return Out;
  auto *Arr = dyn_cast<ConstantArray>(GA->getInitializer());
  if (!Arr)
    return Out;
  for (const Use &Op : Arr->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(Op.get());
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *F = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    StringRef Text;
    if (!F || F->isDeclaration() ||
        !getConstantStringInfo(Entry->getOperand(1), Text) ||
        !Text.consume_front(KernelAnnotationPrefix))
      continue;
    Expected<KernelDescriptor> D = decodeKernel(Text);
    if (!D) {
      M.getContext().emitError("offload: bad kernel descriptor on '" +
                               F->getName() + "': " + toString(D.takeError()));
      continue;
    }
    Out.push_back({F, std::move(*D)});
  }
  return Out;
}

void releaseThunks(Module &M, ArrayRef<AnnotatedKernel> Kernels) {
  SmallPtrSet<Constant *, 16> Thunks;
  for (const AnnotatedKernel &K : Kernels)
    for (StringRef Name :
         {StringRef(K.Desc.InvokeThunk), StringRef(K.Desc.CpuThunk)})
      if (Function *F = Name.empty() ? nullptr : M.getFunction(Name))
        Thunks.insert(F);
  if (!Thunks.empty())
    removeFromUsedLists(M, [&](Constant *C) { return Thunks.contains(C); });
}

} // namespace offload
