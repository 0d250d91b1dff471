//===- BoundAnalysis.cpp - read a kernel's bounds check from its body -----===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The body is walked in order, keeping the bounds in force: a guard's
// condition holds inside it (`if (i < n) {...}`, a loop's condition in its
// body), an early exit's negation for the rest of its block (`if (i >= n)
// return;`), a `&&`'s left side while its right side is evaluated. Every read
// of a thread index (outside the comparisons that bound it, and outside the
// pure arithmetic that names a derived index, `row = i / cols`) records the
// bounds in force there. The launch must reach every read: the bound of a
// dimension is the largest over the reads of the smallest bound in force at
// each. A read with no bound in force leaves the dimension Unknown.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/BoundAnalysis.h"
#include "offload/Core/Diagnostics.h"
#include "offload/Core/LaunchChecks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <deque>

using namespace clang;

namespace offload {
namespace {

/// The thread-index functions of offload/device.hpp.
enum class IndexFn { None, GlobalId, ThreadId, BlockId, Size };

IndexFn indexFunction(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier())
    return IndexFn::None;
  const DeclContext *DC = FD->getDeclContext();
  while (DC && DC->isInlineNamespace())
    DC = DC->getParent();
  const auto *NS = dyn_cast_or_null<NamespaceDecl>(DC);
  if (!NS || !NS->getDeclName().isIdentifier() || NS->getName() != "ofld" ||
      !NS->getParent()->getRedeclContext()->isTranslationUnit())
    return IndexFn::None;
  return llvm::StringSwitch<IndexFn>(FD->getName())
      .Case("global_id", IndexFn::GlobalId)
      .Case("thread_id", IndexFn::ThreadId)
      .Case("block_id", IndexFn::BlockId)
      .Cases({"block_dim", "grid_dim"}, IndexFn::Size)
      .Default(IndexFn::None);
}

/// Bit `d` for dimension d; all three where the dimension is not a constant.
constexpr unsigned AllDims = 7;

const Expr *strip(const Expr *E) { return E ? E->IgnoreParenCasts() : E; }

/// The kernel's bound in the making: per dimension, the bounds in force at
/// each read.
class Analyser {
public:
  Analyser(const FunctionDecl &K, ASTContext &Ctx) : K(K), Ctx(Ctx) {}
  BoundAnalysis run(const Stmt *Body);

private:
  /// One bound in force: ofld::global_id(Dim) < Terms.
  struct Level {
    unsigned Dim;
    llvm::SmallVector<BoundTerm, 4> Terms;
  };
  using Chain = llvm::SmallVector<const Level *, 4>;

  // What a call of an index function reads.
  unsigned callDims(const CallExpr *CE);
  unsigned calleeDims(const FunctionDecl *FD);
  int sourceDim(const Expr *E);
  int indexDim(const Expr *E);
  /// An index, maybe offset by a computable term, in a comparison.
  struct IndexSide {
    int Dim = -1;
    const Expr *Offset = nullptr;
    bool Subtract = false;
  };
  IndexSide indexSide(const Expr *E);
  bool toTerms(const Expr *E, llvm::SmallVectorImpl<BoundTerm> &Out,
               unsigned Depth = 0);
  bool fieldTerm(const MemberExpr *ME, BoundTerm &T);
  bool sizeTerm(const Expr *Obj, llvm::SmallVectorImpl<BoundTerm> &Out);
  void implied(const Expr *C, bool Truth, llvm::SmallVectorImpl<Level> &Out);
  bool isBoundCheck(const Expr *E);
  unsigned reads(const Stmt *S, SourceLocation *First = nullptr);
  bool isPure(const Stmt *S);

  void push(const Expr *C, bool Truth, bool Reads = true);
  void useCondition(const Expr *C);
  void use(const Stmt *S);
  void record(unsigned Dims, SourceLocation Loc);
  void declare(const VarDecl *VD);
  void walk(const Stmt *S);
  static bool isExit(const Stmt *S);
  DimBound result(unsigned D);

