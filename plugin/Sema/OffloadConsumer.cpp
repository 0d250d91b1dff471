//===- OffloadConsumer.cpp - kernel and offload() call checking -----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "OffloadConsumer.h"
#include "DeviceConstants.h"
#include "LoopScopes.h"
#include "offload/Core/BoundAnalysis.h"
#include "offload/Core/CallShape.h"
#include "offload/Core/CallWalker.h"
#include "offload/Core/KernelAttributes.h"
#include "offload/Core/KernelBodyChecks.h"
#include "offload/Core/KernelDescriptor.h"
#include "offload/Core/LaunchChecks.h"
#include "offload/Core/LaunchGroups.h"
#include "offload/Core/LoopResidency.h"
#include "offload/Core/RegionConstness.h"
#include "offload/Core/TransferRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/TemplateDeduction.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace offload {
namespace {

class OffloadConsumer final : public SemaConsumer, private CallWalker {
public:
  OffloadConsumer(CompilerInstance &CI, const ConsumerOptions &Options)
      : CallWalker(CI.getASTContext(), CI.getDiagnostics(),
                   /*VisitInstantiations=*/false),
        CI(CI), Options(Options),
        Unresolved(UnresolvedLaunchFilter::install(
            CI.getDiagnostics(), CI.getDiagnosticOpts().ErrorLimit)) {}

  void InitializeSema(Sema &S) override { SemaRef = &S; }
  void ForgetSema() override { SemaRef = nullptr; }

  /// Sema hands over each declaration, and each instantiation, as it is
  /// complete: the walk follows it.
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      walk(D);
    return true;
  }
  /// Kernel bodies are checked once callees defined further down and
  /// template instantiations exist.
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // Every declaration has been visited: clang's errors that no call
    // replaced go out now (not per declaration: Sema hands instantiations
    // over while it still parses the declaration that needs them).
    Unresolved.release();
    KernelBodies Bodies =
        analyseKernelBodies(Ctx, CI.getDiagnostics(), checkedKernels());
    copyConstantsToDevice(Ctx, Bodies.Constants);
    checkDefaultShapes(Ctx);
    if (!isGPU() && !CI.getLangOpts().OpenMPIsTargetDevice)
      describeRegionFields(Ctx);
  }

private:
  void kernelFound(FunctionDecl &FD) override;
  void functionFound(FunctionDecl &FD) override;
  void blockFound(CompoundStmt &CS) override;
  void callFound(CallExpr &CE, FunctionDecl *Enclosing, CallKind Kind) override;
  void unresolvedFound(RecoveryExpr &RE) override {
    if (SemaRef)
      diagnoseUnresolvedLaunch(*SemaRef, Unresolved, RE);
  }
  void beforeKernelCheck(const FunctionDecl &K) override {
    completeParameterTypes(K);
  }
  bool kernelChecked(const FunctionDecl &K, KernelFacts &Facts) override;

  void checkDefaultShapes(ASTContext &Ctx);
  void describeRegionFields(ASTContext &Ctx);
  void planLoops(FunctionDecl &FD);
  /// A checked offload() call: its kernel, descriptor and first argument.
  std::optional<LaunchInfo> checkedLaunch(const CallExpr &CE);
  void remarkLoop(const ResidentLoop &R);
  void completeParameterTypes(const FunctionDecl &FD);
  void prepareDefinition(FunctionDecl *FD, const KernelFacts &Facts);
  FunctionDecl *instantiateThunk(llvm::StringRef Name, const FunctionDecl &K);
  std::string mangle(const FunctionDecl *FD);
  bool isGPU() const {
    const llvm::Triple &T = CI.getTarget().getTriple();
    return T.isNVPTX() || T.isAMDGPU();
  }

  CompilerInstance &CI;
  ConsumerOptions Options;
  /// Holds clang's error for an offload() call it could not resolve until
  /// the walk reaches the call (CallShape.h).
  UnresolvedLaunchFilter &Unresolved;
  Sema *SemaRef = nullptr;
  /// The annotation CodeGen reads, per kernel (first declaration) whose
  /// definition has its attributes for CodeGen.
  llvm::DenseMap<const FunctionDecl *, std::string> Notes;
  std::unique_ptr<MangleContext> Mangler;
  /// Calls that join a launch group (LaunchGroups.h), found per block
  /// before the walk reaches the calls.
  llvm::DenseMap<const CallExpr *, LaunchGroup> Groups;
  unsigned NextGroupId = 1;
  /// Launches in loops that keep some of their ranges on the device
  /// (LoopResidency.h), found per function before the walk reaches them.
  llvm::DenseMap<const CallExpr *, llvm::SmallVector<LoopHoldSite, 2>>
      LoopHolds;
  unsigned NextLoopId = 1;
  /// Launches already warned about writing a region's read-only range.
  llvm::SmallPtrSet<const CallExpr *, 4> ConstWarned;
  /// Launches that leave the grid to their kernel's bounds check, checked
  /// once every kernel body (and instantiation) exists.
  llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 8>
      DefaultShapes;
};

} // namespace

