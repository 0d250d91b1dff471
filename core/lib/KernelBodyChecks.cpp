//===- KernelBodyChecks.cpp - what a kernel body may not do --------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Kernel bodies. The device runs the kernel and every function it calls; the
// rules below reject what would otherwise fail later with a message about
// something else (a device link error naming a mangled symbol) or not at all:
//
//  * exceptions (throw, try): no unwinder on the device;
//  * RTTI (typeid, dynamic_cast): the type_info objects live in the host
//    C++ runtime;
//  * variable-length arrays: a kernel's stack frame must have a fixed size;
//  * calls to functions this translation unit declares but does not define:
//    the device image only has the functions compiled with it, so they fail
//    at device link even when another file defines them for the host. Not
//    counted: builtins, functions declared inside `#pragma omp declare
//    target` (a device definition is promised), the runtime's own `__ofld_*`
//    entry points, and everything declared in system headers: what the C and
//    C++ libraries provide is the target's business (printf, malloc and
//    `new` work on sm_90 and on the host offload target; abort or assert do
//    not on sm_90 without a device libc, which only the device link knows);
//  * non-constant global variables: the kernel would read a device copy the
//    host never updates, and for the current targets the device link fails.
//    constexpr variables, const ones with constant initialisers and
//    `declare target` ones are fine.
//
// The checks follow calls into the functions this translation unit defines
// (outside system headers), so a helper that throws is reported at the throw
// with notes for the calls that reach it. They run once the translation unit
// is complete: callees defined further down and template instantiations
// (errors then appear at the instantiated kernel, never for a template that is
// not launched).
//
//===----------------------------------------------------------------------===//

#include "offload/Core/KernelBodyChecks.h"
#include "offload/Core/Diagnostics.h"
#include "offload/Core/HostLibrary.h"
#include "offload/Core/KernelAttributes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <optional>
#include <utility>

using namespace clang;

namespace offload {
namespace {

/// Deep helper chains are checked only this far; past it the device link
/// still reports what is missing.
constexpr unsigned MaxCallDepth = 32;

/// Code of a declaration that runs where it is used: a default argument
/// (Kind 0) or a default member initialiser (Kind 1). Errors inside it are
/// reported where it is written, with a note at the use.
struct ImplicitUse {
  unsigned Kind;
  const NamedDecl *Decl; ///< the parameter or the field
  SourceLocation UseLoc;
};
using ImplicitUses = llvm::SmallVector<ImplicitUse, 1>;

/// A call found in a body, checked once the body is done.
struct PendingCall {
  const FunctionDecl *Callee;
  SourceLocation Loc;
  ImplicitUses Uses; ///< the defaults the call is inside of
};
using CallQueue = llvm::SmallVector<PendingCall, 8>;

/// One call on the way from the kernel to the function being checked.
struct CallStep {
  const FunctionDecl *Caller;
  const FunctionDecl *Callee;
  SourceLocation Loc;
  ImplicitUses Uses;
};

/// Whether any declaration of `D` is inside `#pragma omp declare target`.
bool isDeclareTarget(const Decl *D) {
  for (const Decl *R : D->redecls())
    if (R->hasAttr<OMPDeclareTargetDeclAttr>())
      return true;
  return false;
}

/// A variable whose value is fixed before the program runs: constexpr, or
/// const with a constant initialiser. The device gets its own copy of it.
bool isConstantVariable(const VarDecl *VD) {
  if (VD->isConstexpr())
    return true;
  const VarDecl *InitDecl = nullptr;
  if (!VD->getAnyInitializer(InitDecl) || !InitDecl)
    return false;
  return InitDecl->getType().isConstQualified() &&
         InitDecl->hasConstantInitialization();
}

/// The offload runtime's own headers (namespaces ofld and __ofld): trusted
/// like system headers; their device paths use statics in team memory.
bool isOffloadRuntime(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getParent()->getRedeclContext()->isTranslationUnit() &&
        NS->getIdentifier() &&
        (NS->getName() == "ofld" || NS->getName() == "__ofld"))
      return true;
  return false;
}

/// std::__throw_out_of_range and the other out-of-line throwers libstdc++'s
/// inline functions call.
bool isLibraryThrow(const FunctionDecl &FD) {
  const IdentifierInfo *II = FD.getIdentifier();
  return II && II->getName().starts_with("__throw_") && FD.isInStdNamespace();
}

/// Whether `T` is (through references, arrays and _Complex) long double.
bool isLongDouble(QualType T, ASTContext &Ctx) {
  if (T.isNull())
    return false;
  T = Ctx.getBaseElementType(T.getNonReferenceType());
  if (const auto *C = T->getAs<ComplexType>())
    T = C->getElementType();
  return T->isSpecificBuiltinType(BuiltinType::LongDouble);
}

class BodyChecker {
public:
  BodyChecker(ASTContext &Ctx, DiagnosticsEngine &Diags)
      : Ctx(Ctx), Diags(Diags), SM(Ctx.getSourceManager()) {}