  const FunctionDecl &K;
  ASTContext &Ctx;
  llvm::DenseMap<const VarDecl *, unsigned> IndexVar; ///< dimension
  llvm::DenseMap<const VarDecl *, unsigned> Derived;  ///< dimension bits
  llvm::DenseSet<const VarDecl *> Assigned, Incremented;
  llvm::DenseMap<const FunctionDecl *, unsigned> Callees;
  std::deque<Level> Levels; ///< storage; Active points into it
  Chain Active;
  llvm::SmallVector<Chain, 4> Reads[3];
  bool Read[3] = {false, false, false};
  SourceLocation Unguarded[3];
};

unsigned Analyser::callDims(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  IndexFn F = indexFunction(FD);
  if (F == IndexFn::Size)
    return 0;
  if (F == IndexFn::None)
    return calleeDims(FD);
  if (CE->getNumArgs() == 0)
    return 1;
  Expr::EvalResult R;
  const Expr *A = CE->getArg(0);
  if (A->isValueDependent() || !A->EvaluateAsInt(R, Ctx) ||
      R.Val.getInt().getExtValue() < 0 || R.Val.getInt().getExtValue() > 2)
    return AllDims;
  return 1u << R.Val.getInt().getExtValue();
}

/// The thread indices a function the kernel calls reads, itself or through
/// the functions it calls.
unsigned Analyser::calleeDims(const FunctionDecl *FD) {
  if (!FD)
    return 0;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody())
    return 0;
  auto [It, New] = Callees.try_emplace(Def, 0);
  if (!New)
    return It->second; // known, or being computed (a recursion)
  struct Finder : RecursiveASTVisitor<Finder> {
    Analyser &A;
    unsigned Dims = 0;
    explicit Finder(Analyser &A) : A(A) {}
    bool VisitCallExpr(CallExpr *CE) {
      Dims |= A.callDims(CE);
      return true;
    }
  } F(*this);
  F.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
  Callees[Def] = F.Dims;
  return F.Dims;
}

/// The dimension of `global_id(d)` or CUDA's `block_id(d) * block_dim(d) +
/// thread_id(d)`, or -1.
int Analyser::sourceDim(const Expr *E) {
  // The dimension of a call of ofld::<Name> with a constant argument.
  auto Dim = [&](const Expr *X, llvm::StringRef Name) -> int {
    const auto *CE = dyn_cast_or_null<CallExpr>(strip(X));
    const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
    if (indexFunction(FD) == IndexFn::None || FD->getName() != Name)
      return -1;
    if (CE->getNumArgs() == 0)
      return 0;
    Expr::EvalResult R;
    const Expr *A = CE->getArg(0);
    if (A->isValueDependent() || !A->EvaluateAsInt(R, Ctx))
      return -1;
    int64_t D = R.Val.getInt().getExtValue();
    return D >= 0 && D <= 2 ? int(D) : -1;
  };
  E = strip(E);
  if (int D = Dim(E, "global_id"); D >= 0)
    return D;
  const auto *Add = dyn_cast<BinaryOperator>(E);
  if (!Add || Add->getOpcode() != BO_Add)
    return -1;
  for (auto [Prod, Tid] : {std::pair(Add->getLHS(), Add->getRHS()),
                           std::pair(Add->getRHS(), Add->getLHS())}) {
    const auto *Mul = dyn_cast<BinaryOperator>(strip(Prod));
    int T = Dim(Tid, "thread_id");
    if (!Mul || Mul->getOpcode() != BO_Mul || T < 0)
      continue;
    for (auto [Blk, Num] : {std::pair(Mul->getLHS(), Mul->getRHS()),
                            std::pair(Mul->getRHS(), Mul->getLHS())})
      if (Dim(Blk, "block_id") == T && Dim(Num, "block_dim") == T)
        return T;
  }
  return -1;
}

/// The dimension of an index the kernel may bound: an index source or a
/// variable holding one; -1 otherwise.
int Analyser::indexDim(const Expr *E) {
  if (int D = sourceDim(E); D >= 0)
    return D;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(E)))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (auto It = IndexVar.find(VD); It != IndexVar.end())
        return int(It->second);
  return -1;
}