void OffloadConsumer::functionFound(FunctionDecl &FD) {
  checkOutParams(FD, CI.getDiagnostics());
  if (FD.isDependentContext() || !FD.hasBody() ||
      !FD.doesThisDeclarationHaveABody() ||
      CI.getLangOpts().OpenMPIsTargetDevice)
    return;
  checkRegionConstness(
      *FD.getBody(), CI.getASTContext(), CI.getDiagnostics(),
      [&](const CallExpr &CE) { return checkedLaunch(CE); }, ConstWarned);
  if (Options.LoopResidency && !isGPU() && SemaRef)
    planLoops(FD);
}

std::optional<LaunchInfo> OffloadConsumer::checkedLaunch(const CallExpr &CE) {
  std::optional<LaunchedKernel> L = launchedKernel(CE);
  if (!L)
    return std::nullopt;
  const KernelFacts *Facts = kernel(*L->Kernel);
  if (!Facts)
    return std::nullopt;
  return LaunchInfo{L->Kernel, &Facts->Desc, L->FirstArg};
}

/// Finds the loops of `FD` whose launches keep data on the device, gives
/// each a scope (LoopScopes.h) and notes, per launch, what it asks the
/// scopes to hold.
void OffloadConsumer::planLoops(FunctionDecl &FD) {
  auto LaunchOf = [&](const CallExpr &CE) -> std::optional<LoopLaunchInfo> {
    if (CE.isTypeDependent() || CE.isValueDependent())
      return std::nullopt;
    std::optional<LaunchInfo> L = checkedLaunch(CE);
    if (!L)
      return std::nullopt;
    return LoopLaunchInfo{L->Desc, L->FirstArg};
  };
  std::vector<ResidentLoop> Loops = findResidentLoops(
      *FD.getBody(), CI.getASTContext(), LaunchOf, NextLoopId);
  SourceManager &SM = CI.getASTContext().getSourceManager();
  auto Contains = [&](const Stmt *Outer, const Stmt *Inner) {
    return Outer != Inner &&
           !SM.isBeforeInTranslationUnit(Inner->getBeginLoc(),
                                         Outer->getBeginLoc()) &&
           !SM.isBeforeInTranslationUnit(Outer->getEndLoc(),
                                         Inner->getEndLoc());
  };
  // Scopes are made first: a loop whose scope cannot be made holds nothing.
  llvm::SmallPtrSet<const Stmt *, 4> Scoped;
  for (const ResidentLoop &R : Loops)
    if (R.Id && wrapLoopInScope(*SemaRef, FD, *R.Loop, R.Watch))
      Scoped.insert(R.Loop);
  for (ResidentLoop &R : Loops) {
    if (!Scoped.count(R.Loop))
      for (LoopVariable &V : R.Vars)
        V.Held = false;
    remarkLoop(R);
  }
  for (const ResidentLoop &R : Loops) {
    if (!Scoped.count(R.Loop))
      continue;
    for (const CallExpr *CE : R.Launches) {
      std::optional<LoopLaunchInfo> L = LaunchOf(*CE);
      for (const LaunchHold &H : holdsOf(Loops, *CE, *L)) {
        if (H.LoopId != R.Id)
          continue;
        // The scopes of this function between the launch and this loop.
        unsigned Depth = 0;
        for (const ResidentLoop &Inner : Loops)
          Depth += Scoped.count(Inner.Loop) && Contains(R.Loop, Inner.Loop) &&
                   llvm::is_contained(Inner.Launches, CE);
        LoopHolds[CE].push_back({H.Param, Depth, H.Map});
      }
    }
  }
}

