//===- CallShape.cpp - offload() calls clang could not resolve ------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/CallShape.h"
#include "offload/Core/Diagnostics.h"
#include "offload/Core/KernelAttributes.h"
#include "offload/Core/LaunchChecks.h"
#include "offload/Core/TransferRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Initialization.h"
#include "clang/Sema/Overload.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace offload {

//===----------------------------------------------------------------------===//
// The filter.
//===----------------------------------------------------------------------===//

namespace {

/// clang's error for a call to the header's offload() that no overload fits.
bool isUnresolvedOffload(const Diagnostic &Info) {
  if (Info.getID() != diag::err_ovl_no_viable_function_in_call ||
      Info.getNumArgs() < 1 ||
      Info.getArgKind(0) != DiagnosticsEngine::ak_declarationname)
    return false;
  DeclarationName Name =
      DeclarationName::getFromOpaqueInteger(Info.getRawArg(0));
  return Name.isIdentifier() &&
         Name.getAsIdentifierInfo()->getName() == "offload";
}

} // namespace

UnresolvedLaunchFilter::UnresolvedLaunchFilter(
    DiagnosticsEngine &Diags, DiagnosticConsumer *Inner,
    std::unique_ptr<DiagnosticConsumer> Owned, unsigned ErrorLimit)
    : Diags(Diags), Inner(Inner), Owned(std::move(Owned)),
      ErrorLimit(ErrorLimit) {}

UnresolvedLaunchFilter &
UnresolvedLaunchFilter::install(DiagnosticsEngine &Diags, unsigned ErrorLimit) {
  DiagnosticConsumer *Inner = Diags.getClient();
  std::unique_ptr<DiagnosticConsumer> Owned = Diags.takeClient();
  auto *F =
      new UnresolvedLaunchFilter(Diags, Inner, std::move(Owned), ErrorLimit);
  Diags.setClient(F, /*ShouldOwnClient=*/true);
  return *F;
}

void UnresolvedLaunchFilter::syncCounts() {
  // The compiler's exit status and "N errors generated" read the counts of
  // the engine's client: the wrapped client's (-verify resets its own).
  NumErrors = Inner->getNumErrors();
  NumWarnings = Inner->getNumWarnings();
}

void UnresolvedLaunchFilter::forward(DiagnosticsEngine::Level Level,
                                     const Diagnostic &Info) {
  Inner->HandleDiagnostic(Level, Info);
  syncCounts();
}

void UnresolvedLaunchFilter::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                              const Diagnostic &Info) {
  if (Level == DiagnosticsEngine::Note && Holding) {
    Held.back().emplace_back(Level, Info);
    return;
  }
  Holding = false;
  if (Level >= DiagnosticsEngine::Error && isUnresolvedOffload(Info)) {
    Held.emplace_back();
    Held.back().emplace_back(Level, Info);
    Holding = true;
    // The engine has counted it: -ferror-limit counts what the user sees,
    // which is this error if it is released, its replacement if not.
    if (ErrorLimit)
      Diags.setErrorLimit(++ErrorLimit);
    return;
  }
  forward(Level, Info);
}

/// The first held error at `Loc`.
template <class Groups> static auto findHeld(Groups &Held, SourceLocation Loc) {
  return llvm::find_if(Held, [&](const auto &Group) {
    return SourceLocation(Group.front().getLocation()) == Loc;
  });
}

bool UnresolvedLaunchFilter::holds(SourceLocation Loc) const {
  return findHeld(Held, Loc) != Held.end();
}

void UnresolvedLaunchFilter::drop(SourceLocation Loc, FileID Header) {
  auto It = findHeld(Held, Loc);
  if (It == Held.end())
    return;
  // The notes about the header's candidates go; those that say where a
  // template instantiation came from now follow the error that replaced it.
  for (const StoredDiagnostic &SD : llvm::drop_begin(*It)) {
    const FullSourceLoc &At = SD.getLocation();
    if (At.isValid() && At.getManager().getFileID(
                            At.getManager().getExpansionLoc(At)) == Header)
      continue;
    forwardStored(SD);
  }
  // Notes that come later no longer belong to it.
  if (std::next(It) == Held.end())
    Holding = false;
  Held.erase(It);
}

void UnresolvedLaunchFilter::forwardStored(const StoredDiagnostic &SD) {
  // As DiagnosticsEngine::Report(const StoredDiagnostic &) rebuilds one.
  DiagnosticStorage Storage;
  Storage.DiagRanges.append(SD.range_begin(), SD.range_end());
  Storage.FixItHints.append(SD.fixit_begin(), SD.fixit_end());
  Diagnostic Info(&Diags, SD.getLocation(), SD.getID(), Storage,
                  SD.getMessage());
  forward(SD.getLevel(), Info);
}