  /// Checks one kernel definition and what it calls.
  void checkKernel(const FunctionDecl *Def) {
    Kernel = Def;
    Chain.clear();
    checkFunction(Def);
  }

  bool ok() const { return Ok; }
  /// Records `Kernel`'s class-type parameters hold (at any depth): their
  /// pointer and reference fields reach the device as bytes only.
  void addParameterRecords(const FunctionDecl &K) {
    for (const ParmVarDecl *P : K.parameters())
      addRecords(P->getType().getNonReferenceType(), 0);
  }
  /// A pointer or reference field of a parameter's class, read in device
  /// code: the device would follow a host address.
  void readField(const FieldDecl *F, SourceLocation Loc) {
    QualType T = F->getType();
    bool Ref = T->isReferenceType();
    if (!(Ref || (T->isPointerType() && !T->isFunctionPointerType())) ||
        !ParamRecords.contains(F->getParent()) || inLibrary())
      return;
    // A member of an anonymous struct or union is the enclosing class's.
    const RecordDecl *Owner = F->getParent();
    while (Owner->isAnonymousStructOrUnion())
      if (const auto *Outer = dyn_cast<RecordDecl>(Owner->getParent()))
        Owner = Outer;
      else
        break;
    report(Loc, DiagId::DeviceReadsHostAddressField)
        << F << Owner->getNameAsString() << (Ref ? 1 : 0);
    noteChain();
    offload::report(Diags, F->getLocation(), DiagId::FieldNote) << F;
  }
  llvm::ArrayRef<const VarDecl *> constants() const {
    return Constants.getArrayRef();
  }
  llvm::ArrayRef<const VarDecl *> foldedConstants() const {
    return Folded.getArrayRef();
  }

  // Used by the visitor.
  DiagnosticBuilder report(SourceLocation Loc, DiagId Id) {
    Ok = false;
    // Clang drops diagnostics inside system macros (`stdout`, `errno`,
    // `assert`): report where the macro is used.
    if (SM.isInSystemMacro(Loc))
      Loc = SM.getExpansionLoc(Loc);
    // In a library default argument (`std::string s = "..."` and its
    // allocator): where the user's code uses it.
    for (const ImplicitUse &U : Uses)
      if (isInSystemHeader(Loc) && !isInSystemHeader(U.UseLoc))
        Loc = U.UseLoc;
    return offload::report(Diags, Loc, Id) << Kernel;
  }
  /// The notes that lead from the kernel to what was just reported,
  /// innermost first, as clang prints instantiation stacks.
  void noteChain() { noteSteps(Chain, Uses); }
  void noteSteps(llvm::ArrayRef<CallStep> Steps, const ImplicitUses &Inner) {
    noteUses(Inner);
    for (const CallStep &S : llvm::reverse(Steps)) {
      // Calls between the library's own functions say nothing to the user.
      if (inSystemHeader(S.Caller))
        continue;
      offload::report(Diags, S.Loc, DiagId::BodyCalledFrom)
          << S.Callee << S.Caller;
      noteUses(S.Uses);
    }
  }
  void addRecords(QualType T, unsigned Depth) {
    if (Depth > 32)
      return;
    if (const ArrayType *AT = Ctx.getAsArrayType(T))
      return addRecords(AT->getElementType(), Depth + 1);
    const auto *RD = T->getAsCXXRecordDecl();
    if (!RD || !(RD = RD->getDefinition()) || RD->isInvalidDecl())
      return;
    if (RD->isInStdNamespace()) {
      // std::array's elements are the parameter's own.
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
          Spec && Spec->getName() == "array")
        addRecords(Spec->getTemplateArgs()[0].getAsType(), Depth + 1);
      return;
    }
    if (!ParamRecords.insert(RD).second)
      return;
    for (const CXXBaseSpecifier &B : RD->bases())
      addRecords(B.getType(), Depth + 1);
    for (const FieldDecl *F : RD->fields())
      addRecords(F->getType(), Depth + 1);
  }

