//===- RegionConstness.cpp - kernel writes a region would mishandle ------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/RegionConstness.h"
#include "offload/Core/Diagnostics.h"
#include "offload/Core/TransferRules.h"

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

/// Where an argument's data is named: a variable and the path of span
/// fields from it ("" for the variable itself, "grid.energy").
struct Place {
  const VarDecl *Var;
  std::string Path;
};

std::string joinPath(llvm::StringRef Outer, llvm::StringRef Inner) {
  if (Outer.empty() || Inner.empty())
    return (Outer + Inner).str();
  return (Outer + "." + Inner).str();
}

/// What an argument is made of, through the conversions on the way: the
/// variable in `std::span<const float>(v)`, in the span_param a launch
/// builds from `v`, or `v` itself; or a field of it, reached by `.`.
std::optional<Place> viewedPlace(const Expr *E) {
  std::string Path;
  for (unsigned Depth = 0; E && Depth < 32; ++Depth) {
    E = E->IgnoreParens();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        return Place{V, Path};
      return std::nullopt;
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
      if (!F || M->isArrow())
        return std::nullopt;
      Path = joinPath(F->getName(), Path);
      E = M->getBase();
    } else if (const auto *C = dyn_cast<CXXConstructExpr>(E))
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
      return std::nullopt;
  }
  return std::nullopt;
}

/// A region entry that maps a variable (or one span field of it) to the
/// device, only (ReadOnly) or to and from.
struct ConstEntry {
  const VarDecl *Region;
  const VarDecl *Viewed;
  std::string Path; ///< of the span field in Viewed; "" for Viewed itself
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
      std::optional<Place> P = viewedPlace(Stripped);
      if (!P)
        continue;
      SourceLocation End = Scopes.back()->getRBracLoc();
      if (auto Elem = spanElement(Stripped->getType())) {
        Entries.push_back(
            {VD, P->Var, P->Path, Arg, End, Elem->isConstQualified()});
        continue;
      }
      // An object of spans: the region maps each span field by its type.
      QualType Object = Stripped->getType().getNonReferenceType();
      if (Object->isRecordType())
        if (std::optional<ParamRule> R = spanFieldsOf(Object, Ctx))
          for (const SpanField &F : R->Layout.Fields)
            Entries.push_back({VD, P->Var, joinPath(P->Path, F.Path), Arg, End,
                               F.Map == MapKind::To});
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
    for (unsigned I = 0; I < L->Desc->Params.size(); ++I) {
      const ParamLayout &P = L->Desc->Params[I];
      unsigned ArgIndex = L->FirstArg + I;
      if (ArgIndex >= CE->getNumArgs())
        continue;
      const Expr *Arg = CE->getArg(ArgIndex);
      // An [[offload::in]] span is written too, but its writes should stay
      // in the launch: in a region they go into the region's copy.
      if (P.Kind == PayloadKind::Span &&
          (P.Map == MapKind::ToFrom || P.Map == MapKind::From || P.Scratch)) {
        if (std::optional<Place> V = viewedPlace(Arg))
          warnAt(*CE, *L, I, *V, P.Scratch);
        continue;
      }
      // An object of spans is written through its non-const span fields.
      if (P.Kind != PayloadKind::Aggregate)
        continue;
      std::optional<Place> V = viewedPlace(Arg);
      if (!V)
        continue;
      // One warning per parameter: the first such field.
      for (const SpanField &F : P.Fields)
        if ((F.Map == MapKind::ToFrom || F.Map == MapKind::From) &&
            warnAt(*CE, *L, I, {V->Var, joinPath(V->Path, F.Path)},
                   /*Scratch=*/false))
          break;
    }
    return true;
  }

private:
  /// Warns at parameter `I` of launch `CE` if it writes `Written` while a
  /// region alive at the call maps it to the device only (or, for an
  /// [[offload::in]] span, at all).
  bool warnAt(const CallExpr &CE, const LaunchInfo &L, unsigned I,
              const Place &Written, bool Scratch) {
    const SourceManager &SM = Ctx.getSourceManager();
    const Expr *Arg = CE.getArg(L.FirstArg + I);
    std::string Name = joinPath(Written.Var->getName(), Written.Path);
    for (const ConstEntry &E : Entries) {
      // The region is alive at the call: declared before it, in a block
      // that has not ended.
      if (E.Viewed != Written.Var || E.Path != Written.Path ||
          (!E.ReadOnly && !Scratch) ||
          !SM.isBeforeInTranslationUnit(E.Region->getEndLoc(),
                                        CE.getBeginLoc()) ||
          !SM.isBeforeInTranslationUnit(CE.getEndLoc(), E.ScopeEnd))
        continue;
      if (Scratch)
        report(Diags, Arg->getExprLoc(), DiagId::RegionScratchWritten)
            << L.Kernel << L.Kernel->getParamDecl(I) << Name << E.Region
            << !E.ReadOnly << Arg->getSourceRange();
      else
        report(Diags, Arg->getExprLoc(), DiagId::RegionConstWritten)
            << L.Kernel << L.Kernel->getParamDecl(I) << Name << E.Region
            << Arg->getSourceRange();
      report(Diags, E.Entry->getExprLoc(),
             Scratch ? DiagId::RegionHeldNote : DiagId::RegionConstEntryNote)
          << Name << E.Entry->getSourceRange();
      Warned.insert(&CE);
      return true;
    }
    return false;
  }

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
