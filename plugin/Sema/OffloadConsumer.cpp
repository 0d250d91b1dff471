//===- OffloadConsumer.cpp - kernel and offload() call checking -----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "OffloadConsumer.h"
#include "DeviceConstants.h"
#include "offload/Core/BoundAnalysis.h"
#include "offload/Core/CallShape.h"
#include "offload/Core/KernelAttributes.h"
#include "offload/Core/KernelBodyChecks.h"
#include "offload/Core/KernelDescriptor.h"
#include "offload/Core/LaunchChecks.h"
#include "offload/Core/LaunchGroups.h"
#include "offload/Core/RegionConstness.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/TemplateDeduction.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace offload {
namespace {

/// What the plugin learnt about one kernel (or template specialisation).
struct KernelInfo {
  bool Valid = false;
  bool Prepared = false; ///< attributes for CodeGen added to the definition
  std::string Note;      ///< the annotation CodeGen reads (once Prepared)
  KernelDescriptor Desc;
};

class OffloadConsumer final : public SemaConsumer {
public:
  explicit OffloadConsumer(CompilerInstance &CI)
      : CI(CI), Unresolved(UnresolvedLaunchFilter::install(
                    CI.getDiagnostics(), CI.getDiagnosticOpts().ErrorLimit)) {}

  void InitializeSema(Sema &S) override { SemaRef = &S; }
  void ForgetSema() override { SemaRef = nullptr; }

  bool HandleTopLevelDecl(DeclGroupRef DG) override;
  /// Kernel bodies are checked once callees defined further down and
  /// template instantiations exist.
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // Every declaration has been visited: clang's errors that no call
    // replaced go out now (not per declaration: Sema hands instantiations
    // over while it still parses the declaration that needs them).
    Unresolved.release();
    llvm::SmallVector<const FunctionDecl *, 16> Ks(Kernels.keys());
    KernelBodies Bodies = analyseKernelBodies(Ctx, CI.getDiagnostics(), Ks);
    copyConstantsToDevice(Ctx, Bodies.Constants);
    checkDefaultShapes(Ctx);
  }

  /// Called by the visitor.
  void handleFunction(FunctionDecl *FD);
  void handleCall(CallExpr *CE, FunctionDecl *Enclosing);
  void handleBlock(CompoundStmt *CS);
  void handleUnresolvedCall(RecoveryExpr *RE) {
    if (SemaRef)
      diagnoseUnresolvedLaunch(*SemaRef, Unresolved, *RE);
  }

private:
  KernelInfo &analyseKernel(const FunctionDecl *FD, bool Needed = true);
  void checkDefaultShapes(ASTContext &Ctx);
  void completeParameterTypes(const FunctionDecl &FD);
  void prepareDefinition(FunctionDecl *FD, KernelInfo &Info);
  FunctionDecl *instantiateThunk(llvm::StringRef Name, const FunctionDecl &K);
  std::string mangle(const FunctionDecl *FD);
  bool isGPU() const {
    const llvm::Triple &T = CI.getTarget().getTriple();
    return T.isNVPTX() || T.isAMDGPU();
  }

  CompilerInstance &CI;
  /// Holds clang's error for an offload() call it could not resolve until
  /// the visitor reaches the call (CallShape.h).
  UnresolvedLaunchFilter &Unresolved;
  Sema *SemaRef = nullptr;
  llvm::DenseMap<const FunctionDecl *, KernelInfo> Kernels;
  std::unique_ptr<MangleContext> Mangler;
  /// Calls that join a launch group (LaunchGroups.h), found per block
  /// before the visitor reaches the calls.
  llvm::DenseMap<const CallExpr *, LaunchGroup> Groups;
  unsigned NextGroupId = 1;
  /// Launches already warned about writing a region's read-only range.
  llvm::SmallPtrSet<const CallExpr *, 4> ConstWarned;
  /// Launches that leave the grid to their kernel's bounds check, checked
  /// once every kernel body (and instantiation) exists.
  llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 8>
      DefaultShapes;
};

/// Visits function bodies, remembering the innermost enclosing function.
class CallFinder : public RecursiveASTVisitor<CallFinder> {
public:
  explicit CallFinder(OffloadConsumer &C) : C(C) {}

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Stack.push_back(FD);
    bool R = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Stack.pop_back();
    return R;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    C.handleFunction(FD);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    C.handleCall(CE, Stack.empty() ? nullptr : Stack.back());
    return true;
  }
  bool VisitCompoundStmt(CompoundStmt *CS) {
    C.handleBlock(CS);
    return true;
  }
  bool VisitRecoveryExpr(RecoveryExpr *RE) {
    C.handleUnresolvedCall(RE);
    return true;
  }

private:
  OffloadConsumer &C;
  llvm::SmallVector<FunctionDecl *, 4> Stack;
};

} // namespace

bool OffloadConsumer::HandleTopLevelDecl(DeclGroupRef DG) {
  CallFinder Finder(*this);
  for (Decl *D : DG)
    Finder.TraverseDecl(D);
  return true;
}