/// -Rpass=offload: what each loop keeps on the device; -Rpass-missed=offload:
/// for each variable still copied on every trip, the use that forbids it.
void OffloadConsumer::remarkLoop(const ResidentLoop &R) {
  const CodeGenOptions &CG = CI.getCodeGenOpts();
  DiagnosticsEngine &D = CI.getDiagnostics();
  SourceManager &SM = CI.getASTContext().getSourceManager();
  auto Where = [&](SourceLocation L) {
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
    return P.isValid() ? (llvm::sys::path::filename(P.getFilename()) + ":" +
                          llvm::Twine(P.getLine()))
                             .str()
                       : std::string("?");
  };
  if (CG.OptimizationRemark.patternMatches("offload")) {
    std::string Names;
    unsigned N = 0, Count = 0;
    for (const LoopVariable &V : R.Vars)
      Count += V.Held;
    for (const LoopVariable &V : R.Vars) {
      if (!V.Held)
        continue;
      if (N++)
        Names += N == Count ? " and " : ", ";
      Names += "'" + V.name() + "'";
    }
    if (Count && !R.Launches.empty())
      D.Report(R.Launches.front()->getBeginLoc(),
               D.getCustomDiagID(DiagnosticsEngine::Remark,
                                 "%0 stay%1 on the device for the loop at %2 "
                                 "[-Rpass=offload]"))
          << Names << (Count == 1 ? "s" : "") << Where(R.Loop->getBeginLoc());
  }
  if (CG.OptimizationRemarkMissed.patternMatches("offload"))
    for (const LoopVariable &V : R.Vars)
      if (!V.Held)
        D.Report(V.Why == ResidencyBlock::Escaped ? V.Use2 : V.Use,
                 D.getCustomDiagID(DiagnosticsEngine::Remark,
                                   "%0: '%1' is copied on every trip of the "
                                   "loop at %2 [-Rpass-missed=offload]"))
            << describeBlock(V) << V.name() << Where(R.Loop->getBeginLoc());
}

void OffloadConsumer::kernelFound(FunctionDecl &FD) {
  checkOutParams(FD, CI.getDiagnostics());
  if (FD.isDependentContext())
    return;
  const KernelFacts *Facts = kernel(FD, FD.doesThisDeclarationHaveABody());
  if (Facts && FD.doesThisDeclarationHaveABody())
    prepareDefinition(&FD, *Facts);
  else if (auto It = Notes.find(FD.getCanonicalDecl()); It != Notes.end())
    // A redeclaration after the definition.
    FD.addAttr(AnnotateAttr::CreateImplicit(CI.getASTContext(), It->second,
                                            nullptr, 0));
}

std::string OffloadConsumer::mangle(const FunctionDecl *FD) {
  if (!Mangler)
    Mangler.reset(FD->getASTContext().createMangleContext());
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  if (Mangler->shouldMangleDeclName(FD))
    Mangler->mangleName(GlobalDecl(FD), OS);
  else
    OS << FD->getName();
  return Name;
}

/// Instantiates the class template specialisations a kernel's parameters
/// name (the span, its element type, the referenced object), as a definition
/// or a call would; a declaration alone does not.
void OffloadConsumer::completeParameterTypes(const FunctionDecl &FD) {
  if (!SemaRef)
    return;
  ASTContext &Ctx = CI.getASTContext();
  for (const ParmVarDecl *P : FD.parameters()) {
    QualType T = Ctx.getBaseElementType(P->getType().getNonReferenceType());
    if (T->isDependentType() || T->isFunctionType() || T->isVoidType())
      continue;
    if (!SemaRef->isCompleteType(P->getLocation(), T))
      continue;
    if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            T->getAsCXXRecordDecl());
        Spec && Spec->isInStdNamespace() && Spec->getName() == "span" &&
        Spec->getTemplateArgs().size() > 0 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
      QualType E = Ctx.getBaseElementType(
          Spec->getTemplateArgs()[0].getAsType().getNonReferenceType());
      if (!E->isDependentType() && !E->isVoidType() && !E->isFunctionType())
        SemaRef->isCompleteType(P->getLocation(), E);
    }
  }
}

// Thunks let clang, not us, apply each target's calling convention when
// the kernel is finally called with its parameter objects.
bool OffloadConsumer::kernelChecked(const FunctionDecl &K, KernelFacts &Facts) {
  KernelDescriptor &Desc = Facts.Desc;
  if (FunctionDecl *Invoke = instantiateThunk("invoke", K))
    Desc.InvokeThunk = mangle(Invoke);
  if (!isGPU())
    if (FunctionDecl *Cpu = instantiateThunk("cpu_grid", K))
      Desc.CpuThunk = mangle(Cpu);
  return !Desc.InvokeThunk.empty() && (isGPU() || !Desc.CpuThunk.empty());
}

