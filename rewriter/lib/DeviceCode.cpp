//===- DeviceCode.cpp - what the kernels of a translation unit reach ------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "DeviceCode.h"

#include "offload/Core/TransferRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <deque>

using namespace clang;
using namespace llvm;

namespace offload {
namespace rewrite {
namespace {

/// Whether `D` is declared in namespace ofld (or one nested in it, inline
/// ones included).
bool inOfld(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getIdentifier() && NS->getName() == "ofld" &&
        NS->getParent()->getRedeclContext()->isTranslationUnit())
      return true;
  return false;
}

bool isSharedArray(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "shared_array" &&
         inOfld(RD);
}

/// What one function does directly.
struct Facts {
  bool Syncs = false;
  bool Warp = false;
  SmallVector<const FunctionDecl *, 8> Callees;
};

class Walker : public RecursiveASTVisitor<Walker> {
public:
  Walker(const SourceManager &SM, Facts &F, DeviceCode &Out)
      : SM(SM), F(F), Out(Out) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *VD = dyn_cast<VarDecl>(E->getDecl())) {
      // A variable template's text is its pattern's.
      if (const VarDecl *Pattern = VD->getTemplateInstantiationPattern())
        VD = Pattern;
      if (VD->hasGlobalStorage() && !VD->isStaticLocal() && !inOfld(VD) &&
          !SM.isInSystemHeader(VD->getLocation())) {
        if (VD->getDeclContext()->getRedeclContext()->isFileContext())
          Out.Globals.insert(VD->getCanonicalDecl());
        else if (const CXXRecordDecl *RD = outermostClass(*VD)) {
          Out.Globals.insert(VD->getCanonicalDecl());
          Out.Classes.insert(RD);
          if (const auto *Named = dyn_cast<VarDecl>(E->getDecl());
              Named && !Named->getDeclContext()->isDependentContext())
            Out.StaticMembers.insert(Named->getCanonicalDecl());
        }
      }
    } else if (const auto *FD = dyn_cast<FunctionDecl>(E->getDecl())) {
      callee(FD);
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    if (const FunctionDecl *FD = E->getDirectCallee())
      callee(FD);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    callee(E->getConstructor());
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (!isSharedArray(VD->getType()))
      return true;
    F.Syncs = true;
    // Count the template arguments as written: without a tag, the array is
    // named by where it is declared (device.hpp), which g++ cannot tell
    // apart for two arrays declared on one line.
    if (TypeSourceInfo *TSI = VD->getTypeSourceInfo()) {
      TypeLoc TL = TSI->getTypeLoc().getUnqualifiedLoc();
      if (auto TST = TL.getAs<TemplateSpecializationTypeLoc>();
          TST && TST.getNumArgs() == 2)
        Out.UntaggedSharedArrays.insert(VD);
    }
    return true;
  }

private:
  void callee(const FunctionDecl *FD) {
    if (FD->getIdentifier() && FD->getName() == "sync_threads" && inOfld(FD))
      F.Syncs = true;
    // The warp functions of offload/device.hpp that exchange values.
    static constexpr StringRef WarpFunctions[] = {
        "shfl",   "shfl_up", "shfl_down", "shfl_xor",
        "ballot", "any",     "all",       "sync_warp"};
    if (FD->getIdentifier() && inOfld(FD) &&
        llvm::is_contained(WarpFunctions, FD->getName()))
      F.Warp = true;
    F.Callees.push_back(FD);
  }

  const SourceManager &SM;
  Facts &F;
  DeviceCode &Out;
};

/// The ParmVarDecl `P` is modified, or its address escapes, in `S`.
class Mutation : public RecursiveASTVisitor<Mutation> {
public:
  explicit Mutation(const ParmVarDecl &P) : P(P) {}
  bool Found = false;

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
    if (E->isAssignmentOp() && E->getNumArgs() && refersToP(E->getArg(0)))
      Found = true;
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *E) {
    if (E->getOpcode() == UO_AddrOf && refersToP(E->getSubExpr()))
      Found = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    const FunctionDecl *FD = E->getDirectCallee();
    for (unsigned I = 0; I < E->getNumArgs(); ++I) {
      if (!refersToP(E->getArg(I)))
        continue;
      // Unknown callees, and non-const references, may write it.
      if (!FD || I >= FD->getNumParams()) {
        Found |= !FD;
        continue;
      }
      QualType T = FD->getParamDecl(I)->getType();
      if (T->isLValueReferenceType() &&
          !T.getNonReferenceType().isConstQualified())
        Found = true;
    }
    return true;
  }
  // A lambda that captures `P` by reference is no write: its body is
  // visited with the rest (the writes above are found there), and g++
  // refuses a by-value span captured so ("does not have a mappable type").

private:
  bool refersToP(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == &P;
  }
  const ParmVarDecl &P;
};

} // namespace