void UnresolvedLaunchFilter::release() {
  for (const auto &Group : Held) {
    for (const StoredDiagnostic &SD : Group)
      forwardStored(SD);
    if (ErrorLimit)
      Diags.setErrorLimit(--ErrorLimit);
  }
  Held.clear();
  Holding = false;
}

void UnresolvedLaunchFilter::clear() {
  DiagnosticConsumer::clear();
  Inner->clear();
}

void UnresolvedLaunchFilter::BeginSourceFile(const LangOptions &LO,
                                             const Preprocessor *PP) {
  Inner->BeginSourceFile(LO, PP);
}

void UnresolvedLaunchFilter::EndSourceFile() {
  release();
  Inner->EndSourceFile();
  syncCounts();
}

void UnresolvedLaunchFilter::finish() {
  release();
  Inner->finish();
  syncCounts();
}

bool UnresolvedLaunchFilter::IncludeInDiagnosticCounts() const {
  return Inner->IncludeInDiagnosticCounts();
}

//===----------------------------------------------------------------------===//
// What is wrong with the call.
//===----------------------------------------------------------------------===//

namespace {

/// offload() itself: the header's function templates of that name.
bool isOffloadEntry(const NamedDecl *D) {
  const auto *T = dyn_cast<FunctionTemplateDecl>(D->getUnderlyingDecl());
  return T && T->getDeclName().isIdentifier() && T->getName() == "offload" &&
         T->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

/// Whether `T` is ofld::launch, the first argument of a shaped launch.
bool isLaunchShape(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getDeclName().isIdentifier() || RD->getName() != "launch")
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  return NS && NS->getDeclName().isIdentifier() && NS->getName() == "ofld";
}

const FunctionDecl *asFunction(const NamedDecl *D) {
  D = D->getUnderlyingDecl();
  if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
    return T->getTemplatedDecl();
  return dyn_cast<FunctionDecl>(D);
}

/// The std::span specialisation a kernel template's span parameter would
/// take from a std::vector or std::array argument, so that a template
/// argument can be deduced from it as offload() converts it; `A` itself
/// otherwise.
QualType asDeductionArgument(Sema &S, QualType P, QualType A,
                             SourceLocation Loc) {
  const auto *Span =
      P.getNonReferenceType()->getAs<TemplateSpecializationType>();
  const auto *Container = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      A.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Span || !Container || !Container->isInStdNamespace() ||
      (Container->getName() != "vector" && Container->getName() != "array") ||
      Span->template_arguments().empty() ||
      Span->template_arguments()[0].getKind() != TemplateArgument::Type)
    return A;
  TemplateDecl *SpanTemplate = Span->getTemplateName().getAsTemplateDecl();
  if (!SpanTemplate || !SpanTemplate->isInStdNamespace() ||
      SpanTemplate->getName() != "span")
    return A;
  QualType Element = Container->getTemplateArgs()[0].getAsType();
  if (Span->template_arguments()[0].getAsType().isConstQualified())
    Element.addConst();
  ASTContext &Ctx = S.getASTContext();
  TemplateArgumentListInfo Args(Loc, Loc);
  Args.addArgument(TemplateArgumentLoc(
      TemplateArgument(Element), Ctx.getTrivialTypeSourceInfo(Element, Loc)));
  QualType Out = S.CheckTemplateIdType(ElaboratedTypeKeyword::None,
                                       TemplateName(SpanTemplate), Loc, Args,
                                       /*Scope=*/nullptr,
                                       /*ForNestedNameSpecifier=*/false);
  return Out.isNull() ? A : Out;
}

/// `<float>` where the launch's arguments decide the kernel template's
/// arguments as they would for a direct call (containers taken as the spans
/// offload() makes of them); `<T>` with the parameters' names otherwise.
std::pair<std::string, bool> templateArguments(Sema &S,
                                               const FunctionTemplateDecl &T,
                                               ArrayRef<const Expr *> Args,
                                               SourceLocation Loc) {
  ASTContext &Ctx = S.getASTContext();
  const FunctionDecl *Pattern = T.getTemplatedDecl();
  if (Args.size() == Pattern->getNumParams()) {
    llvm::SmallVector<Expr *, 8> CallArgs;
    for (auto [I, A] : llvm::enumerate(Args)) {
      QualType Ty = asDeductionArgument(S, Pattern->getParamDecl(I)->getType(),
                                        A->getType(), Loc);
      CallArgs.push_back(Ty == A->getType()
                             ? const_cast<Expr *>(A)
                             : new (Ctx) OpaqueValueExpr(Loc, Ty, VK_LValue));
    }
    OverloadCandidateSet Candidates(Loc, OverloadCandidateSet::CSK_Normal);
    auto *Template = const_cast<FunctionTemplateDecl *>(&T);
    S.AddTemplateOverloadCandidate(
        Template, DeclAccessPair::make(Template, Template->getAccess()),
        /*ExplicitTemplateArgs=*/nullptr, CallArgs, Candidates);
    OverloadCandidateSet::iterator Best;
    if (Candidates.BestViableFunction(S, Loc, Best) == OR_Success &&
        Best->Function) {
      std::string Out;
      llvm::raw_string_ostream OS(Out);
      printTemplateArgumentList(
          OS, Best->Function->getTemplateSpecializationArgs()->asArray(),
          Ctx.getPrintingPolicy());
      return {Out, false};
    }
  }
  std::string Out = "<";
  for (auto [I, P] : llvm::enumerate(*T.getTemplateParameters()))
    Out += (I ? ", " : "") +
           (P->getIdentifier() ? P->getName().str() : std::string("..."));
  return {Out + ">", true};
}

