//===- CallWalker.cpp - kernels and offload() calls of a TU ---------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// One visitor for the plugin and offload-rewrite: what it hands out, and in
// which order, decides the order of their diagnostics, which must agree.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/CallWalker.h"
#include "offload/Core/KernelAttributes.h"
#include "offload/Core/LaunchChecks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace offload {

bool isOffloadEntry(const FunctionDecl &FD) {
  return FD.getDeclName().isIdentifier() && FD.getName() == "offload" &&
         FD.getDeclContext()->getRedeclContext()->isTranslationUnit() &&
         (FD.getPrimaryTemplate() || FD.getDescribedFunctionTemplate());
}

namespace {

/// Whether `CE` goes to an offload() entry, as written or resolved.
bool callsOffload(const CallExpr &CE) {
  const FunctionDecl *Callee = CE.getDirectCallee();
  return Callee &&
         (isOffloadEntry(*Callee) || launchFormOf(Callee) != LaunchForm::None);
}

/// Whether `CE`, in a template, names offload() with dependent arguments:
/// clang leaves it unresolved until the template is instantiated.
bool callsOffloadDependently(const CallExpr &CE) {
  if (CE.getDirectCallee())
    return false;
  const auto *ULE =
      dyn_cast<UnresolvedLookupExpr>(CE.getCallee()->IgnoreParenImpCasts());
  return ULE && ULE->getName().isIdentifier() &&
         ULE->getName().getAsIdentifierInfo()->getName() == "offload" &&
         llvm::any_of(ULE->decls(), [](const NamedDecl *D) {
           const auto *FD = D->getAsFunction();
           return FD && isOffloadEntry(*FD);
         });
}

} // namespace

/// Remembers the innermost enclosing function and whether the walk is inside
/// an instantiation that it visits for its calls only.
class CallWalker::Visitor : public RecursiveASTVisitor<Visitor> {
public:
  using Base = RecursiveASTVisitor<Visitor>;
  explicit Visitor(CallWalker &W) : W(W) {}

  bool shouldVisitTemplateInstantiations() const {
    return W.VisitInstantiations;
  }

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    bool Inst =
        W.VisitInstantiations && FD && FD->getTemplateInstantiationPattern();
    if (FD)
      Stack.push_back(FD);
    InInstantiation += Inst;
    bool R = Base::TraverseDecl(D);
    InInstantiation -= Inst;
    if (FD)
      Stack.pop_back();
    return R;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (InInstantiation)
      return true;
    if (isKernel(*FD))
      W.kernelFound(*FD);
    else
      W.functionFound(*FD);
    return true;
  }

  bool VisitCompoundStmt(CompoundStmt *CS) {
    if (!InInstantiation)
      W.blockFound(*CS);
    return true;
  }

  bool VisitRecoveryExpr(RecoveryExpr *RE) {
    W.unresolvedFound(*RE);
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    FunctionDecl *Enclosing = Stack.empty() ? nullptr : Stack.back();
    if (callsOffload(*CE)) {
      if (InInstantiation) {
        W.InstantiatedCalls.emplace_back(CE, Enclosing);
        return true;
      }
      if (W.VisitInstantiations)
        W.WrittenCalls.insert(CE->getBeginLoc());
      W.callFound(*CE, Enclosing, CallKind::Written);
    } else if (callsOffloadDependently(*CE)) {
      W.callFound(*CE, Enclosing, CallKind::Dependent);
    }
    return true;
  }

private:
  CallWalker &W;
  llvm::SmallVector<FunctionDecl *, 4> Stack;
  unsigned InInstantiation = 0;
};

CallWalker::CallWalker(ASTContext &Ctx, DiagnosticsEngine &Diags,
                       bool VisitInstantiations)
    : Ctx(Ctx), Diags(Diags), VisitInstantiations(VisitInstantiations) {}

CallWalker::~CallWalker() = default;

void CallWalker::walk(Decl *D) { Visitor(*this).TraverseDecl(D); }

void CallWalker::handOutInstantiatedCalls() {
  for (auto [CE, Enclosing] : InstantiatedCalls)
    if (!WrittenCalls.count(CE->getBeginLoc()))
      callFound(*CE, Enclosing, CallKind::Instantiated);
  InstantiatedCalls.clear();
}

const KernelFacts *CallWalker::kernel(const FunctionDecl &K, bool Needed) {
  const FunctionDecl *D = K.getCanonicalDecl();
  if (auto It = Kernels.find(D); It != Kernels.end())
    return It->second ? &*It->second : nullptr;
  beforeKernelCheck(*D);
  if (!Needed && hasIncompleteParameter(*D, Ctx))
    return nullptr;
  // In the memo before the checks: a kernel the subclass's work reaches
  // again meanwhile reads as refused, not checked twice.
  Kernels[D];
  std::optional<KernelFacts> Facts;
  Facts.emplace();
  if (std::optional<KernelDescriptor> Desc =
          checkKernelDeclaration(*D, Ctx, Diags, &Facts->Rules))
    Facts->Desc = std::move(*Desc);
  else
    Facts.reset();
  if (Facts && !kernelChecked(*D, *Facts))
    Facts.reset();
  std::optional<KernelFacts> &Slot = Kernels[D];
  Slot = std::move(Facts);
  return Slot ? &*Slot : nullptr;
}

llvm::SmallVector<const FunctionDecl *, 16> CallWalker::checkedKernels() const {
  llvm::SmallVector<const FunctionDecl *, 16> Out;
  for (const auto &Entry : Kernels)
    Out.push_back(Entry.first);
  return Out;
}

} // namespace offload