/// `p.n`, `p.dims.x`: an integer field of a parameter of class type.
bool Analyser::fieldTerm(const MemberExpr *ME, BoundTerm &T) {
  uint64_t Offset = 0;
  std::string Path;
  const Expr *Base = ME;
  while (const auto *M = dyn_cast<MemberExpr>(Base)) {
    const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (M->isArrow() || !FD || FD->isBitField())
      return false;
    const ASTRecordLayout &L = Ctx.getASTRecordLayout(FD->getParent());
    Offset += Ctx.toCharUnitsFromBits(L.getFieldOffset(FD->getFieldIndex()))
                  .getQuantity();
    Path = "." + FD->getNameAsString() + Path;
    Base = M->getBase()->IgnoreParens();
    // A field of a base class sits at the base's offset: not followed.
    while (const auto *C = dyn_cast<ImplicitCastExpr>(Base)) {
      if (C->getCastKind() != CK_NoOp && C->getCastKind() != CK_LValueToRValue)
        return false;
      Base = C->getSubExpr()->IgnoreParens();
    }
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != &K || Assigned.contains(P))
    return false;
  T.Op = BoundTerm::Value;
  T.Param = P->getFunctionScopeIndex();
  T.Offset = Offset;
  T.Field = Path;
  return true;
}

/// The element count of a kernel parameter that is a std::span (its run-time
/// size), a std::array or a C array (constants).
bool Analyser::sizeTerm(const Expr *Obj,
                        llvm::SmallVectorImpl<BoundTerm> &Out) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts());
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != &K || Assigned.contains(P))
    return false;
  QualType Ty = P->getType().getNonReferenceType();
  BoundTerm T;
  if (const auto *CAT = Ctx.getAsConstantArrayType(Ty)) {
    T.Constant = int64_t(CAT->getZExtSize());
    Out.push_back(T);
    return true;
  }
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Ty->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() ||
      Spec->getTemplateArgs().size() < 2 ||
      Spec->getTemplateArgs()[1].getKind() != TemplateArgument::Integral)
    return false;
  uint64_t N = Spec->getTemplateArgs()[1].getAsIntegral().getZExtValue();
  if (Spec->getName() == "array" ||
      (Spec->getName() == "span" && N != uint64_t(-1))) {
    T.Constant = int64_t(N); // a static extent
  } else if (Spec->getName() == "span") {
    T.Op = BoundTerm::Count;
    T.Param = P->getFunctionScopeIndex();
  } else {
    return false;
  }
  Out.push_back(T);
  return true;
}

bool Analyser::toTerms(const Expr *E, llvm::SmallVectorImpl<BoundTerm> &Out,
                       unsigned Depth) {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParens();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    E = M->getSubExpr()->IgnoreParens(); // std::min's `const T&` arguments
  // Casts between integer types only: a float bound is not an index count.
  while (const auto *C = dyn_cast<CastExpr>(E)) {
    if (!C->getSubExpr()->getType()->isIntegralOrEnumerationType() &&
        C->getCastKind() != CK_LValueToRValue && C->getCastKind() != CK_NoOp)
      return false;
    E = C->getSubExpr()->IgnoreParens();
  }
  if (!E->getType()->isIntegralOrEnumerationType() ||
      E->getType()->isBooleanType())
    return false;
  BoundTerm T;
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx)) {
    T.Constant = R.Val.getInt().getExtValue();
    Out.push_back(T);
    return true;
  }
  auto Integer = [&](QualType Ty) {
    Ty = Ty.getNonReferenceType();
    T.Bytes = uint8_t(Ctx.getTypeSize(Ty) / 8);
    T.Signed = Ty->isSignedIntegerOrEnumerationType();
    return T.Bytes == 1 || T.Bytes == 2 || T.Bytes == 4 || T.Bytes == 8;
  };
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *P = dyn_cast_or_null<ParmVarDecl>(VD)) {
      // The argument's value, unless the kernel changes it first.
      if (P->getDeclContext() != &K || !Integer(P->getType()) ||
          Assigned.contains(P) || Incremented.contains(P))
        return false;
      T.Op = BoundTerm::Value;
      T.Param = P->getFunctionScopeIndex();
      Out.push_back(T);
      return true;
    }
    // A local that keeps its initial value.
    if (VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
        VD->getInit() && !Assigned.contains(VD) && !Incremented.contains(VD))
      return toTerms(VD->getInit(), Out, Depth + 1);
    return false;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!fieldTerm(ME, T) || !Integer(ME->getType()))
      return false;
    Out.push_back(T);
    return true;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    // `s.size()` of a std::span or std::array parameter.
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (!M || !M->getDeclName().isIdentifier() || M->getName() != "size" ||
        MC->getNumArgs() || !MC->getImplicitObjectArgument())
      return false;
    return sizeTerm(MC->getImplicitObjectArgument(), Out);
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // std::size of a parameter; std::min and std::max of two bounds.
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !FD->isInStdNamespace() || !FD->getDeclName().isIdentifier())
      return false;
    if (FD->getName() == "size" && CE->getNumArgs() == 1)
      return sizeTerm(CE->getArg(0), Out);
    if ((FD->getName() != "min" && FD->getName() != "max") ||
        CE->getNumArgs() != 2)
      return false;
    T.Op = FD->getName() == "min" ? BoundTerm::Min : BoundTerm::Max;
    Out.push_back(T);
    return toTerms(CE->getArg(0), Out, Depth + 1) &&
           toTerms(CE->getArg(1), Out, Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Add:
      T.Op = BoundTerm::Add;
      break;
    case BO_Sub:
      T.Op = BoundTerm::Sub;
      break;
    case BO_Mul:
      T.Op = BoundTerm::Mul;
      break;
    case BO_Div:
      T.Op = BoundTerm::Div;
      break;
    default:
      return false;
    }
    Out.push_back(T);
    return toTerms(BO->getLHS(), Out, Depth + 1) &&
           toTerms(BO->getRHS(), Out, Depth + 1);
  }
  return false;
}