  /// Whether the function being checked is the library's (a system header's
  /// inline function or template): only what it calls is looked at.
  bool inLibrary() const { return InLibrary; }
  void call(const FunctionDecl *Callee, SourceLocation Loc, CallQueue &Queue);
  /// A variable that device code names; only globals matter.
  void useGlobal(const VarDecl *VD, NonOdrUseReason NonOdr, SourceLocation Loc,
                 SourceRange Range);
  /// Long double, reported once per function.
  void useLongDouble(SourceLocation Loc) {
    if (LongDoubleSeen)
      return;
    LongDoubleSeen = true;
    report(Loc, DiagId::BodyLongDouble);
    noteChain();
  }
  bool inSystemHeader(const Decl *D) const {
    return isInSystemHeader(D->getLocation());
  }
  bool isInSystemHeader(SourceLocation L) const {
    return L.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(L));
  }
  ASTContext &context() { return Ctx; }
  /// A lambda whose body was checked where it is written; calls to it need
  /// no second look.
  void inlineLambda(const CXXRecordDecl *Closure) {
    InlineLambdas.insert(Closure);
  }
  /// Whether an I/O stream use was reported in this function already.
  bool repeatedIOStream(HostLibraryKind Kind) {
    if (Kind != HostLibraryKind::IOStream)
      return false;
    return std::exchange(IOStreamSeen, true);
  }
  void enterDefault(ImplicitUse U) { Uses.push_back(U); }
  void leaveDefault() { Uses.pop_back(); }
  const ImplicitUses &defaults() const { return Uses; }

private:
  void checkFunction(const FunctionDecl *Def);
  void reportLibrary(SourceLocation Loc, const FunctionDecl &Callee,
                     HostLibraryKind Kind);

public:
  /// A library function the kernel calls throws (or calls std::__throw_*).
  void libraryThrows();

private:
  void noteUses(llvm::ArrayRef<ImplicitUse> Us) {
    for (const ImplicitUse &U : llvm::reverse(Us))
      offload::report(Diags, U.UseLoc, DiagId::BodyDefaultUsedHere)
          << U.Kind << U.Decl;
  }

  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  SourceManager &SM;
  const FunctionDecl *Kernel = nullptr;
  llvm::SmallVector<CallStep, 8> Chain;
  /// The defaults being traversed in the current function.
  ImplicitUses Uses;
  llvm::DenseSet<const FunctionDecl *> Checked;
  llvm::DenseSet<const RecordDecl *> ParamRecords;
  llvm::DenseSet<const CXXRecordDecl *> InlineLambdas;
  llvm::SetVector<const VarDecl *> Constants;
  /// Constants whose value is folded into device code (not odr-used): no
  /// copy needed, but the addresses in their values are.
  llvm::SetVector<const VarDecl *> Folded;
  /// Checking a library function, reached through Chain[LibraryEntry].
  bool InLibrary = false;
  size_t LibraryEntry = 0;
  /// User call sites into the library already reported.
  llvm::DenseSet<SourceLocation> ReportedEntries;
  bool LongDoubleSeen = false;
  /// `std::cout << a << b` is four uses of the I/O streams; one error per
  /// function is enough.
  bool IOStreamSeen = false;
  bool Ok = true;
};

