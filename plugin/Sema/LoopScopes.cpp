//===- LoopScopes.cpp - the scope object around a resident loop -----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Why in the AST and not in the IR: a destructor call at every exit of a
// loop (break, return, goto, a throw from any call inside) is what clang's
// CodeGen already emits for a local object; rebuilding those paths in IR
// would repeat it, and miss some.
//
//===----------------------------------------------------------------------===//

#include "LoopScopes.h"
#include "offload/Core/LoopResidency.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace offload {
namespace {

/// ofld::detail, where offload/region.hpp declares the scope.
NamespaceDecl *detailNamespace(ASTContext &Ctx) {
  DeclContext *DC = Ctx.getTranslationUnitDecl();
  NamespaceDecl *NS = nullptr;
  for (llvm::StringRef Name : {"ofld", "detail"}) {
    auto Found = DC->lookup(&Ctx.Idents.get(Name));
    NS = Found.empty() ? nullptr : dyn_cast<NamespaceDecl>(Found.front());
    if (!NS)
      return nullptr;
    DC = NS;
  }
  return NS;
}

/// ofld::detail::loop_scope.
CXXRecordDecl *scopeClass(ASTContext &Ctx) {
  NamespaceDecl *DC = detailNamespace(Ctx);
  if (!DC)
    return nullptr;
  auto Found = DC->lookup(&Ctx.Idents.get("loop_scope"));
  auto *RD = Found.empty() ? nullptr : dyn_cast<CXXRecordDecl>(Found.front());
  return RD && RD->hasDefinition() ? RD->getDefinition() : nullptr;
}

/// The slot in `Parent` (or below it) that holds `Loop`.
Stmt **slotOf(Stmt *Parent, const Stmt &Loop) {
  if (!Parent)
    return nullptr;
  for (Stmt *&C : Parent->children()) {
    if (C == &Loop)
      return &C;
    // Another function's body (a lambda's) is not this one's.
    if (C && !isa<LambdaExpr>(C))
      if (Stmt **S = slotOf(C, Loop))
        return S;
  }
  return nullptr;
}

/// `ofld::detail::loop_watch(<path>)` at `Loc`, or null.
Expr *watchCall(Sema &S, const LoopPath &P, SourceLocation Loc) {
  ASTContext &Ctx = S.getASTContext();
  NamespaceDecl *NS = detailNamespace(Ctx);
  if (!NS)
    return nullptr;
  LookupResult R(S, DeclarationName(&Ctx.Idents.get("loop_watch")), Loc,
                 Sema::LookupOrdinaryName);
  if (!S.LookupQualifiedName(R, NS) || R.empty())
    return nullptr;
  auto *V = const_cast<VarDecl *>(P.Var);
  Expr *Arg =
      DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(), V,
                          /*RefersToEnclosingVariableOrCapture=*/false, Loc,
                          V->getType().getNonReferenceType(), VK_LValue);
  for (const FieldDecl *F : P.Fields) {
    QualType T = F->getType();
    if (Arg->getType().isConstQualified())
      T.addConst();
    Arg = MemberExpr::CreateImplicit(Ctx, Arg, /*IsArrow=*/false,
                                     const_cast<FieldDecl *>(F), T, VK_LValue,
                                     OK_Ordinary);
  }
  ExprResult Fn = S.BuildDeclarationNameExpr(CXXScopeSpec(), R,
                                             /*NeedsADL=*/false);
  if (Fn.isInvalid())
    return nullptr;
  ExprResult Call = S.BuildCallExpr(nullptr, Fn.get(), Loc, {Arg}, Loc);
  if (Call.isInvalid())
    return nullptr;
  ExprResult Full = S.ActOnFinishFullExpr(Call.get(), /*DiscardedValue=*/true);
  return Full.isInvalid() ? nullptr : Full.get();
}

} // namespace

bool wrapLoopInScope(Sema &S, FunctionDecl &FD, const Stmt &Loop,
                     llvm::ArrayRef<LoopPath> Watch) {
  ASTContext &Ctx = S.getASTContext();
  CXXRecordDecl *RD = scopeClass(Ctx);
  Stmt **Slot = slotOf(FD.getBody(), Loop);
  if (!RD || !Slot)
    return false;
  CXXConstructorDecl *Ctor = nullptr;
  for (CXXConstructorDecl *C : RD->ctors())
    if (C->isDefaultConstructor())
      Ctor = C;
  CXXDestructorDecl *Dtor = RD->getDestructor();
  if (!Ctor || !Dtor)
    return false;

  SourceLocation Loc = Loop.getBeginLoc();
  QualType T = Ctx.getCanonicalTagType(RD);
  auto *Init = CXXConstructExpr::Create(
      Ctx, T, Loc, Ctor, /*Elidable=*/false, {},
      /*HadMultipleCandidates=*/false, /*ListInitialization=*/false,
      /*StdInitListInitialization=*/false, /*ZeroInitialization=*/false,
      CXXConstructionKind::Complete, SourceRange());
  auto *Var =
      VarDecl::Create(Ctx, &FD, Loc, Loc, &Ctx.Idents.get("__ofld_loop_scope"),
                      T, Ctx.getTrivialTypeSourceInfo(T, Loc), SC_None);
  Var->setInit(Init);
  Var->setInitStyle(VarDecl::CallInit);
  Var->setImplicit();
  Var->setIsUsed();
  S.MarkFunctionReferenced(Loc, Ctor);
  S.MarkFunctionReferenced(Loc, Dtor);
  llvm::SmallVector<Stmt *, 4> Body;
  Body.push_back(new (Ctx) DeclStmt(DeclGroupRef(Var), Loc, Loc));
  for (const LoopPath &P : Watch) {
    Expr *Call = watchCall(S, P, Loc);
    if (!Call)
      return false;
    Body.push_back(Call);
  }
  Body.push_back(*Slot);
  *Slot = CompoundStmt::Create(Ctx, Body, FPOptionsOverride(), Loc,
                               Loop.getEndLoc());
  return true;
}

} // namespace offload