/// The bounds that `C` having the value `Truth` implies.
void Analyser::implied(const Expr *C, bool Truth,
                       llvm::SmallVectorImpl<Level> &Out) {
  C = strip(C);
  if (const auto *U = dyn_cast<UnaryOperator>(C);
      U && U->getOpcode() == UO_LNot)
    return implied(U->getSubExpr(), !Truth, Out);
  const auto *B = dyn_cast<BinaryOperator>(C);
  if (!B)
    return;
  BinaryOperatorKind Op = B->getOpcode();
  if ((Op == BO_LAnd && Truth) || (Op == BO_LOr && !Truth)) {
    implied(B->getLHS(), Truth, Out);
    implied(B->getRHS(), Truth, Out);
    return;
  }
  if (!B->isComparisonOp())
    return;
  const Expr *Bound = B->getRHS();
  IndexSide Side = indexSide(B->getLHS());
  if (Side.Dim < 0) {
    Side = indexSide(B->getRHS());
    Bound = B->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (Side.Dim < 0)
    return;
  if (!Truth)
    Op = BinaryOperator::negateComparisonOp(Op);
  if (Op != BO_LT && Op != BO_LE && Op != BO_EQ)
    return;
  // i + T < E: i < E - T; i - T < E: i < E + T; i <= E, i == E: E + 1.
  Level L;
  L.Dim = unsigned(Side.Dim);
  BoundTerm Plus, Minus, One;
  Plus.Op = BoundTerm::Add;
  Minus.Op = BoundTerm::Sub;
  One.Constant = 1;
  if (Op != BO_LT)
    L.Terms.push_back(Plus);
  if (Side.Offset)
    L.Terms.push_back(Side.Subtract ? Plus : Minus);
  if (!toTerms(Bound, L.Terms) ||
      (Side.Offset && !toTerms(Side.Offset, L.Terms)))
    return;
  if (Op != BO_LT)
    L.Terms.push_back(One);
  Out.push_back(std::move(L));
}

/// `i`, `i + T`, `T + i` or `i - T` with T computable by a call.
Analyser::IndexSide Analyser::indexSide(const Expr *E) {
  IndexSide S;
  if ((S.Dim = indexDim(E)) >= 0)
    return S;
  const auto *B = dyn_cast<BinaryOperator>(strip(E));
  if (!B || (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub))
    return S;
  llvm::SmallVector<BoundTerm, 4> Scratch;
  if (int D = indexDim(B->getLHS()); D >= 0 && toTerms(B->getRHS(), Scratch)) {
    S = {D, B->getRHS(), B->getOpcode() == BO_Sub};
  } else if (int D = indexDim(B->getRHS()); D >= 0 &&
                                            B->getOpcode() == BO_Add &&
                                            toTerms(B->getLHS(), Scratch)) {
    S = {D, B->getLHS(), false};
  }
  return S;
}

/// A comparison of an index with something a call can compute: it bounds
/// the index, it does not use it.
bool Analyser::isBoundCheck(const Expr *E) {
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || !B->isComparisonOp())
    return false;
  llvm::SmallVector<BoundTerm, 4> Scratch;
  return (indexSide(B->getLHS()).Dim >= 0 && toTerms(B->getRHS(), Scratch)) ||
         (indexSide(B->getRHS()).Dim >= 0 && toTerms(B->getLHS(), Scratch));
}