class BodyVisitor : public RecursiveASTVisitor<BodyVisitor> {
public:
  using Base = RecursiveASTVisitor<BodyVisitor>;

  BodyVisitor(BodyChecker &C, CallQueue &Calls) : C(C), Calls(Calls) {}

  // Unevaluated operands run nowhere.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc, bool = false) { return true; }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool TraverseRequiresExpr(RequiresExpr *) { return true; }
  bool TraverseConceptSpecializationExpr(ConceptSpecializationExpr *) {
    return true;
  }
  // Only the branch that exists at run time of `if constexpr`/`if consteval`.
  bool TraverseIfStmt(IfStmt *S) {
    if (S->isConstexpr() || S->isConsteval()) {
      if (std::optional<Stmt *> Taken = S->getNondiscardedCase(C.context()))
        return !*Taken || TraverseStmt(*Taken);
    }
    return Base::TraverseIfStmt(S);
  }
  // The operand of typeid is reported with it, not looked into.
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *E) {
    if (C.inLibrary())
      return true;
    C.report(E->getBeginLoc(), DiagId::BodyRTTI) << 0 << E->getSourceRange();
    C.noteChain();
    return true;
  }

  // Code the syntactic form leaves out but the device runs: the begin() and
  // end() calls of a range-for, the operator<=> behind a rewritten
  // comparison, defaults (below).
  bool shouldVisitImplicitCode() const { return true; }
  // Defaults run where they are used; errors in them get a note there.
  bool TraverseCXXDefaultArgExpr(CXXDefaultArgExpr *E) {
    C.enterDefault({0, E->getParam(), E->getUsedLocation()});
    bool R = TraverseStmt(E->getExpr());
    C.leaveDefault();
    return R;
  }
  bool TraverseCXXDefaultInitExpr(CXXDefaultInitExpr *E) {
    C.enterDefault({1, E->getField(), E->getUsedLocation()});
    bool R = TraverseStmt(E->getExpr());
    C.leaveDefault();
    return R;
  }
  // An initialiser list once, in its semantic form: that has the default
  // member initialisers an aggregate initialisation fills in.
  bool TraverseInitListExpr(InitListExpr *E) {
    InitListExpr *Semantic = E->isSemanticForm() ? E : E->getSemanticForm();
    return Base::TraverseSynOrSemInitListExpr(Semantic ? Semantic : E);
  }

  // Inside the library only calls matter (see BodyChecker::inLibrary), and
  // whether it throws.
  bool TraverseCXXThrowExpr(CXXThrowExpr *E) {
    if (!C.inLibrary())
      return Base::TraverseCXXThrowExpr(E);
    C.libraryThrows();
    return true;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *E) {
    C.report(E->getBeginLoc(), DiagId::BodyException)
        << 0 << E->getSourceRange();
    C.noteChain();
    return true;
  }
  bool VisitCXXTryStmt(CXXTryStmt *S) {
    if (C.inLibrary())
      return true;
    C.report(S->getBeginLoc(), DiagId::BodyException) << 1;
    C.noteChain();
    return true;
  }
  bool VisitCXXDynamicCastExpr(CXXDynamicCastExpr *E) {
    // An upcast is static; only a checked cast needs RTTI.
    if (E->getCastKind() != CK_Dynamic || C.inLibrary())
      return true;
    C.report(E->getBeginLoc(), DiagId::BodyRTTI) << 1 << E->getSourceRange();
    C.noteChain();
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (!C.inLibrary())
      checkVariable(VD);
    if (VD->hasLocalStorage())
      if (const auto *RD = VD->getType()->getAsCXXRecordDecl();
          RD && RD->hasDefinition())
        if (const CXXDestructorDecl *Dtor = RD->getDestructor()) {
          C.call(Dtor, VD->getLocation(), Calls);
          if (const CXXBindTemporaryExpr *T = boundTemporary(VD->getInit()))
            Elided.insert(T);
        }
    return true;
  }
  void checkVariable(VarDecl *VD) {
    if (VD->isLocalVarDecl() && VD->getType()->isVariablyModifiedType()) {
      C.report(VD->getLocation(), DiagId::BodyVLA) << VD;
      C.noteChain();
    }
    if (VD->isLocalVarDecl() && VD->getTLSKind() != VarDecl::TLS_None) {
      C.report(VD->getLocation(), DiagId::BodyThreadLocal) << 1 << VD;
      C.noteChain();
    } else if (VD->isStaticLocal() && !VD->hasAttr<OMPAllocateDeclAttr>() &&
               !isConstantVariable(VD)) {
      // Team memory (`#pragma omp allocate`) is per block by design.
      C.report(VD->getLocation(), DiagId::BodyStaticLocal)
          << VD << VD->getType().isConstQualified();
      C.noteChain();
    }
    if (isLongDouble(VD->getType(), C.context()))
      C.useLongDouble(VD->getLocation());
  }
  bool VisitExpr(Expr *E) {
    if (!C.inLibrary() && isLongDouble(E->getType(), C.context()))
      C.useLongDouble(E->getExprLoc());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    // A function whose address device code takes (a callback for
    // std::sort...) will be called there.
    if (const auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
        FD && !DirectCallees.contains(E))
      C.call(FD, E->getLocation(), Calls);
    if (const auto *VD = dyn_cast<VarDecl>(E->getDecl()); VD && !C.inLibrary())
      C.useGlobal(VD, E->isNonOdrUse(), E->getLocation(), E->getSourceRange());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (const auto *F = dyn_cast<FieldDecl>(E->getMemberDecl()))
      C.readField(F, E->getMemberLoc());
    // `object.static_member` names a global, too.
    if (const auto *VD = dyn_cast<VarDecl>(E->getMemberDecl());
        VD && !C.inLibrary())
      C.useGlobal(VD, E->isNonOdrUse(), E->getMemberLoc(), E->getSourceRange());
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    if (const FunctionDecl *F = E->getDirectCallee()) {
      // A library builtin the compiler folds (strlen("abc")) is no call.
      if (!F->getBuiltinID() || E->isValueDependent() ||
          !E->isEvaluatable(C.context()))
        C.call(F, E->getExprLoc(), Calls);
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(E->getCallee()->IgnoreParenImpCasts()))
        DirectCallees.insert(Ref);
    }
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *E) {
    C.inlineLambda(E->getLambdaClass());
    return Base::TraverseLambdaExpr(E);
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    C.call(E->getConstructor(), E->getLocation(), Calls);
    return true;
  }
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *E) {
    if (Elided.contains(E))
      return true;
    if (const CXXDestructorDecl *Dtor = E->getTemporary()->getDestructor())
      C.call(Dtor, E->getExprLoc(), Calls);
    return true;
  }
  // A temporary that becomes the returned object or a variable is not
  // destroyed there (the caller or the variable's scope does it).
  bool VisitReturnStmt(ReturnStmt *S) {
    if (const CXXBindTemporaryExpr *T = boundTemporary(S->getRetValue()))
      Elided.insert(T);
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *E) {
    if (const FunctionDecl *New = E->getOperatorNew())
      C.call(New, E->getBeginLoc(), Calls);
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    if (const FunctionDecl *Del = E->getOperatorDelete())
      C.call(Del, E->getBeginLoc(), Calls);
    QualType T = E->getDestroyedType();
    if (!T.isNull())
      if (const auto *RD = T->getAsCXXRecordDecl(); RD && RD->hasDefinition())
        if (const CXXDestructorDecl *Dtor = RD->getDestructor())
          C.call(Dtor, E->getBeginLoc(), Calls);
    return true;
  }