/// The kernel's name as the call spells it (`ns::k`), for a suggestion.
std::string spelling(Sema &S, const OverloadExpr &Set) {
  StringRef Text =
      Lexer::getSourceText(CharSourceRange::getTokenRange(Set.getSourceRange()),
                           S.getSourceManager(), S.getLangOpts());
  return Text.empty() ? Set.getName().getAsString() : Text.str();
}

/// The overload a direct call with the launch's arguments would choose, or
/// the first kernel of the set.
const FunctionDecl *likelyOverload(Sema &S, const OverloadExpr &Set,
                                   ArrayRef<const Expr *> Args,
                                   SourceLocation Loc) {
  if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(&Set)) {
    OverloadCandidateSet Candidates(Loc, OverloadCandidateSet::CSK_Normal);
    llvm::SmallVector<Expr *, 8> CallArgs;
    for (const Expr *A : Args)
      CallArgs.push_back(const_cast<Expr *>(A));
    S.AddOverloadedCallCandidates(const_cast<UnresolvedLookupExpr *>(ULE),
                                  CallArgs, Candidates);
    OverloadCandidateSet::iterator Best;
    if (Candidates.BestViableFunction(S, Loc, Best) == OR_Success &&
        Best->Function && isKernel(*Best->Function))
      return Best->Function;
  }
  for (const NamedDecl *D : Set.decls())
    if (const FunctionDecl *FD = asFunction(D); FD && isKernel(*FD))
      return FD;
  return nullptr;
}

/// The call's arguments against a kernel known by name: count, then types.
bool diagnoseArguments(Sema &S, const FunctionDecl &K,
                       ArrayRef<const Expr *> Args, const RecoveryExpr &RE) {
  DiagnosticsEngine &Diags = S.getDiagnostics();
  ASTContext &Ctx = S.getASTContext();
  unsigned N = K.getNumParams();
  if (Args.size() < N) {
    report(Diags, RE.getEndLoc(), DiagId::CallTooFewArguments)
        << &K << N << unsigned(Args.size());
    const ParmVarDecl *Missing = K.getParamDecl(Args.size());
    if (Missing->hasDefaultArg())
      report(Diags, Missing->getLocation(), DiagId::CallDefaultArgumentNote)
          << Missing << &K;
    return true;
  }
  if (Args.size() > N) {
    report(Diags, Args[N]->getExprLoc(), DiagId::CallTooManyArguments)
        << &K << N;
    return true;
  }
  for (auto [I, A] : llvm::enumerate(Args)) {
    const ParmVarDecl *P = K.getParamDecl(I);
    // offload() takes each argument as `const P &`: a reference P's own
    // type once references collapse, P taken by const reference otherwise.
    // A reduction's argument is its variable, a `T &` (reduction.hpp).
    QualType T = P->getType();
    QualType Variable = reductionVariableType(T);
    QualType Target = !Variable.isNull()
                          ? Ctx.getLValueReferenceType(Variable)
                          : Ctx.getLValueReferenceType(
                                T->isReferenceType() ? T.getNonReferenceType()
                                                     : T.withConst());
    InitializedEntity Entity =
        InitializedEntity::InitializeParameter(Ctx, Target, false);
    if (A->getType()->isDependentType() ||
        S.CanPerformCopyInitialization(Entity, const_cast<Expr *>(A)))
      continue;
    report(Diags, A->getExprLoc(), DiagId::CallArgumentType)
        << unsigned(I + 1) << &K << A->getType()
        << (Variable.isNull() ? T : Target) << A->getSourceRange();
    return true;
  }
  return false;
}