/// The thread indices `S` reads (bound checks aside); `First`: where.
unsigned Analyser::reads(const Stmt *S, SourceLocation *First) {
  struct Finder : RecursiveASTVisitor<Finder> {
    Analyser &A;
    unsigned Dims = 0;
    SourceLocation First;
    explicit Finder(Analyser &A) : A(A) {}
    void add(unsigned D, SourceLocation Loc) {
      if (D && !First.isValid())
        First = Loc;
      Dims |= D;
    }
    bool TraverseBinaryOperator(BinaryOperator *B) {
      if (A.isBoundCheck(B))
        return true;
      return RecursiveASTVisitor::TraverseBinaryOperator(B);
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (auto It = A.IndexVar.find(VD); VD && It != A.IndexVar.end())
        add(1u << It->second, DRE->getLocation());
      else if (auto It = A.Derived.find(VD); VD && It != A.Derived.end())
        add(It->second, DRE->getLocation());
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) {
      add(A.callDims(CE), CE->getBeginLoc());
      return true;
    }
  } F(*this);
  F.TraverseStmt(const_cast<Stmt *>(S));
  if (First)
    *First = F.First;
  return F.Dims;
}

/// Arithmetic that touches no memory and calls nothing but constexpr
/// functions: what names a derived index (`row = i / cols`).
bool Analyser::isPure(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Pure = true;
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *) { return Pure = false; }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->getOpcode() == UO_Deref || U->isIncrementDecrementOp())
        Pure = false;
      return Pure;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp())
        Pure = false;
      return Pure;
    }
    bool VisitMemberExpr(MemberExpr *M) {
      if (M->isArrow())
        Pure = false;
      return Pure;
    }
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *FD = CE->getDirectCallee();
      if (!FD || (!FD->isConstexpr() && indexFunction(FD) == IndexFn::None) ||
          isa<CXXOperatorCallExpr>(CE))
        Pure = false;
      return Pure;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Pure;
}

void Analyser::record(unsigned Dims, SourceLocation Loc) {
  for (unsigned D = 0; D < 3; ++D) {
    if (!(Dims & (1u << D)))
      continue;
    Read[D] = true;
    Chain C;
    for (const Level *L : Active)
      if (L->Dim == D)
        C.push_back(L);
    if (C.empty()) {
      if (!Unguarded[D].isValid())
        Unguarded[D] = Loc;
      continue;
    }
    Reads[D].push_back(std::move(C));
  }
}

void Analyser::use(const Stmt *S) {
  SourceLocation Loc;
  if (unsigned Dims = reads(S, &Loc))
    record(Dims, Loc);
}

/// Puts the bounds of `C` being `Truth` in force. A guard's or an exit's
/// check is itself a read of the index it bounds (`if (global_id() < n)
/// atomic_add(&h[0], 1)` wants n threads); a `&&`'s left side, in force
/// while its right side runs, is not (`Reads`).
void Analyser::push(const Expr *C, bool Truth, bool Reads) {
  llvm::SmallVector<Level, 2> New;
  implied(C, Truth, New);
  unsigned Dims = 0;
  for (Level &L : New) {
    Dims |= 1u << L.Dim;
    Levels.push_back(std::move(L));
    Active.push_back(&Levels.back());
  }
  if (Reads && Dims)
    record(Dims, C->getExprLoc());
}