void OffloadConsumer::handleFunction(FunctionDecl *FD) {
  checkOutParams(*FD, CI.getDiagnostics());
  if (!FD->isDependentContext() && !isKernel(*FD) && FD->hasBody() &&
      FD->doesThisDeclarationHaveABody() &&
      !CI.getLangOpts().OpenMPIsTargetDevice)
    checkRegionConstness(
        *FD->getBody(), CI.getASTContext(), CI.getDiagnostics(),
        [&](const CallExpr &CE) -> std::optional<LaunchInfo> {
          std::optional<LaunchedKernel> L = launchedKernel(CE);
          if (!L)
            return std::nullopt;
          KernelInfo &Info = analyseKernel(L->Kernel);
          if (!Info.Valid)
            return std::nullopt;
          return LaunchInfo{L->Kernel, &Info.Desc, L->FirstArg};
        },
        ConstWarned);
  if (FD->isDependentContext() || !isKernel(*FD))
    return;
  KernelInfo &Info = analyseKernel(FD, FD->doesThisDeclarationHaveABody());
  if (Info.Valid && FD->doesThisDeclarationHaveABody())
    prepareDefinition(FD, Info);
  else if (Info.Prepared) // a redeclaration after the definition
    FD->addAttr(AnnotateAttr::CreateImplicit(CI.getASTContext(), Info.Note,
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

KernelInfo &OffloadConsumer::analyseKernel(const FunctionDecl *FD,
                                           bool Needed) {
  FD = FD->getCanonicalDecl();
  if (auto Found = Kernels.find(FD); Found != Kernels.end())
    return Found->second;
  completeParameterTypes(*FD);
  // A declaration whose parameter types are still incomplete is judged
  // where its definition or a launch needs them, not now.
  if (!Needed && hasIncompleteParameter(*FD, CI.getASTContext())) {
    static KernelInfo Pending;
    Pending = KernelInfo();
    return Pending;
  }
  KernelInfo &Info = Kernels[FD];
  std::optional<KernelDescriptor> D =
      checkKernelDeclaration(*FD, CI.getASTContext(), CI.getDiagnostics());
  if (!D)
    return Info;
  Info.Desc = std::move(*D);
  Info.Valid = true;

  // Thunks let clang, not us, apply each target's calling convention when
  // the kernel is finally called with its parameter objects.
  KernelDescriptor &Desc = Info.Desc;
  if (FunctionDecl *Invoke = instantiateThunk("invoke", *FD))
    Desc.InvokeThunk = mangle(Invoke);
  if (!isGPU())
    if (FunctionDecl *Cpu = instantiateThunk("cpu_grid", *FD))
      Desc.CpuThunk = mangle(Cpu);
  if (Desc.InvokeThunk.empty() || (!isGPU() && Desc.CpuThunk.empty()))
    Info.Valid = false;
  return Info;
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

void OffloadConsumer::prepareDefinition(FunctionDecl *FD, KernelInfo &Info) {
  if (FD->hasAttr<OMPDeclareTargetDeclAttr>() && Info.Prepared)
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
  KernelDescriptor Annotated = Info.Desc;
  if (std::optional<BoundAnalysis> B = analyseLaunchBound(*FD, Ctx))
    Annotated.Bound = B->Bound;
  Info.Note = (KernelAnnotationPrefix + encodeKernel(Annotated)).str();
  // On every declaration: clang emits a function's annotations from its
  // latest declaration at the end of the translation unit when a launch
  // written above the definition used it first.
  for (FunctionDecl *R : FD->redecls())
    R->addAttr(AnnotateAttr::CreateImplicit(Ctx, Info.Note, nullptr, 0));
  Info.Prepared = true;
}

void OffloadConsumer::handleCall(CallExpr *CE, FunctionDecl *Enclosing) {
  LaunchForm Form = launchFormOf(CE->getDirectCallee());
  if (Form == LaunchForm::None || CE->isTypeDependent() ||
      CE->isValueDependent())
    return;
  ASTContext &Ctx = CI.getASTContext();
  unsigned KernelArg = Form == LaunchForm::Shaped ? 1 : 0;
  if (CE->getNumArgs() <= KernelArg)
    return;
  KernelInfo *Info = nullptr;
  CheckedLaunch Checked =
      checkLaunchCall(Ctx, CI.getDiagnostics(), *CE, KernelArg, Enclosing,
                      [&](const FunctionDecl &K) {
                        Info = &analyseKernel(&K);
                        return Info->Valid;
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
  Call.Kernel = Info->Desc;
  if (PLoc.isValid()) {
    Call.File = PLoc.getFilename();
    Call.Line = PLoc.getLine();
    Call.Column = PLoc.getColumn();
  }
  if (Enclosing)
    Call.Function = Enclosing->getQualifiedNameAsString();
  if (auto It = Groups.find(CE); It != Groups.end())
    Call.Group = It->second;
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

void OffloadConsumer::handleBlock(CompoundStmt *CS) {
  if (isGPU() || CS->size() < 2)
    return; // only the host lowers launches
  findLaunchGroups(
      *CS,
      [&](const CallExpr &CE) -> const KernelDescriptor * {
        if (launchFormOf(CE.getDirectCallee()) != LaunchForm::Plain ||
            CE.isTypeDependent() || CE.isValueDependent() ||
            CE.getNumArgs() < 2)
          return nullptr;
        const FunctionDecl *K = namedKernel(*CE.getArg(0));
        if (!K || !isKernel(*K))
          return nullptr;
        KernelInfo &Info = analyseKernel(K);
        return Info.Valid ? &Info.Desc : nullptr;
      },
      NextGroupId, Groups);
}

std::unique_ptr<ASTConsumer> createOffloadConsumer(CompilerInstance &CI) {
  return std::make_unique<OffloadConsumer>(CI);
}

} // namespace offload