const CXXRecordDecl *outermostClass(const VarDecl &VD) {
  if (!VD.isStaticDataMember())
    return nullptr;
  const auto *RD = dyn_cast<CXXRecordDecl>(VD.getDeclContext());
  while (RD && isa<CXXRecordDecl>(RD->getDeclContext()))
    RD = cast<CXXRecordDecl>(RD->getDeclContext());
  if (!RD || !RD->getDeclContext()->getRedeclContext()->isFileContext())
    return nullptr;
  if (const CXXRecordDecl *Pattern = RD->getTemplateInstantiationPattern())
    RD = Pattern;
  return RD;
}

DeviceCode findDeviceCode(ASTContext &Ctx,
                          ArrayRef<const FunctionDecl *> Kernels) {
  DeviceCode Out;
  const SourceManager &SM = Ctx.getSourceManager();
  DenseMap<const FunctionDecl *, Facts> Known;
  // What `FD` does, walked once.
  auto FactsOf = [&](const FunctionDecl *FD) -> const Facts & {
    auto [It, New] = Known.try_emplace(FD);
    if (New)
      if (const FunctionDecl *Def = FD->getDefinition();
          Def && Def->hasBody() && !SM.isInSystemHeader(Def->getLocation()) &&
          !inOfld(Def)) {
        Walker W(SM, It->second, Out);
        W.TraverseStmt(Def->getBody());
        if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
          for (const CXXCtorInitializer *Init : Ctor->inits())
            W.TraverseStmt(Init->getInit());
      }
    return Known[FD];
  };

  for (const FunctionDecl *K : Kernels) {
    const FunctionDecl *Kernel = K->getCanonicalDecl();
    if (Out.Synchronises.count(Kernel))
      continue;
    bool Syncs = false, Warp = false;
    SmallPtrSet<const FunctionDecl *, 16> Seen;
    std::deque<const FunctionDecl *> Work{K};
    while (!Work.empty()) {
      const FunctionDecl *FD = Work.front();
      Work.pop_front();
      const FunctionDecl *Def = FD->getDefinition() ? FD->getDefinition() : FD;
      if (!Seen.insert(Def).second)
        continue;
      const Facts &F = FactsOf(Def);
      Syncs |= F.Syncs;
      Warp |= F.Warp;
      if (!SM.isInSystemHeader(Def->getLocation()) && !inOfld(Def)) {
        const FunctionDecl *Pattern = Def->getTemplateInstantiationPattern();
        Out.Functions.insert(Pattern ? Pattern : Def);
      }
      for (const FunctionDecl *C : F.Callees)
        Work.push_back(C);
    }
    Out.Synchronises[Kernel] = Syncs;
    Out.WarpLevel[Kernel] = Warp;
  }
  return Out;
}

bool isSpanByValue(QualType T) {
  if (T->isReferenceType())
    return false;
  if (const auto *RD = T->getAsCXXRecordDecl())
    return RD->isInStdNamespace() && RD->getIdentifier() &&
           RD->getName() == "span";
  const auto *TST = T->getAs<TemplateSpecializationType>();
  const TemplateDecl *TD =
      TST ? TST->getTemplateName().getAsTemplateDecl() : nullptr;
  return TD && TD->isInStdNamespace() && TD->getIdentifier() &&
         TD->getName() == "span";
}

bool isLargeValue(const ParmVarDecl &P, ASTContext &Ctx) {
  QualType T = P.getType();
  if (T->isReferenceType() || T->isDependentType() || isSpanByValue(T))
    return false;
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->hasDefinition() && !T->isIncompleteType() &&
         Ctx.getTypeSizeInChars(T).getQuantity() >= int64_t(LargeValueBytes);
}

bool isModifiedParam(const ParmVarDecl &P, ASTContext &Ctx) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P.getDeclContext());
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->hasBody())
    return false;
  const ParmVarDecl *DefP = Def->getParamDecl(P.getFunctionScopeIndex());
  return ExprMutationAnalyzer(*Def->getBody(), Ctx).isMutated(DefP);
}

bool isLargeReadOnlyValue(const ParmVarDecl &P, ASTContext &Ctx) {
  return isLargeValue(P, Ctx) && !isSpanStructByValue(P, Ctx) &&
         !isModifiedParam(P, Ctx);
}

bool isSpanStructByValue(const ParmVarDecl &P, ASTContext &Ctx) {
  QualType T = P.getType();
  if (T->isReferenceType() || T->isDependentType() || !T->isRecordType() ||
      isSpanByValue(T))
    return false;
  ParamClassification C = classifyParameter(P, /*IsOut=*/false, Ctx);
  const auto *R = std::get_if<ParamRule>(&C);
  return R && R->Row == RuleId::SpanFields;
}

bool isReadOnlySpanByValue(const ParmVarDecl &P) {
  if (!isSpanByValue(P.getType()))
    return false;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P.getDeclContext());
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->hasBody())
    return true; // a declaration: its definition decides (and agrees)
  const ParmVarDecl *DefP = Def->getParamDecl(P.getFunctionScopeIndex());
  Mutation M(*DefP);
  M.TraverseStmt(Def->getBody());
  return !M.Found;
}

} // namespace rewrite
} // namespace offload