private:
  /// The temporary `E` is, through cleanups, parentheses and no-op casts.
  static const CXXBindTemporaryExpr *boundTemporary(const Expr *E) {
    while (E) {
      E = E->IgnoreParens();
      if (const auto *W = dyn_cast<ExprWithCleanups>(E))
        E = W->getSubExpr();
      else if (const auto *Cast = dyn_cast<CastExpr>(E);
               Cast && Cast->getCastKind() == CK_NoOp)
        E = Cast->getSubExpr();
      else
        return dyn_cast<CXXBindTemporaryExpr>(E);
    }
    return nullptr;
  }

  BodyChecker &C;
  CallQueue &Calls;
  llvm::DenseSet<const CXXBindTemporaryExpr *> Elided;
  /// The callees of calls already visited (pre-order: before the callee).
  llvm::DenseSet<const DeclRefExpr *> DirectCallees;
};

void BodyChecker::useGlobal(const VarDecl *VD, NonOdrUseReason NonOdr,
                            SourceLocation Loc, SourceRange Range) {
  // Locals, and statics declared in device code (judged at their
  // declaration).
  if (!VD->hasGlobalStorage() || VD->isStaticLocal())
    return;
  if (NonOdr != NOUR_None) {
    if (NonOdr == NOUR_Constant && isConstantVariable(VD))
      Folded.insert(VD);
    return;
  }
  if (VD->getTLSKind() != VarDecl::TLS_None) {
    report(Loc, DiagId::BodyThreadLocal) << 0 << VD << Range;
    noteChain();
    return;
  }
  // Before declare target: clang's wrappers for a GPU libc (which this
  // toolchain does not have) declare stdout and friends declare target.
  if (inSystemHeader(VD) && !isConstantVariable(VD))
    if (auto Kind = hostOnlyLibrary(*VD, /*HasDefinition=*/false, SM)) {
      if (repeatedIOStream(*Kind))
        return;
      report(Loc, DiagId::BodyHostLibrary)
          << 1 << VD->getQualifiedNameAsString() << static_cast<unsigned>(*Kind)
          << Range;
      noteChain();
      return;
    }
  if (isDeclareTarget(VD))
    return;
  if (isConstantVariable(VD)) {
    Constants.insert(VD);
    return;
  }
  report(Loc, DiagId::BodyHostVariable) << VD << Range;
  noteChain();
}

