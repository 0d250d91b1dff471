//===- LoopResidency.cpp - data kept on the device for a loop -------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Why the rules below are enough: a hold changes what the host's copy of a
// variable contains between the loop's first launch and its end. Nothing can
// tell if nobody looks at that copy there:
//
//  * no expression of the loop names the variable except as a whole-variable
//    launch argument (LaunchGroups' heldVariable form, or a field of the
//    variable reached through `.`: `g.offsets`);
//  * nothing reaches it through another name: a local whose address never
//    left the function but for launches cannot be reached; a global, a
//    reference, a span, or a local whose address escaped (before the loop, or
//    anywhere in an enclosing loop) can, so the loop may then contain no call
//    that might touch it and no access through a pointer;
//  * a span or reference may view part of what another mapped variable is, so
//    one is held only next to variables it cannot overlap;
//  * the host may still read a standard container it names in the loop
//    (`fict[t]`, `v.size()`): such a read touches only that object and its
//    elements, so it blocks no other variable, but a reference or global it
//    reads may be a held variable under another name. The loop's scope
//    tells the runtime what such reads touch (ResidentLoop::Watch) at the
//    loop's entry, and the runtime holds no range that overlaps it.
//
// One walk of the function records every use of every variable with the
// loops around it; the rules are then decided per loop and variable.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/LoopResidency.h"
#include "offload/Core/LaunchGroups.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <map>
#include <memory>

using namespace clang;

namespace offload {
namespace {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(S);
}

bool isStdRecord(QualType T, llvm::StringRef Name) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getName() == Name;
}

/// Storage the function does not own: another name may reach it.
bool isBorrowed(const VarDecl &V) {
  QualType T = V.getType();
  return T->isReferenceType() || T->isPointerType() || isStdRecord(T, "span");
}

/// The variable, or field of one through `.`, that an expression names;
/// none for anything else (a pointer, a call, an element).
std::optional<LoopPath> pathOf(const Expr &E) {
  LoopPath P;
  const Expr *Cur = &E;
  for (;;) {
    Cur = Cur->IgnoreParenImpCasts();
    const auto *M = dyn_cast<MemberExpr>(Cur);
    if (!M)
      break;
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    // A union's members share storage; a reference field is another
    // object's name.
    if (M->isArrow() || !F || F->isBitField() ||
        F->getType()->isReferenceType() || F->getParent()->isUnion())
      return std::nullopt;
    P.Fields.push_back(F);
    Cur = M->getBase();
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Cur);
  P.Var = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!P.Var)
    return std::nullopt;
  std::reverse(P.Fields.begin(), P.Fields.end());
  return P;
}

/// The type of the object a path names.
QualType pathType(const LoopPath &P) {
  return P.Fields.empty() ? P.Var->getType().getNonReferenceType()
                          : P.Fields.back()->getType();
}

/// A read of a standard container's own storage through an object the
/// path names (`v[i]`, `v.size()`, `g.offsets.data()`), given only numbers:
/// it touches that object and the elements it owns or views, nothing else.
std::optional<LoopPath> containedAccess(const CallExpr &CE,
                                        const SourceManager &SM) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(CE.getDirectCallee());
  if (!M || M->isVirtual() || !SM.isInSystemHeader(M->getLocation()) ||
      !M->getParent()->isInStdNamespace())
    return std::nullopt;
  static constexpr llvm::StringLiteral Containers[] = {
      "vector", "array", "span", "basic_string", "basic_string_view"};
  static constexpr llvm::StringLiteral Reads[] = {
      "operator[]", "at",   "size",     "empty", "data",
      "front",      "back", "capacity", "length"};
  if (!llvm::is_contained(Containers, M->getParent()->getName()) ||
      !llvm::is_contained(Reads, M->getNameAsString()))
    return std::nullopt;
  const Expr *Object = nullptr;
  llvm::ArrayRef<const Expr *> Args(CE.getArgs(), CE.getNumArgs());
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&CE))
    Object = MC->getImplicitObjectArgument();
  else if (isa<CXXOperatorCallExpr>(CE) && !Args.empty()) {
    Object = Args.front();
    Args = Args.drop_front();
  }
  if (!Object || llvm::any_of(Args, [](const Expr *A) {
        return !A->getType()->isArithmeticType() &&
               !A->getType()->isEnumeralType();
      }))
    return std::nullopt;
  return pathOf(*Object);
}