/// The reads of a condition, each under what its left-hand operands imply:
/// `i < n && x[i] > 0` reads x[i] with i < n in force.
void Analyser::useCondition(const Expr *C) {
  const auto *B = dyn_cast<BinaryOperator>(C->IgnoreParens());
  if (!B || (B->getOpcode() != BO_LAnd && B->getOpcode() != BO_LOr)) {
    use(C);
    return;
  }
  size_t Mark = Active.size();
  useCondition(B->getLHS());
  push(B->getLHS(), B->getOpcode() == BO_LAnd, /*Reads=*/false);
  useCondition(B->getRHS());
  Active.resize(Mark);
}

void Analyser::declare(const VarDecl *VD) {
  const Expr *Init = VD->getInit();
  if (!Init)
    return;
  bool Local = VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
               VD->getType()->isIntegralOrEnumerationType();
  int D = sourceDim(Init);
  if (Local && D >= 0 && !Assigned.contains(VD)) {
    IndexVar[VD] = unsigned(D);
    return;
  }
  unsigned Dims = reads(Init);
  if (Dims && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
      isPure(Init)) {
    Derived[VD] = Dims;
    return;
  }
  use(Init);
}

bool Analyser::isExit(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    S = CS->size() == 1 ? CS->body_front() : nullptr;
  return S && (isa<ReturnStmt>(S) || isa<ContinueStmt>(S) || isa<BreakStmt>(S));
}

void Analyser::walk(const Stmt *S) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S)) {
    use(E);
    return;
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    size_t Mark = Active.size();
    for (const Stmt *Sub : CS->body()) {
      // A label is reached by a jump, past the exits above it.
      if (isa<SwitchCase>(Sub) || isa<LabelStmt>(Sub))
        Active.resize(Mark);
      walk(Sub);
    }
    Active.resize(Mark);
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        declare(VD);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    walk(If->getInit());
    if (const VarDecl *CV = If->getConditionVariable())
      declare(CV);
    const Expr *C = If->getCond();
    useCondition(C);
    if (!If->getElse() && isExit(If->getThen())) {
      push(C, false); // in force for the rest of the enclosing block
      return;
    }
    size_t Mark = Active.size();
    push(C, true);
    walk(If->getThen());
    Active.resize(Mark);
    if (const Stmt *Else = If->getElse()) {
      push(C, false);
      walk(Else);
      Active.resize(Mark);
    }
    if (isExit(If->getElse()))
      push(C, true);
    return;
  }
  if (const auto *For = dyn_cast<ForStmt>(S)) {
    size_t Mark = Active.size();
    walk(For->getInit());
    if (const Expr *C = For->getCond()) {
      useCondition(C);
      push(C, true);
    }
    walk(For->getBody());
    if (const Expr *Inc = For->getInc())
      use(Inc);
    Active.resize(Mark);
    return;
  }
  if (const auto *While = dyn_cast<WhileStmt>(S)) {
    if (const VarDecl *CV = While->getConditionVariable())
      declare(CV);
    size_t Mark = Active.size();
    useCondition(While->getCond());
    push(While->getCond(), true);
    walk(While->getBody());
    Active.resize(Mark);
    return;
  }
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) {
    walk(Range->getInit());
    use(Range->getRangeInit());
    walk(Range->getBody());
    return;
  }
  for (const Stmt *Sub : S->children())
    walk(Sub);
}

