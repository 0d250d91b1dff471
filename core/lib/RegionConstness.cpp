//===- RegionConstness.cpp - kernel writes a region would mishandle ------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/RegionConstness.h"
#include "offload/Core/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace offload {
namespace {

/// `std::span<T>`'s element type, if `T` is a std::span.
std::optional<QualType> spanElement(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || Spec->getName() != "span" ||
      Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return std::nullopt;
  return Spec->getTemplateArgs()[0].getAsType();
}

bool isRegion(QualType T) {
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || RD->getName() != "region")
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  return NS && NS->getName() == "ofld";
}

/// What an argument is made of, through the conversions on the way: the
/// variable in `std::span<const float>(v)`, in the span_param a launch
/// builds from `v`, or `v` itself.
const VarDecl *viewedVariable(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParens();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *C = dyn_cast<CXXConstructExpr>(E))
      E = C->getNumArgs() ? C->getArg(0) : nullptr;
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *C = dyn_cast<CastExpr>(E))
      E = C->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *W = dyn_cast<ExprWithCleanups>(E))
      E = W->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

/// A region entry that maps a variable to the device, only (ReadOnly) or
/// to and from.
struct ConstEntry {
  const VarDecl *Region;
  const VarDecl *Viewed;
  const Expr *Entry;
  SourceLocation ScopeEnd; ///< where the region ends
  bool ReadOnly;
};

class Finder : public RecursiveASTVisitor<Finder> {
public:
  Finder(ASTContext &Ctx, DiagnosticsEngine &Diags, LaunchOfFn LaunchOf,
         llvm::SmallPtrSetImpl<const CallExpr *> &Warned)
      : Ctx(Ctx), Diags(Diags), LaunchOf(LaunchOf), Warned(Warned) {}

  bool TraverseCompoundStmt(CompoundStmt *CS) {
    Scopes.push_back(CS);
    bool R = RecursiveASTVisitor::TraverseCompoundStmt(CS);
    Scopes.pop_back();
    return R;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (!isRegion(VD->getType()) || Scopes.empty())
      return true;
    const auto *Init = dyn_cast_or_null<CXXConstructExpr>(
        VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr);
    if (!Init)
      return true;
    for (const Expr *Arg : Init->arguments()) {
      const Expr *Stripped = Arg->IgnoreImplicit();
      auto Elem = spanElement(Stripped->getType());
      if (!Elem)
        continue;
      if (const VarDecl *V = viewedVariable(Stripped))
        Entries.push_back({VD, V, Arg, Scopes.back()->getRBracLoc(),
                           Elem->isConstQualified()});
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    // A lambda's body is checked with its enclosing function's.
    if (Entries.empty() || Warned.count(CE))
      return true;
    std::optional<LaunchInfo> L = LaunchOf(*CE);
    if (!L)
      return true;
    const SourceManager &SM = Ctx.getSourceManager();
    for (unsigned I = 0; I < L->Desc->Params.size(); ++I) {
      const ParamLayout &P = L->Desc->Params[I];
      // An [[offload::in]] span is written too, but its writes should stay
      // in the launch: in a region they go into the region's copy.
      bool Writes =
          P.Kind == PayloadKind::Span &&
          (P.Map == MapKind::ToFrom || P.Map == MapKind::From || P.Scratch);
      unsigned ArgIndex = L->FirstArg + I;
      if (!Writes || ArgIndex >= CE->getNumArgs())
        continue;
      const VarDecl *V = viewedVariable(CE->getArg(ArgIndex));
      if (!V)
        continue;
      for (const ConstEntry &E : Entries) {
        // The region is alive at the call: declared before it, in a block
        // that has not ended.
        if (E.Viewed != V || (!E.ReadOnly && !P.Scratch) ||
            !SM.isBeforeInTranslationUnit(E.Region->getEndLoc(),
                                          CE->getBeginLoc()) ||
            !SM.isBeforeInTranslationUnit(CE->getEndLoc(), E.ScopeEnd))
          continue;
        if (P.Scratch)
          report(Diags, CE->getArg(ArgIndex)->getExprLoc(),
                 DiagId::RegionScratchWritten)
              << L->Kernel << L->Kernel->getParamDecl(I) << V->getName()
              << E.Region << !E.ReadOnly
              << CE->getArg(ArgIndex)->getSourceRange();
        else
          report(Diags, CE->getArg(ArgIndex)->getExprLoc(),
                 DiagId::RegionConstWritten)
              << L->Kernel << L->Kernel->getParamDecl(I) << V->getName()
              << E.Region << CE->getArg(ArgIndex)->getSourceRange();
        report(Diags, E.Entry->getExprLoc(),
               P.Scratch ? DiagId::RegionHeldNote
                         : DiagId::RegionConstEntryNote)
            << V->getName() << E.Entry->getSourceRange();
        Warned.insert(CE);
        break;
      }
    }
    return true;
  }

private:
  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  LaunchOfFn LaunchOf;
  llvm::SmallPtrSetImpl<const CallExpr *> &Warned;
  llvm::SmallVector<CompoundStmt *, 8> Scopes;
  llvm::SmallVector<ConstEntry, 4> Entries;
};

} // namespace

void checkRegionConstness(const Stmt &Body, ASTContext &Ctx,
                          DiagnosticsEngine &Diags, LaunchOfFn LaunchOf,
                          llvm::SmallPtrSetImpl<const CallExpr *> &Warned) {
  Finder(Ctx, Diags, LaunchOf, Warned).TraverseStmt(const_cast<Stmt *>(&Body));
}

} // namespace offload