/// A call that cannot reach the program's variables: a library function
/// given only numbers and string literals (printf of a value, std::sqrt).
bool isHarmlessCall(const CallExpr &CE, const SourceManager &SM) {
  const FunctionDecl *F = CE.getDirectCallee();
  if (!F || isa<CXXMethodDecl>(F) || !SM.isInSystemHeader(F->getLocation()))
    return false;
  for (const Expr *A : CE.arguments()) {
    const Expr *E = A->IgnoreParenImpCasts();
    if (isa<StringLiteral>(E))
      continue;
    QualType T = A->getType();
    if (!T->isArithmeticType() && !T->isEnumeralType())
      return false;
  }
  return true;
}

/// What a function's body may do to the program's data, for calls in a
/// loop: the globals it names, and whether it may reach memory through a
/// pointer or an unknown call (then anything exposed).
struct CalleeSummary {
  llvm::SmallPtrSet<const VarDecl *, 4> Globals;
  bool Opaque = false;
};

/// One use of a variable in the function, with the loops around it.
struct Use {
  const VarDecl *Var;
  SourceLocation Loc;
  llvm::SmallVector<const Stmt *, 8> Loops;
  bool LaunchArg = false;
  /// LaunchArg: how the launch maps it; or why it cannot be held.
  MapKind Map = MapKind::Literal;
  std::optional<ResidencyBlock> Unholdable;
  /// Not a launch argument: whether the variable's address may outlive
  /// the expression (a pointer, a reference, a call given it).
  bool Escapes = false;
  /// LaunchArg: the fields of `Var` the argument names (`g.offsets`).
  llvm::SmallVector<const FieldDecl *, 2> Fields = {};
};

/// A call or an access through a pointer, with the loops around it.
struct Reach {
  SourceLocation Loc;
  llvm::SmallVector<const Stmt *, 8> Loops;
  bool IsCall;
  /// A call into a body we read: what it may touch.
  const CalleeSummary *Callee = nullptr;
  /// A read of a standard container's storage (containedAccess): the
  /// object it reads.
  std::optional<LoopPath> Contained = std::nullopt;
};

struct LaunchSite {
  const CallExpr *Call;
  llvm::SmallVector<const Stmt *, 8> Loops;
};

class Walker {
public:
  Walker(ASTContext &Ctx, LoopLaunchFn LaunchOf)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LaunchOf(LaunchOf) {}

  void walk(const Stmt *S) {
    if (!S)
      return;
    if (isa<CapturedStmt, OMPExecutableDirective>(S)) {
      // An OpenMP construct: its body is outlined and may run on other
      // threads (a loop scope is per thread), and its loops keep the form
      // OpenMP reads: launches in it are not the loop's, loops in it hold
      // nothing.
      ++InLambda;
      ++InCaptured;
      for (const Stmt *C : S->children())
        walkChild(S, C);
      --InCaptured;
      --InLambda;
      return;
    }
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      // Another function: its launches are not this loop's, and whatever
      // it names is a use here (capture inits and body alike).
      ++InLambda;
      for (const Stmt *C : L->children())
        walkChild(L, C);
      --InLambda;
      return;
    }
    if (isa<LabelStmt>(S) || isa<CoroutineSuspendExpr, CoreturnStmt>(S))
      for (const Stmt *L : Loops)
        Unsupported.insert(L);
    if (isa<SwitchCase>(S))
      for (size_t I = SwitchLoopDepth.empty() ? 0 : SwitchLoopDepth.back();
           I < Loops.size(); ++I)
        Unsupported.insert(Loops[I]);
    if (isa<SwitchStmt>(S))
      SwitchLoopDepth.push_back(Loops.size());
    if (isLoop(S)) {
      if (InCaptured)
        Unsupported.insert(S);
      LoopOrder.push_back(S);
      LoopParents[S] = Loops.empty() ? nullptr : Loops.back();
      Loops.push_back(S);
    }