DimBound Analyser::result(unsigned D) {
  DimBound Out;
  if (!Read[D])
    return Out;
  if (Unguarded[D].isValid()) {
    Out.S = DimBound::Unknown;
    return Out;
  }
  // A read under a chain that extends another read's adds nothing: its
  // bound is at most the shorter chain's.
  llvm::SmallVector<const Chain *, 4> Kept;
  for (const Chain &C : Reads[D]) {
    bool Covered = false;
    for (const Chain &Other : Reads[D])
      if (&Other != &C && Other.size() <= C.size() &&
          std::equal(Other.begin(), Other.end(), C.begin()) &&
          (Other.size() < C.size() || &Other < &C))
        Covered = true;
    if (!Covered)
      Kept.push_back(&C);
  }
  // The same bound reached twice (two identical guards) counts once.
  llvm::SmallVector<llvm::SmallVector<BoundTerm, 8>, 4> Seen;
  llvm::erase_if(Kept, [&](const Chain *C) {
    llvm::SmallVector<BoundTerm, 8> Terms;
    for (const Level *L : *C)
      Terms.append(L->Terms.begin(), L->Terms.end());
    if (llvm::is_contained(Seen, Terms))
      return true;
    Seen.push_back(std::move(Terms));
    return false;
  });
  Out.S = DimBound::Bounded;
  BoundTerm MaxOp, MinOp;
  MaxOp.Op = BoundTerm::Max;
  MinOp.Op = BoundTerm::Min;
  for (size_t I = 0; I + 1 < Kept.size(); ++I)
    Out.Terms.push_back(MaxOp);
  for (const Chain *C : Kept) {
    for (size_t I = 0; I + 1 < C->size(); ++I)
      Out.Terms.push_back(MinOp);
    for (const Level *L : *C)
      Out.Terms.append(L->Terms.begin(), L->Terms.end());
  }
  return Out;
}

BoundAnalysis Analyser::run(const Stmt *Body) {
  // Which locals change after their initialisation: an index variable may
  // only grow (a grid-stride loop's `i += ...`), and a bound's local must
  // keep its value.
  struct Writes : RecursiveASTVisitor<Writes> {
    Analyser &A;
    explicit Writes(Analyser &A) : A(A) {}
    /// The variable `E` names, or whose field (`p.n`) it names.
    static const VarDecl *var(const Expr *E) {
      E = E->IgnoreParenImpCasts();
      while (const auto *M = dyn_cast<MemberExpr>(E))
        E = M->getBase()->IgnoreParenImpCasts();
      const auto *DRE = dyn_cast<DeclRefExpr>(E);
      return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    }
    bool VisitVarDecl(VarDecl *VD) {
      // A non-const reference to it may change it.
      QualType T = VD->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified() &&
          VD->getInit())
        if (const VarDecl *Target = var(VD->getInit()))
          A.Assigned.insert(Target);
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (const VarDecl *VD = B->isAssignmentOp() ? var(B->getLHS()) : nullptr)
        (B->getOpcode() == BO_AddAssign ? A.Incremented : A.Assigned)
            .insert(VD);
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (const VarDecl *VD = var(U->getSubExpr())) {
        if (U->isIncrementOp())
          A.Incremented.insert(VD);
        else if (U->isDecrementOp() || U->getOpcode() == UO_AddrOf)
          A.Assigned.insert(VD);
      }
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) {
      // Passed by non-const reference: it may change.
      const FunctionDecl *FD = CE->getDirectCallee();
      for (unsigned I = 0; FD && I < CE->getNumArgs() && I < FD->getNumParams();
           ++I) {
        QualType T = FD->getParamDecl(I)->getType();
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
          if (const VarDecl *VD = var(CE->getArg(I)))
            A.Assigned.insert(VD);
      }
      return true;
    }
  } W(*this);
  W.TraverseStmt(const_cast<Stmt *>(Body));
  walk(Body);
  BoundAnalysis Out;
  for (unsigned D = 0; D < 3; ++D) {
    Out.Bound.Dims[D] = result(D);
    Out.Unguarded[D] = Unguarded[D];
  }
  return Out;
}

} // namespace

std::optional<BoundAnalysis> analyseLaunchBound(const FunctionDecl &Kernel,
                                                ASTContext &Ctx) {
  const FunctionDecl *Def = Kernel.getDefinition();
  if (!Def || !Def->getBody())
    return std::nullopt;
  return Analyser(*Def, Ctx).run(Def->getBody());
}

bool checkDefaultShape(DiagnosticsEngine &Diags, const CallExpr &Call,
                       const FunctionDecl &Kernel, const BoundAnalysis &B) {
  for (unsigned D = 0; D < 3; ++D) {
    if (B.Bound.Dims[D].S != DimBound::Unknown)
      continue;
    report(Diags, Call.getExprLoc(), DiagId::LaunchNoBound) << &Kernel << D;
    report(Diags, B.Unguarded[D], DiagId::LaunchUnguardedIndexNote) << D;
    return false;
  }
  return true;
}

} // namespace offload