/// Reports what is wrong with an offload() call clang rejected; false if
/// there is nothing to add to clang's own words.
bool diagnose(Sema &S, const RecoveryExpr &RE) {
  ArrayRef<Expr *> Sub = const_cast<RecoveryExpr &>(RE).subExpressions();
  if (Sub.empty())
    return false;
  const auto *Callee = dyn_cast<UnresolvedLookupExpr>(Sub[0]);
  if (!Callee || Callee->hasExplicitTemplateArgs() ||
      !llvm::any_of(Callee->decls(), isOffloadEntry))
    return false;
  ArrayRef<Expr *> Args = Sub.drop_front();
  unsigned KernelArg = !Args.empty() && isLaunchShape(Args[0]->getType());
  if (Args.size() <= KernelArg)
    return false;
  const Expr *KernelExpr = Args[KernelArg]->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(KernelExpr);
      UO && UO->getOpcode() == UO_AddrOf)
    KernelExpr = UO->getSubExpr()->IgnoreParens();
  llvm::SmallVector<const Expr *, 8> KernelArgs(Args.drop_front(KernelArg + 1));
  if (llvm::any_of(KernelArgs,
                   [](const Expr *A) { return A->containsErrors(); }))
    return false;
  DiagnosticsEngine &Diags = S.getDiagnostics();
  SourceLocation Loc = KernelExpr->getExprLoc();
  if (isa<LambdaExpr>(KernelExpr->IgnoreImplicit())) {
    report(Diags, Loc, DiagId::CallLambdaKernel)
        << KernelExpr->getSourceRange();
    return true;
  }

  const FunctionDecl *K = nullptr;
  if (const DeclRefExpr *Ref = kernelReference(*KernelExpr))
    K = dyn_cast<FunctionDecl>(Ref->getDecl());
  else if (const auto *Set = dyn_cast<OverloadExpr>(KernelExpr)) {
    // `k<float>` of a template named with arguments resolves to one.
    if (Set->hasExplicitTemplateArgs())
      K = S.ResolveSingleFunctionTemplateSpecialization(
          const_cast<OverloadExpr *>(Set));
    if (!K) {
      llvm::SmallVector<const NamedDecl *, 4> Kernels;
      for (const NamedDecl *D : Set->decls())
        if (const FunctionDecl *FD = asFunction(D); FD && isKernel(*FD))
          Kernels.push_back(D->getUnderlyingDecl());
      if (Kernels.empty())
        return false;
      const auto *Template = dyn_cast<FunctionTemplateDecl>(Kernels[0]);
      if (Kernels.size() == 1 && Template && !Set->hasExplicitTemplateArgs()) {
        auto [Arguments, Generic] =
            templateArguments(S, *Template, KernelArgs, Loc);
        report(Diags, Loc, DiagId::CallTemplateKernelNoArguments)
            << Template << spelling(S, *Set) + Arguments << Generic
            << KernelExpr->getSourceRange();
        return true;
      }
      if (Kernels.size() == 1)
        return false;
      const FunctionDecl *Pick = likelyOverload(S, *Set, KernelArgs, Loc);
      std::string Type =
          S.getASTContext()
              .getPointerType(Pick->getType())
              .getAsString(S.getASTContext().getPrintingPolicy());
      report(Diags, Loc, DiagId::CallOverloadedKernel)
          << Set->getName() << unsigned(Kernels.size()) << Type
          << spelling(S, *Set) << KernelExpr->getSourceRange();
      llvm::sort(Kernels, [&](const NamedDecl *A, const NamedDecl *B) {
        return S.getSourceManager().isBeforeInTranslationUnit(A->getLocation(),
                                                              B->getLocation());
      });
      for (const NamedDecl *D : Kernels)
        report(Diags, D->getLocation(), DiagId::CallKernelCandidate)
            << D << asFunction(D)->getType();
      return true;
    }
  }
  if (!K)
    return false;
  if (!isKernel(*K)) {
    report(Diags, Loc, DiagId::CallNotAKernel)
        << K << KernelExpr->getSourceRange();
    return true;
  }
  return diagnoseArguments(S, *K, KernelArgs, RE);
}

} // namespace

void diagnoseUnresolvedLaunch(Sema &S, UnresolvedLaunchFilter &Filter,
                              const RecoveryExpr &RE) {
  // Only where clang's error is held, so that the call gets one error
  // however often it is visited (a template and its instantiations).
  SourceLocation Loc = RE.getBeginLoc();
  if (!Filter.holds(Loc) || !diagnose(S, RE))
    return;
  // diagnose() has checked that the callee is the header's offload().
  const auto *Callee = cast<UnresolvedLookupExpr>(
      const_cast<RecoveryExpr &>(RE).subExpressions()[0]);
  SourceManager &SM = S.getSourceManager();
  Filter.drop(Loc, SM.getFileID(SM.getExpansionLoc(
                       (*Callee->decls_begin())->getLocation())));
}

} // namespace offload