FunctionDecl *OffloadConsumer::instantiateThunk(llvm::StringRef Name,
                                                const FunctionDecl &K) {
  if (!SemaRef)
    return nullptr;
  ASTContext &Ctx = CI.getASTContext();
  auto NS = Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get("__ofld"));
  auto *Namespace = NS.empty() ? nullptr : dyn_cast<NamespaceDecl>(NS.front());
  if (!Namespace)
    return nullptr;
  auto Found = Namespace->lookup(&Ctx.Idents.get(Name));
  auto *Template =
      Found.empty() ? nullptr : dyn_cast<FunctionTemplateDecl>(Found.front());
  if (!Template)
    return nullptr;

  // Deduce from explicit arguments, as `&__ofld::invoke<P...>` would: that
  // path registers the specialisation, so the header's own uses share it.
  SourceLocation Loc = K.getLocation();
  TemplateArgumentListInfo Explicit(Loc, Loc);
  for (QualType T : K.getType()->castAs<FunctionProtoType>()->getParamTypes())
    Explicit.addArgument(TemplateArgumentLoc(
        TemplateArgument(T), Ctx.getTrivialTypeSourceInfo(T, Loc)));
  FunctionDecl *Spec = nullptr;
  sema::TemplateDeductionInfo Info(Loc);
  if (SemaRef->DeduceTemplateArguments(Template, &Explicit, QualType(), Spec,
                                       Info, /*IsAddressOfFunction=*/true) !=
          TemplateDeductionResult::Success ||
      !Spec)
    return nullptr;
  if (!Spec->hasAttr<UsedAttr>())
    Spec->addAttr(UsedAttr::CreateImplicit(Ctx));
  SemaRef->MarkFunctionReferenced(Loc, Spec);
  return Spec;
}

void OffloadConsumer::prepareDefinition(FunctionDecl *FD,
                                        const KernelFacts &Facts) {
  if (FD->hasAttr<OMPDeclareTargetDeclAttr>() &&
      Notes.count(FD->getCanonicalDecl()))
    return;
  ASTContext &Ctx = CI.getASTContext();
  // Device compiles emit only declare-target functions; `used` keeps
  // template specialisations that only the generated entry will call.
  if (!FD->hasAttr<OMPDeclareTargetDeclAttr>())
    FD->addAttr(OMPDeclareTargetDeclAttr::CreateImplicit(
        Ctx, OMPDeclareTargetDeclAttr::MT_To, OMPDeclareTargetDeclAttr::DT_Any,
        /*IndirectExpr=*/nullptr, /*Indirect=*/false, /*Level=*/0,
        FD->getSourceRange()));
  if (!FD->hasAttr<UsedAttr>())
    FD->addAttr(UsedAttr::CreateImplicit(Ctx));
  // The definition's annotation carries the bound its extent function
  // computes (LaunchExtent.h); the descriptors of calls do not need it.
  KernelDescriptor Annotated = Facts.Desc;
  if (std::optional<BoundAnalysis> B = analyseLaunchBound(*FD, Ctx))
    Annotated.Bound = B->Bound;
  std::string Note = (KernelAnnotationPrefix + encodeKernel(Annotated)).str();
  // On every declaration: clang emits a function's annotations from its
  // latest declaration at the end of the translation unit when a launch
  // written above the definition used it first.
  for (FunctionDecl *R : FD->redecls())
    R->addAttr(AnnotateAttr::CreateImplicit(Ctx, Note, nullptr, 0));
  Notes[FD->getCanonicalDecl()] = std::move(Note);
}