    if (const auto *CE = dyn_cast<CallExpr>(S); CE && !InLambda) {
      if (std::optional<LoopLaunchInfo> L = LaunchOf(*CE)) {
        launch(*CE, *L);
        finish(S);
        return;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        Uses.push_back({V, DRE->getLocation(), Loops, false, MapKind::Literal,
                        std::nullopt, escapes(*V, *DRE)});
    reach(S);
    for (const Stmt *C : S->children())
      walkChild(S, C);
    finish(S);
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  LoopLaunchFn LaunchOf;
  llvm::SmallVector<const Stmt *, 8> Loops, Parents;
  llvm::SmallVector<size_t, 4> SwitchLoopDepth;
  unsigned InLambda = 0, InCaptured = 0;
  std::vector<Use> Uses;
  std::vector<Reach> Reaches;
  std::vector<LaunchSite> Launches;
  std::vector<const Stmt *> LoopOrder;
  llvm::DenseMap<const Stmt *, const Stmt *> LoopParents;
  llvm::SmallPtrSet<const Stmt *, 4> Unsupported;
  bool HasGoto = false;
  std::map<const FunctionDecl *, std::unique_ptr<CalleeSummary>> *Summaries =
      nullptr;

private:
  void walkChild(const Stmt *Parent, const Stmt *C) {
    Parents.push_back(Parent);
    walk(C);
    Parents.pop_back();
  }
  void finish(const Stmt *S) {
    if (isLoop(S))
      Loops.pop_back();
    if (isa<SwitchStmt>(S))
      SwitchLoopDepth.pop_back();
  }

  void launch(const CallExpr &CE, const LoopLaunchInfo &L) {
    Launches.push_back({&CE, Loops});
    for (unsigned I = 0; I < CE.getNumArgs(); ++I) {
      const Expr *Arg = CE.getArg(I);
      unsigned P = I - L.FirstArg;
      std::optional<LoopPath> Path =
          I >= L.FirstArg && P < L.Kernel->Params.size() &&
                  L.Kernel->Params[P].Kind != PayloadKind::Value
              ? heldPath(*Arg)
              : std::nullopt;
      if (!Path) {
        walkChild(&CE, Arg);
        continue;
      }
      const ParamLayout &PL = L.Kernel->Params[P];
      Use U{Path->Var, Arg->getBeginLoc(), Loops, true,
            PL.Map,    std::nullopt,       false, Path->Fields};
      if (PL.Scratch)
        U.Unholdable = ResidencyBlock::Scratch;
      else if (PL.Kind == PayloadKind::Aggregate)
        U.Unholdable = ResidencyBlock::Aggregate;
      Uses.push_back(std::move(U));
    }
  }

  /// Whether the use of `V` at `DRE` may leave its address behind: anything
  /// but reading or assigning a scalar, an element of a local array or a
  /// field of a local object, or naming it where nothing is evaluated.
  bool escapes(const VarDecl &V, const DeclRefExpr &DRE) {
    if (V.getType()->isReferenceType())
      return false; // borrowed anyway
    const Stmt *Child = &DRE;
    for (size_t I = Parents.size(); I-- > 0;) {
      const Stmt *P = Parents[I];
      if (isa<ParenExpr>(P)) {
        Child = P;
        continue;
      }
      if (const auto *C = dyn_cast<ImplicitCastExpr>(P)) {
        if (C->getCastKind() == CK_LValueToRValue)
          return false;
        if (C->getCastKind() == CK_ArrayToPointerDecay) {
          Child = P;
          continue; // only a subscript may follow
        }
        return true;
      }
      if (const auto *A = dyn_cast<ArraySubscriptExpr>(P)) {
        if (A->getBase() != Child ||
            !isa<ImplicitCastExpr>(Child) /* through the decay only */)
          return true;
        Child = P;
        continue;
      }
      if (const auto *M = dyn_cast<MemberExpr>(P)) {
        if (M->isArrow() || !isa<FieldDecl>(M->getMemberDecl()))
          return true;
        Child = P;
        continue;
      }
      if (const auto *B = dyn_cast<BinaryOperator>(P))
        return !(B->isAssignmentOp() && B->getLHS() == Child &&
                 B->getType()->isScalarType());
      if (const auto *U = dyn_cast<UnaryOperator>(P))
        return !(U->isIncrementDecrementOp() && U->getType()->isScalarType());
      if (isa<UnaryExprOrTypeTraitExpr>(P))
        return false;
      return true;
    }
    return true;
  }

  /// Calls and accesses through pointers: what may reach exposed data.
  void reach(const Stmt *S) {
    if (isa<GotoStmt, IndirectGotoStmt>(S))
      HasGoto = true;
    // A destructor the AST does not show as a call.
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (const CXXRecordDecl *RD = V->getType()->getAsCXXRecordDecl();
              RD && RD->hasDefinition() && !RD->hasTrivialDestructor())
            Reaches.push_back({V->getLocation(), Loops, true, nullptr});
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      if (isHarmlessCall(*CE, SM))
        return;
      if (std::optional<LoopPath> P = containedAccess(*CE, SM)) {
        Reaches.push_back({CE->getBeginLoc(), Loops, true, nullptr, *P});
        return;
      }
      Reaches.push_back(
          {CE->getBeginLoc(), Loops, true, summary(CE->getDirectCallee())});
      return;
    }
    // A constructor (`ofld::dim3{n}`) and a temporary's destructor run
    // bodies we can read, as calls do.
    if (const auto *C = dyn_cast<CXXConstructExpr>(S)) {
      if (!C->getConstructor()->isTrivial())
        Reaches.push_back(
            {S->getBeginLoc(), Loops, true, summary(C->getConstructor())});
      return;
    }
    if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(S)) {
      Reaches.push_back({S->getBeginLoc(), Loops, true,
                         summary(B->getTemporary()->getDestructor())});
      return;
    }
    if (isa<CXXNewExpr, CXXDeleteExpr>(S)) {
      Reaches.push_back({S->getBeginLoc(), Loops, true, nullptr});
      return;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S);
        U && U->getOpcode() == UO_Deref)
      Reaches.push_back({S->getBeginLoc(), Loops, false, nullptr});
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(S)) {
      const Expr *Base = A->getBase()->IgnoreParens();
      const auto *Decay = dyn_cast<ImplicitCastExpr>(Base);
      bool LocalArray = Decay &&
                        Decay->getCastKind() == CK_ArrayToPointerDecay &&
                        isa<DeclRefExpr>(Decay->getSubExpr()->IgnoreParens());
      if (!LocalArray)
        Reaches.push_back({S->getBeginLoc(), Loops, false, nullptr});
    }
    if (const auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow())
      Reaches.push_back({S->getBeginLoc(), Loops, false, nullptr});
  }

  /// A direct callee's body (a constructor's member initializers too), read
  /// to three calls deep; null (may touch anything) for a virtual, indirect
  /// or bodiless callee.
  const CalleeSummary *summary(const FunctionDecl *F, unsigned Depth = 0) {
    if (!F || !Summaries)
      return nullptr;
    if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->isVirtual())
      return nullptr;
    const FunctionDecl *Def = nullptr;
    if (!F->hasBody(Def) || !Def || Depth > 3)
      return nullptr;
    auto [It, New] = Summaries->try_emplace(Def);
    if (!New)
      return It->second.get(); // null while being computed: recursion
    auto S = std::make_unique<CalleeSummary>();
    Walker Inner(Ctx, [](const CallExpr &) -> std::optional<LoopLaunchInfo> {
      return std::nullopt;
    });
    Inner.Summaries = Summaries;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *I : Ctor->inits())
        Inner.walk(I->getInit());
    Inner.walk(Def->getBody());
    for (const Use &U : Inner.Uses)
      if (U.Var->hasGlobalStorage() && !U.Var->isLocalVarDecl())
        S->Globals.insert(U.Var);
      else if (U.Var->isStaticLocal())
        S->Globals.insert(U.Var);
    for (const Reach &R : Inner.Reaches)
      if (!R.IsCall || !R.Callee)
        S->Opaque = true;
      else
        S->Globals.insert(R.Callee->Globals.begin(), R.Callee->Globals.end()),
            S->Opaque |= R.Callee->Opaque;
    // Launches in the callee hold their data only for themselves: the
    // walk above saw none (LaunchOf returns none), so their arguments
    // count as uses.
    It = Summaries->find(Def);
    It->second = std::move(S);
    return It->second.get();
  }
};