void BodyChecker::call(const FunctionDecl *Callee, SourceLocation Loc,
                       CallQueue &Queue) {
  if (!Callee || Callee->isDeleted())
    return;
  // offload() in a function a kernel calls: a launch from device code. The
  // call directly in a kernel (or in a lambda written there) is reported by
  // the call checks.
  if (const auto *Label = Callee->getAttr<AsmLabelAttr>();
      Label && Label->getLabel().starts_with("__ofld_launch")) {
    if (!Chain.empty()) {
      report(Loc, DiagId::CallNestedLaunch);
      noteChain();
    }
    return;
  }
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
      MD && MD->isPureVirtual())
    return;
  if (const IdentifierInfo *II = Callee->getIdentifier();
      II && II->getName().starts_with("__ofld"))
    return;
  // Trivial and implicit members, and the implicit global operator new and
  // delete, have no body to look for.
  bool NoBodyNeeded =
      Callee->isImplicit() || Callee->isTrivial() || Callee->isDefaulted();
  const FunctionDecl *Def = nullptr;
  bool HasBody = Callee->hasBody(Def);
  // Declare target or not (see useGlobal), the library is judged by name.
  if (inSystemHeader(HasBody ? Def : Callee)) {
    // What an `extern template` (std::string, the streams) instantiates
    // out of line exists only in the host's libstdc++.
    if (HasBody && !Def->isInlined() &&
        Def->getTemplateSpecializationKind() ==
            TSK_ExplicitInstantiationDeclaration)
      HasBody = false;
    // std::__throw_length_error and friends: the library's way to throw.
    if (InLibrary && isLibraryThrow(*Callee)) {
      libraryThrows();
      return;
    }
    if (HasBody || !NoBodyNeeded)
      if (auto Kind = hostOnlyLibrary(*Callee, HasBody, SM)) {
        if (!repeatedIOStream(*Kind))
          reportLibrary(Loc, *Callee, *Kind);
        return;
      }
    // The headers' inline functions: what they call must exist, too.
    if (HasBody && !isOffloadRuntime(Def))
      Queue.push_back({Def, Loc, Uses});
    return;
  }
  if (Callee->getBuiltinID())
    return;
  if (HasBody) {
    if (!isOffloadRuntime(Def))
      Queue.push_back({Def, Loc, Uses});
    return;
  }
  if (NoBodyNeeded || isDeclareTarget(Callee))
    return;
  report(Loc, DiagId::BodyHostFunction) << Callee;
  noteChain();
}