void OffloadConsumer::callFound(CallExpr &Found, FunctionDecl *Enclosing,
                                CallKind) {
  CallExpr *CE = &Found;
  LaunchForm Form = launchFormOf(CE->getDirectCallee());
  if (Form == LaunchForm::None || CE->isTypeDependent() ||
      CE->isValueDependent())
    return;
  ASTContext &Ctx = CI.getASTContext();
  unsigned KernelArg = Form == LaunchForm::Shaped ? 1 : 0;
  if (CE->getNumArgs() <= KernelArg)
    return;
  const KernelFacts *Facts = nullptr;
  CheckedLaunch Checked =
      checkLaunchCall(Ctx, CI.getDiagnostics(), *CE, KernelArg, Enclosing,
                      [&](const FunctionDecl &K) {
                        Facts = kernel(K);
                        return Facts != nullptr;
                      });
  if (!Checked.Ok)
    return;
  if (!isGPU() && !CI.getLangOpts().OpenMPIsTargetDevice &&
      leavesGridUnset(KernelArg ? CE->getArg(0) : nullptr))
    DefaultShapes.emplace_back(CE, Checked.Kernel);

  unsigned SiteArg = CE->getNumArgs() - 1;
  Expr *Site = CE->getArg(SiteArg);
  SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc PLoc = SM.getPresumedLoc(SM.getExpansionLoc(CE->getBeginLoc()));
  CallSiteDescriptor Call;
  Call.Kernel = Facts->Desc;
  if (PLoc.isValid()) {
    Call.File = PLoc.getFilename();
    Call.Line = PLoc.getLine();
    Call.Column = PLoc.getColumn();
  }
  if (Enclosing)
    Call.Function = Enclosing->getQualifiedNameAsString();
  if (auto It = Groups.find(CE); It != Groups.end())
    Call.Group = It->second;
  if (auto It = LoopHolds.find(CE); It != LoopHolds.end())
    Call.LoopHolds = It->second;
  Call.WarnedConstRegion = ConstWarned.count(CE);
  for (unsigned I = KernelArg + 1; I < SiteArg; ++I) {
    CharSourceRange R =
        CharSourceRange::getTokenRange(CE->getArg(I)->getSourceRange());
    Call.ArgSpellings.push_back(
        Lexer::getSourceText(SM.getExpansionRange(R), SM, Ctx.getLangOpts())
            .str());
  }

  std::string Text = encodeCallSite(Call);
  QualType StrTy = Ctx.getStringLiteralArrayType(Ctx.CharTy, Text.size());
  auto *Literal =
      StringLiteral::Create(Ctx, Text, StringLiteralKind::Ordinary,
                            /*Pascal=*/false, StrTy, Site->getExprLoc());
  auto *Decayed = ImplicitCastExpr::Create(
      Ctx, Ctx.getPointerType(Ctx.CharTy.withConst()), CK_ArrayToPointerDecay,
      Literal, nullptr, VK_PRValue, FPOptionsOverride());
  CE->setArg(SiteArg, Decayed);
}

void OffloadConsumer::checkDefaultShapes(ASTContext &Ctx) {
  llvm::DenseMap<const FunctionDecl *, std::optional<BoundAnalysis>> Bounds;
  for (auto [CE, K] : DefaultShapes) {
    auto [It, New] = Bounds.try_emplace(K);
    if (New)
      It->second = analyseLaunchBound(*K, Ctx);
    if (It->second)
      checkDefaultShape(CI.getDiagnostics(), *CE, *K, *It->second);
  }
}

/// Annotates each `__ofld_fields_of<S>` the translation unit instantiated
/// (every class an ofld::region maps) with the span fields of S, for
/// RegionFieldsPass to turn into the table. CodeGen emits the variables at
/// the end of the translation unit, after this.
void OffloadConsumer::describeRegionFields(ASTContext &Ctx) {
  auto Found = Ctx.getTranslationUnitDecl()->lookup(
      &Ctx.Idents.get(RegionFieldsVariable));
  auto *Template =
      Found.empty() ? nullptr : dyn_cast<VarTemplateDecl>(Found.front());
  if (!Template)
    return;
  for (VarTemplateSpecializationDecl *Spec : Template->specializations()) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() != 1 || Args[0].getKind() != TemplateArgument::Type ||
        Spec->hasAttr<AnnotateAttr>())
      continue;
    QualType Object = Args[0].getAsType();
    std::optional<ParamRule> Rule = spanFieldsOf(Object, Ctx);
    if (!Rule)
      continue;
    KernelDescriptor Desc;
    Desc.Name = Object.getAsString(Ctx.getPrintingPolicy());
    Desc.Params.push_back(std::move(Rule->Layout));
    Spec->addAttr(AnnotateAttr::CreateImplicit(
        Ctx, (RegionFieldsAnnotationPrefix + encodeKernel(Desc)).str(), nullptr,
        0));
  }
}

void OffloadConsumer::blockFound(CompoundStmt &CS) {
  if (isGPU() || CS.size() < 2)
    return; // only the host lowers launches
  findLaunchGroups(
      CS,
      [&](const CallExpr &CE) -> const KernelDescriptor * {
        // With or without a launch configuration: the host lowering honours
        // each member's shape (HostLowering.cpp).
        if (CE.isTypeDependent() || CE.isValueDependent())
          return nullptr;
        std::optional<LaunchedKernel> L = launchedKernel(CE);
        const KernelFacts *Facts = L ? kernel(*L->Kernel) : nullptr;
        return Facts ? &Facts->Desc : nullptr;
      },
      NextGroupId, Groups);
}

std::unique_ptr<ASTConsumer>
createOffloadConsumer(CompilerInstance &CI, const ConsumerOptions &Options) {
  return std::make_unique<OffloadConsumer>(CI, Options);
}

} // namespace offload