bool within(const llvm::SmallVectorImpl<const Stmt *> &Loops, const Stmt *L) {
  return llvm::is_contained(Loops, L);
}

/// Two different fields of one variable (`g.offsets`, `g.edges`), neither
/// inside the other.
bool distinctMembers(const LoopPath &A, const LoopPath &B) {
  if (A.Var != B.Var)
    return false;
  for (auto [FA, FB] : llvm::zip(A.Fields, B.Fields))
    if (FA != FB)
      return true;
  return false;
}

/// A whole object of a class (not a view): two of one type are the same
/// object or do not overlap.
bool isWholeObject(const LoopPath &P) {
  QualType T = pathType(P);
  return !isStdRecord(T, "span") && T->isRecordType() &&
         (!P.Fields.empty() || P.Var->getType()->isReferenceType());
}

} // namespace

std::vector<ResidentLoop> findResidentLoops(const Stmt &Body, ASTContext &Ctx,
                                            LoopLaunchFn LaunchOf,
                                            unsigned &NextId) {
  std::map<const FunctionDecl *, std::unique_ptr<CalleeSummary>> Summaries;
  Walker W(Ctx, LaunchOf);
  W.Summaries = &Summaries;
  W.walk(&Body);
  const SourceManager &SM = Ctx.getSourceManager();
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(A, B);
  };
  auto DeclaredIn = [&](const VarDecl *V, const Stmt *L) {
    SourceRange R = L->getSourceRange();
    SourceLocation D = V->getLocation();
    return !Before(D, R.getBegin()) && !Before(R.getEnd(), D);
  };

  // Whether a local's address left it before the loop (or anywhere, with
  // a goto).
  auto EscapedBefore = [&](const VarDecl *V, const Stmt *L) {
    return llvm::any_of(W.Uses, [&](const Use &U) {
      return U.Var == V && !U.LaunchArg && U.Escapes &&
             (W.HasGoto || Before(U.Loc, L->getBeginLoc()));
    });
  };

  // Who holds what: the outermost loop where the variable qualifies.
  std::vector<ResidentLoop> Result;
  std::vector<std::pair<LoopPath, const Stmt *>> HeldBy;

  for (const Stmt *L : W.LoopOrder) {
    // The variables its launches map, in order of first mention.
    llvm::SmallVector<LoopVariable, 4> Facts;
    for (const Use &U : W.Uses) {
      if (!U.LaunchArg || !within(U.Loops, L) || DeclaredIn(U.Var, L))
        continue;
      LoopPath Path{U.Var, U.Fields};
      auto It = llvm::find_if(Facts,
                              [&](const LoopVariable &F) { return F == Path; });
      if (It == Facts.end()) {
        LoopVariable &New = Facts.emplace_back();
        static_cast<LoopPath &>(New) = Path;
        New.Held = true;
        It = std::prev(Facts.end());
      }
      LoopVariable &V = *It;
      bool In = V.Map == MapKind::To || V.Map == MapKind::ToFrom ||
                U.Map == MapKind::To || U.Map == MapKind::ToFrom;
      bool Out = V.Map == MapKind::From || V.Map == MapKind::ToFrom ||
                 U.Map == MapKind::From || U.Map == MapKind::ToFrom;
      V.Map = In && Out ? MapKind::ToFrom : In ? MapKind::To : MapKind::From;
      if (U.Unholdable && V.Held) {
        V.Held = false;
        V.Why = *U.Unholdable;
        V.Use = U.Loc;
      }
    }
    if (Facts.empty())
      continue;

    // The first call or pointer access in the loop that might reach
    // exposed data, per variable. A read of a container the loop did not
    // declare touches only that container: the watch below covers it.
    auto ReachIn = [&](const VarDecl *V) -> const Reach * {
      for (const Reach &R : W.Reaches) {
        if (!within(R.Loops, L) ||
            (R.Contained && !DeclaredIn(R.Contained->Var, L)))
          continue;
        if (!R.IsCall || !R.Callee || R.Callee->Opaque)
          return &R;
        if (R.Callee->Globals.count(V))
          return &R;
      }
      return nullptr;
    };

    for (LoopVariable &F : Facts) {
      const VarDecl *V = F.Var;
      if (!F.Held)
        continue;
      auto Block = [&](ResidencyBlock Why, SourceLocation At,
                       SourceLocation At2 = {}) {
        F.Held = false;
        F.Why = Why;
        F.Use = At;
        F.Use2 = At2;
      };
      if (W.Unsupported.count(L)) {
        Block(ResidencyBlock::Unsupported, L->getBeginLoc());
        continue;
      }
      // The host names it in the loop, launch arguments aside.
      if (auto It = llvm::find_if(W.Uses,
                                  [&](const Use &U) {
                                    return U.Var == V && !U.LaunchArg &&
                                           within(U.Loops, L);
                                  });
          It != W.Uses.end()) {
        Block(ResidencyBlock::HostUse, It->Loc);
        continue;
      }
      // Reachable through another name?
      bool Global = V->hasGlobalStorage();
      bool Borrowed = isBorrowed(*V);
      const Use *Escape = nullptr;
      if (!Global && !Borrowed)
        for (const Use &U : W.Uses) {
          if (U.Var != V || U.LaunchArg || !U.Escapes)
            continue;
          bool SharesLoop = llvm::any_of(U.Loops, [&](const Stmt *O) {
            for (const Stmt *P = L; P; P = W.LoopParents.lookup(P))
              if (P == O)
                return true;
            return false;
          });
          if (W.HasGoto || Before(U.Loc, L->getBeginLoc()) || SharesLoop) {
            Escape = &U;
            break;
          }
        }
      if (Global || Borrowed || Escape)
        if (const Reach *R = ReachIn(V)) {
          if (Escape)
            Block(ResidencyBlock::Escaped, Escape->Loc, R->Loc);
          else
            Block(R->IsCall ? ResidencyBlock::Call
                            : ResidencyBlock::Indirection,
                  R->Loc);
          continue;
        }
      // A view may overlap another mapped variable partly.
      if (Borrowed)
        for (const LoopVariable &OF : Facts) {
          const VarDecl *O = OF.Var;
          if (&OF == &F)
            continue;
          bool OtherExposed = O->hasGlobalStorage() || isBorrowed(*O) ||
                              llvm::any_of(W.Uses, [&](const Use &U) {
                                return U.Var == O && !U.LaunchArg && U.Escapes;
                              });
          bool SameWhole =
              isWholeObject(F) && isWholeObject(OF) &&
              Ctx.hasSameUnqualifiedType(pathType(F), pathType(OF));
          if (OtherExposed && !SameWhole && !distinctMembers(F, OF)) {
            Block(ResidencyBlock::MayAlias, V->getLocation());
            F.Other = O;
            break;
          }
        }
    }

    ResidentLoop R;
    R.Loop = L;
    for (const LoopVariable &F : Facts) {
      // Held further out: this loop's launches find it there.
      bool HeldOutside = false;
      for (const Stmt *P = W.LoopParents.lookup(L); P;
           P = W.LoopParents.lookup(P))
        HeldOutside |=
            llvm::is_contained(HeldBy, std::make_pair(LoopPath(F), P));
      if (HeldOutside)
        continue;
      if (F.Held)
        HeldBy.push_back({F, L});
      R.Vars.push_back(F);
    }
    // What the host touches in the loop under a name another held variable
    // may share: a reference, a global, a local whose address left before
    // the loop, and the containers the loop reads (not its own variables,
    // which do not exist at its entry). Only a held view of exposed storage
    // can overlap them.
    bool HoldsExposed = llvm::any_of(R.Vars, [&](const LoopVariable &F) {
      return F.Held && (F.Var->hasGlobalStorage() || isBorrowed(*F.Var) ||
                        EscapedBefore(F.Var, L));
    });
    auto Watch = [&](LoopPath P) {
      if (!llvm::is_contained(R.Watch, P))
        R.Watch.push_back(std::move(P));
    };
    if (HoldsExposed) {
      for (const Use &U : W.Uses)
        if (!U.LaunchArg && within(U.Loops, L) && !DeclaredIn(U.Var, L) &&
            !U.Var->isConstexpr() &&
            (U.Var->hasGlobalStorage() || isBorrowed(*U.Var) ||
             EscapedBefore(U.Var, L)))
          Watch({U.Var, {}});
      for (const Reach &C : W.Reaches)
        if (C.Contained && within(C.Loops, L) &&
            !DeclaredIn(C.Contained->Var, L))
          Watch(*C.Contained);
    }
    for (const LaunchSite &S : W.Launches)
      if (within(S.Loops, L))
        R.Launches.push_back(S.Call);
    if (R.Vars.empty())
      continue;
    if (R.holdsAny())
      R.Id = NextId++;
    else
      R.Watch.clear();
    Result.push_back(std::move(R));
  }

  // A variable blocked in a loop but held (or blocked) by a loop inside it
  // is that loop's business: report each blocked variable once, innermost.
  for (ResidentLoop &R : Result)
    llvm::erase_if(R.Vars, [&](const LoopVariable &V) {
      if (V.Held)
        return false;
      for (const ResidentLoop &Inner : Result) {
        if (&Inner == &R)
          continue;
        bool Nested = false;
        for (const Stmt *P = W.LoopParents.lookup(Inner.Loop); P;
             P = W.LoopParents.lookup(P))
          Nested |= P == R.Loop;
        if (Nested && llvm::any_of(Inner.Vars, [&](const LoopVariable &I) {
              return I == V;
            }))
          return true;
      }
      return false;
    });
  llvm::erase_if(Result, [](const ResidentLoop &R) { return R.Vars.empty(); });
  return Result;
}

