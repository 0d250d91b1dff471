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
//    launch argument (LaunchGroups' heldVariable form);
//  * nothing reaches it through another name: a local whose address never
//    left the function but for launches cannot be reached; a global, a
//    reference, a span, or a local whose address escaped (before the loop, or
//    anywhere in an enclosing loop) can, so the loop may then contain no call
//    that might touch it and no access through a pointer;
//  * a span or reference may view part of what another mapped variable is, so
//    one is held only next to variables it cannot overlap.
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
};

/// A call or an access through a pointer, with the loops around it.
struct Reach {
  SourceLocation Loc;
  llvm::SmallVector<const Stmt *, 8> Loops;
  bool IsCall;
  /// A call into a body we read: what it may touch.
  const CalleeSummary *Callee = nullptr;
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
      const VarDecl *V = I >= L.FirstArg && P < L.Kernel->Params.size() &&
                                 L.Kernel->Params[P].Kind != PayloadKind::Value
                             ? heldVariable(*Arg)
                             : nullptr;
      if (!V) {
        walkChild(&CE, Arg);
        continue;
      }
      const ParamLayout &PL = L.Kernel->Params[P];
      Use U{V, Arg->getBeginLoc(), Loops, true, PL.Map, std::nullopt, false};
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
      Reaches.push_back({CE->getBeginLoc(), Loops, true, summary(*CE)});
      return;
    }
    if (isa<CXXConstructExpr, CXXNewExpr, CXXDeleteExpr>(S)) {
      const auto *C = dyn_cast<CXXConstructExpr>(S);
      if (C && C->getConstructor()->isTrivial())
        return;
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

  /// A direct call's body, read to three calls deep; null (may touch
  /// anything) for a virtual, indirect or bodiless callee.
  const CalleeSummary *summary(const CallExpr &CE, unsigned Depth = 0) {
    const FunctionDecl *F = CE.getDirectCallee();
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

bool isWholeClassReference(const VarDecl &V) {
  QualType T = V.getType();
  return T->isReferenceType() && !isStdRecord(T, "span") &&
         T.getNonReferenceType()->isRecordType();
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

  // Who holds what: the outermost loop where the variable qualifies.
  llvm::DenseMap<std::pair<const Stmt *, const VarDecl *>, bool> Qualifies;
  std::vector<ResidentLoop> Result;
  llvm::DenseMap<const Stmt *, size_t> Index;
  llvm::DenseMap<const VarDecl *, llvm::SmallPtrSet<const Stmt *, 2>> HeldBy;

  for (const Stmt *L : W.LoopOrder) {
    // The variables its launches map, in order of first mention.
    llvm::SmallVector<const VarDecl *, 4> Candidates;
    llvm::DenseMap<const VarDecl *, LoopVariable> Facts;
    for (const Use &U : W.Uses) {
      if (!U.LaunchArg || !within(U.Loops, L) || DeclaredIn(U.Var, L))
        continue;
      auto [It, New] = Facts.try_emplace(U.Var);
      LoopVariable &V = It->second;
      if (New) {
        Candidates.push_back(U.Var);
        V.Var = U.Var;
        V.Held = true;
      }
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
    if (Candidates.empty())
      continue;

    // The first call or pointer access in the loop that might reach
    // exposed data, per variable.
    auto ReachIn = [&](const VarDecl *V) -> const Reach * {
      for (const Reach &R : W.Reaches) {
        if (!within(R.Loops, L))
          continue;
        if (!R.IsCall || !R.Callee || R.Callee->Opaque)
          return &R;
        if (R.Callee->Globals.count(V))
          return &R;
      }
      return nullptr;
    };

    for (const VarDecl *V : Candidates) {
      LoopVariable &F = Facts[V];
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
        for (const VarDecl *O : Candidates) {
          if (O == V)
            continue;
          bool OtherExposed = O->hasGlobalStorage() || isBorrowed(*O) ||
                              llvm::any_of(W.Uses, [&](const Use &U) {
                                return U.Var == O && !U.LaunchArg && U.Escapes;
                              });
          bool SameWhole =
              isWholeClassReference(*V) && isWholeClassReference(*O) &&
              Ctx.hasSameUnqualifiedType(V->getType().getNonReferenceType(),
                                         O->getType().getNonReferenceType());
          if (OtherExposed && !SameWhole) {
            Block(ResidencyBlock::MayAlias, V->getLocation());
            F.Other = O;
            break;
          }
        }
    }

    ResidentLoop R;
    R.Loop = L;
    for (const VarDecl *V : Candidates) {
      LoopVariable F = Facts[V];
      // Held further out: this loop's launches find it there.
      bool HeldOutside = false;
      for (const Stmt *P = W.LoopParents.lookup(L); P;
           P = W.LoopParents.lookup(P))
        HeldOutside |= HeldBy[V].count(P) != 0;
      if (HeldOutside)
        continue;
      if (F.Held)
        HeldBy[V].insert(L);
      R.Vars.push_back(F);
    }
    for (const LaunchSite &S : W.Launches)
      if (within(S.Loops, L))
        R.Launches.push_back(S.Call);
    if (R.Vars.empty())
      continue;
    if (R.holdsAny())
      R.Id = NextId++;
    Index[L] = Result.size();
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
              return I.Var == V.Var;
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
      const VarDecl *V = heldVariable(*CE.getArg(L.FirstArg + P));
      for (const LoopVariable &F : R.Vars)
        if (F.Held && F.Var == V)
          Holds.push_back({unsigned(P), R.Id, F.Map});
    }
  }
  return Holds;
}

std::string describeBlock(const LoopVariable &V) {
  std::string Name = "'" + V.Var->getNameAsString() + "'";
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