void BodyChecker::libraryThrows() {
  const CallStep &Entry = Chain[LibraryEntry];
  if (!ReportedEntries.insert(Entry.Loc).second)
    return;
  report(Entry.Loc, DiagId::BodyLibraryThrows)
      << Entry.Callee->getQualifiedNameAsString();
  noteSteps(llvm::ArrayRef(Chain).take_front(LibraryEntry), Entry.Uses);
}

void BodyChecker::reportLibrary(SourceLocation Loc, const FunctionDecl &Callee,
                                HostLibraryKind Kind) {
  std::string Name = Callee.getQualifiedNameAsString();
  if (!InLibrary) {
    report(Loc, DiagId::BodyHostLibrary)
        << 0 << Name << static_cast<unsigned>(Kind);
    noteChain();
    return;
  }
  // Inside the library: at the user's call into it, once per call site.
  const CallStep &Entry = Chain[LibraryEntry];
  if (!ReportedEntries.insert(Entry.Loc).second)
    return;
  report(Entry.Loc, DiagId::BodyLibraryNeedsHost)
      << Entry.Callee->getQualifiedNameAsString() << Name
      << static_cast<unsigned>(Kind);
  noteSteps(llvm::ArrayRef(Chain).take_front(LibraryEntry), Entry.Uses);
}

/// The destructors a destructor runs after its body: of the members, then
/// of the bases. They are not in the AST.
void implicitDestructors(const CXXDestructorDecl *Dtor,
                         llvm::SmallVectorImpl<const FunctionDecl *> &Out,
                         ASTContext &Ctx) {
  const CXXRecordDecl *RD = Dtor->getParent();
  auto Add = [&](QualType T) {
    if (const auto *Member = Ctx.getBaseElementType(T)->getAsCXXRecordDecl();
        Member && Member->hasDefinition())
      if (const CXXDestructorDecl *D = Member->getDestructor())
        Out.push_back(D);
  };
  for (const FieldDecl *F : RD->fields())
    Add(F->getType());
  for (const CXXBaseSpecifier &B : RD->bases())
    Add(B.getType());
  for (const CXXBaseSpecifier &B : RD->vbases())
    Add(B.getType());
}