llvm::SmallVector<LaunchHold, 4> holdsOf(const std::vector<ResidentLoop> &Loops,
                                         const CallExpr &CE,
                                         const LoopLaunchInfo &L) {
  llvm::SmallVector<LaunchHold, 4> Holds;
  for (const ResidentLoop &R : Loops) {
    if (!R.Id || !llvm::is_contained(R.Launches, &CE))
      continue;
    for (auto [P, Layout] : llvm::enumerate(L.Kernel->Params)) {
      if (Layout.Kind == PayloadKind::Value ||
          L.FirstArg + P >= CE.getNumArgs())
        continue;
      std::optional<LoopPath> Path = heldPath(*CE.getArg(L.FirstArg + P));
      for (const LoopVariable &F : R.Vars)
        if (F.Held && Path && F == *Path)
          Holds.push_back({unsigned(P), R.Id, F.Map});
    }
  }
  return Holds;
}

std::optional<LoopPath> heldPath(const Expr &Arg) {
  return pathOf(mappedObject(Arg));
}

std::string LoopPath::name() const {
  std::string Name = Var->getNameAsString();
  for (const FieldDecl *F : Fields)
    Name += "." + F->getNameAsString();
  return Name;
}

std::string describeBlock(const LoopVariable &V) {
  std::string Name = "'" + V.name() + "'";
  switch (V.Why) {
  case ResidencyBlock::HostUse:
    return "the host uses " + Name + " here";
  case ResidencyBlock::Escaped:
    return "the address of " + Name +
           " escapes here, and the loop may reach it through a pointer or a "
           "call";
  case ResidencyBlock::Call:
    return "this call may use " + Name;
  case ResidencyBlock::Indirection:
    return "this access through a pointer may reach " + Name;
  case ResidencyBlock::MayAlias:
    return Name + " may view memory that '" +
           (V.Other ? V.Other->getNameAsString() : std::string("?")) +
           "' also maps";
  case ResidencyBlock::Scratch:
    return "an [[offload::in]] parameter gets its own copy of " + Name;
  case ResidencyBlock::Aggregate:
    return Name + " is an object of spans";
  case ResidencyBlock::Unsupported:
    return "the loop has a label, a case of an outer switch or a coroutine "
           "suspension, or is in an OpenMP construct";
  }
  return Name;
}

} // namespace offload