void BodyChecker::checkFunction(const FunctionDecl *Def) {
  if (!Checked.insert(Def->getCanonicalDecl()).second || !Def->getBody())
    return;
  LongDoubleSeen = IOStreamSeen = false;
  InLibrary = inSystemHeader(Def);
  if (InLibrary)
    LibraryEntry = llvm::find_if(Chain,
                                 [&](const CallStep &S) {
                                   return inSystemHeader(S.Callee);
                                 }) -
                   Chain.begin();
  CallQueue Calls;
  BodyVisitor V(*this, Calls);
  for (const ParmVarDecl *P : Def->parameters())
    if (!InLibrary && isLongDouble(P->getType(), Ctx))
      useLongDouble(P->getLocation());
  V.TraverseStmt(Def->getBody());
  // Constructor initialisers are part of the body the device runs.
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() || Init->getInit())
        V.TraverseStmt(Init->getInit());
  if (const auto *Dtor = dyn_cast<CXXDestructorDecl>(Def)) {
    llvm::SmallVector<const FunctionDecl *, 4> Implicit;
    implicitDestructors(Dtor, Implicit, Ctx);
    for (const FunctionDecl *D : Implicit)
      call(D, Def->getLocation(), Calls);
  }
  if (Chain.size() >= MaxCallDepth)
    return;
  for (PendingCall &P : Calls) {
    if (const auto *MD = dyn_cast<CXXMethodDecl>(P.Callee);
        MD && InlineLambdas.contains(MD->getParent()))
      continue;
    Chain.push_back({Def, P.Callee, P.Loc, std::move(P.Uses)});
    checkFunction(P.Callee);
    Chain.pop_back();
  }
}

/// `Constants` and the constants named by their initialisers and those of
/// `Folded`, at any depth: `constexpr const float *p = table;` read in a
/// kernel (a copy of `p`, or its value folded in) points to the device copy
/// of `table`.
llvm::SmallVector<const VarDecl *, 8>
withInitialiserTargets(llvm::ArrayRef<const VarDecl *> Constants,
                       llvm::ArrayRef<const VarDecl *> Folded) {
  llvm::SetVector<const VarDecl *> All(Constants.begin(), Constants.end());
  llvm::SetVector<const VarDecl *> Walk(Folded.begin(), Folded.end());
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::SetVector<const VarDecl *> &All, &Walk;
    Finder(llvm::SetVector<const VarDecl *> &All,
           llvm::SetVector<const VarDecl *> &Walk)
        : All(All), Walk(Walk) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const auto *VD = dyn_cast<VarDecl>(E->getDecl());
      if (!VD || !VD->hasGlobalStorage() || VD->isStaticLocal() ||
          isDeclareTarget(VD) || !isConstantVariable(VD))
        return true;
      // A folded read copies no address; its value may hold some.
      if (E->isNonOdrUse() == NOUR_None)
        All.insert(VD);
      Walk.insert(VD);
      return true;
    }
  } F(All, Walk);
  Walk.insert(Constants.begin(), Constants.end());
  for (size_t I = 0; I < Walk.size(); ++I) {
    const VarDecl *InitDecl = nullptr;
    if (const Expr *Init = Walk[I]->getAnyInitializer(InitDecl))
      F.TraverseStmt(const_cast<Expr *>(Init));
  }
  return {All.begin(), All.end()};
}

} // namespace

KernelBodies analyseKernelBodies(ASTContext &Ctx, DiagnosticsEngine &Diags,
                                 llvm::ArrayRef<const FunctionDecl *> Kernels) {
  // Report in source order whatever order the kernels were found in.
  llvm::SmallVector<const FunctionDecl *, 16> Defs;
  for (const FunctionDecl *K : Kernels) {
    const FunctionDecl *Def = nullptr;
    if (K && K->hasBody(Def) && !Def->isDependentContext() &&
        !Def->isInvalidDecl())
      Defs.push_back(Def);
  }
  SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Defs, [&](const FunctionDecl *A, const FunctionDecl *B) {
    return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  });
  Defs.erase(std::unique(Defs.begin(), Defs.end()), Defs.end());
  BodyChecker Checker(Ctx, Diags);
  for (const FunctionDecl *Def : Defs)
    Checker.addParameterRecords(*Def);
  for (const FunctionDecl *Def : Defs)
    Checker.checkKernel(Def);
  KernelBodies Result;
  Result.Ok = Checker.ok();
  Result.Constants =
      withInitialiserTargets(Checker.constants(), Checker.foldedConstants());
  llvm::sort(Result.Constants, [&](const VarDecl *A, const VarDecl *B) {
    return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  });
  return Result;
}

} // namespace offload
