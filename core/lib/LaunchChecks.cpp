//===- LaunchChecks.cpp - offload() calls and the kernels they name -------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Kernels and calls. A kernel's declaration is checked once (the caller
// caches the result), at its first launch or its definition; a call is
// checked where it is written, and again in every instantiation of a
// template that writes it with dependent arguments.
//
// Launch shapes. `ofld::launch` components known at compile time must be
// launchable: none at or above 2^31 (typically a negative value converted to
// unsigned), y and z not zero when x is set, no y or z above 1 with a zero x
// (a grid or block with a zero component launches nothing: only an unset
// one, all components 0, is the default shape; offload/launch.hpp), no
// device below -1, and on GPU targets no block larger than 1024 threads. A
// zero x with y and z left at 1 is not reported.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/LaunchChecks.h"
#include "offload/Core/Diagnostics.h"
#include "offload/Core/KernelAttributes.h"
#include "offload/Core/TransferRules.h"
#include "offload/policy/launch_limits.hpp"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/TargetInfo.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>

using namespace clang;

namespace offload {
namespace {

// The marker symbols and names of offload.hpp (runtime_abi.def).
#define OFLD_ABI_MARKER(Enum, Name)                                            \
  constexpr llvm::StringLiteral Marker##Enum = #Name;
#include "offload/runtime_abi.def"

/// The expression a launch (or a dim3) was built from: through temporaries,
/// casts to the same class, and `const` variables, whose initialiser is
/// their value for good.
const Expr *initialiserOf(const Expr *E, unsigned Depth = 0) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *C = dyn_cast<CastExpr>(E);
             C && (C->getCastKind() == CK_NoOp ||
                   C->getCastKind() == CK_ConstructorConversion ||
                   C->getCastKind() == CK_LValueToRValue))
      E = C->getSubExpr();
    else if (const auto *W = dyn_cast<ExprWithCleanups>(E))
      E = W->getSubExpr();
    else if (const auto *CE = dyn_cast<ConstantExpr>(E))
      E = CE->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E);
             Ctor && Ctor->getNumArgs() == 1 &&
             Ctor->getConstructor()->isCopyOrMoveConstructor())
      E = Ctor->getArg(0);
    else if (const auto *D = dyn_cast<CXXDefaultInitExpr>(E))
      E = D->getExpr();
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      // Only a const object keeps its initialiser's value.
      if (!VD || !VD->getType().isConstQualified() || !VD->getInit() ||
          Depth > 8)
        return E;
      return initialiserOf(VD->getInit(), Depth + 1);
    } else
      return E;
  }
  return E;
}

/// One component of a dim3 or the device field, as far as it is known.
struct Component {
  bool Written = false;               ///< spelled in the source
  std::optional<llvm::APSInt> Value;  ///< after conversion to the field type
  std::optional<llvm::APSInt> Source; ///< signed value before conversion
  SourceLocation Loc;
};

/// The value of one evaluated dim3 component: a dim_component's one member.
const APValue &componentValue(const APValue &Field) {
  return Field.isStruct() && Field.getStructNumFields() == 1
             ? Field.getStructField(0)
             : Field;
}

Component evaluate(const Expr *E, ASTContext &Ctx, SourceLocation Fallback) {
  Component C;
  C.Loc = Fallback;
  if (!E)
    return C;
  if (const auto *D = dyn_cast<CXXDefaultInitExpr>(E->IgnoreParens()))
    E = D->getExpr();
  else if (!isa<ImplicitValueInitExpr>(E->IgnoreParens()))
    C.Written = true;
  if (E->getExprLoc().isValid() && C.Written)
    C.Loc = E->getExprLoc();
  if (E->isValueDependent() || E->isTypeDependent())
    return C;
  // A dim_component is built from any integer: the integer is the value.
  bool Converted = false;
  while (true) {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
        Cast && Cast->getCastKind() == CK_ConstructorConversion)
      E = Cast->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E);
             Ctor && Ctor->getNumArgs() == 1 &&
             !Ctor->getConstructor()->isCopyOrMoveConstructor() &&
             Ctor->getArg(0)->getType()->isIntegralOrEnumerationType())
      E = Ctor->getArg(0), Converted = true;
    else
      break;
  }
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx)) {
    llvm::APSInt V = R.Val.getInt();
    if (Converted && V.isSigned() && V.isNegative())
      C.Source = V;
    C.Value = V;
    if (Converted) { // as dim_component stores it
      C.Value = V.extOrTrunc(64);
      C.Value->setIsUnsigned(true);
    }
  }
  // The value before an integral conversion says whether it was negative.
  const Expr *Inner = E->IgnoreParens();
  while (const auto *Cast = dyn_cast<CastExpr>(Inner)) {
    if (Cast->getCastKind() != CK_IntegralCast &&
        Cast->getCastKind() != CK_NoOp)
      break;
    Inner = Cast->getSubExpr()->IgnoreParens();
  }
  Expr::EvalResult S;
  if (Inner != E && Inner->getType()->isSignedIntegerType() &&
      Inner->EvaluateAsInt(S, Ctx))
    C.Source = S.Val.getInt();
  return C;
}

/// The three components of a dim3 initialiser; unknown ones stay empty.
std::array<Component, 3> dimsOf(const Expr *E, ASTContext &Ctx,
                                SourceLocation Fallback) {
  std::array<Component, 3> Out;
  bool Written = E && !isa<CXXDefaultInitExpr>(E->IgnoreParens());
  E = initialiserOf(E);
  if (const auto *IL = dyn_cast_or_null<InitListExpr>(E)) {
    for (unsigned I = 0; I < 3; ++I) {
      Out[I] = evaluate(I < IL->getNumInits() ? IL->getInit(I) : nullptr, Ctx,
                        IL->getBeginLoc());
      Out[I].Written &= Written;
    }
    return Out;
  }
  // Anything else (a constexpr function's result...): whole-object
  // evaluation, values without the spelling.
  Expr::EvalResult R;
  if (E && !E->isValueDependent() && E->EvaluateAsRValue(R, Ctx) &&
      R.Val.isStruct() && R.Val.getStructNumFields() >= 3)
    for (unsigned I = 0; I < 3; ++I) {
      const APValue &F = componentValue(R.Val.getStructField(I));
      if (F.isInt())
        Out[I].Value = F.getInt();
      Out[I].Written = Written;
      Out[I].Loc = E->getExprLoc().isValid() ? E->getExprLoc() : Fallback;
    }
  return Out;
}

bool isOfldLaunch(const CXXRecordDecl *RD) {
  if (!RD || RD->getName() != "launch")
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  return NS && NS->getName() == "ofld" &&
         NS->getParent()->getRedeclContext()->isTranslationUnit();
}

/// Which GPU the compile targets, if any: (name, threads per block).
std::optional<std::pair<std::string, unsigned>> gpuTarget(ASTContext &Ctx) {
  llvm::SmallVector<llvm::Triple, 4> Triples(
      Ctx.getLangOpts().OMPTargetTriples.begin(),
      Ctx.getLangOpts().OMPTargetTriples.end());
  Triples.push_back(Ctx.getTargetInfo().getTriple());
  for (const llvm::Triple &T : Triples)
    if (T.isNVPTX() || T.isAMDGPU())
      return std::make_pair(T.str(),
                            unsigned(ofld::policy::PortableMaxThreads));
  return std::nullopt;
}

} // namespace

LaunchForm launchFormOf(const FunctionDecl *Callee) {
  if (!Callee)
    return LaunchForm::None;
  const auto *Label = Callee->getAttr<AsmLabelAttr>();
  if (!Label)
    return LaunchForm::None;
  if (Label->getLabel() == MarkerLaunch)
    return LaunchForm::Plain;
  if (Label->getLabel() == MarkerLaunchShaped)
    return LaunchForm::Shaped;
  return LaunchForm::None;
}

std::optional<LaunchedKernel> launchedKernel(const CallExpr &CE) {
  LaunchForm Form = launchFormOf(CE.getDirectCallee());
  unsigned KernelArg = Form == LaunchForm::Shaped ? 1 : 0;
  if (Form == LaunchForm::None || CE.isTypeDependent() ||
      CE.getNumArgs() <= KernelArg)
    return std::nullopt;
  const FunctionDecl *K = namedKernel(*CE.getArg(KernelArg));
  if (!K || !isKernel(*K))
    return std::nullopt;
  return LaunchedKernel{K, KernelArg + 1};
}

const DeclRefExpr *kernelReference(const Expr &Arg) {
  const Expr *E = &Arg;
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf) {
      E = UO->getSubExpr();
      continue;
    }
    // A cast that only names the function's own type selects an overload;
    // a cast to another type (reinterpret_cast) changes what is called.
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
        Cast && Cast->getCastKind() == CK_NoOp) {
      const Expr *Sub = Cast->getSubExpr();
      if (Cast->getType().getCanonicalType() !=
          Sub->getType().getCanonicalType())
        return nullptr;
      E = Sub;
      continue;
    }
    return dyn_cast<DeclRefExpr>(E);
  }
}

const FunctionDecl *namedKernel(const Expr &E) {
  const DeclRefExpr *Ref = kernelReference(E);
  return Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
}

bool hasSiteParameter(const FunctionDecl &Entry) {
  unsigned N = Entry.getNumParams();
  return N && Entry.getParamDecl(N - 1)->getName() == MarkerSiteParam;
}

bool isCallSiteDescriptor(const Expr &E) {
  const auto *SL = dyn_cast<StringLiteral>(E.IgnoreParenImpCasts());
  return SL && SL->getString().starts_with("v1;");
}

bool hasIncompleteParameter(const FunctionDecl &Kernel, ASTContext &Ctx) {
  for (const ParmVarDecl *P : Kernel.parameters()) {
    ParamClassification C =
        classifyParameter(*P, isOutParam(*P), Ctx, isInParam(*P));
    const auto *V = std::get_if<RuleViolation>(&C);
    if (V && V->Id == DiagId::ParamIncompleteType)
      return true;
  }
  return false;
}

std::optional<KernelDescriptor>
checkKernelDeclaration(const FunctionDecl &Kernel, ASTContext &Ctx,
                       DiagnosticsEngine &Diags,
                       llvm::SmallVectorImpl<ParamRule> *Rules) {
  bool Valid = true;
  if (std::optional<DiagId> Bad = checkKernelSignature(Kernel)) {
    report(Diags, Kernel.getLocation(), *Bad) << &Kernel;
    Valid = false;
  }
  KernelDescriptor D;
  llvm::raw_string_ostream NameOS(D.Name);
  Kernel.getNameForDiagnostic(NameOS, Ctx.getPrintingPolicy(),
                              /*Qualified=*/true);
  for (const ParmVarDecl *P : Kernel.parameters()) {
    ParamClassification C =
        classifyParameter(*P, isOutParam(*P), Ctx, isInParam(*P));
    if (const auto *V = std::get_if<RuleViolation>(&C)) {
      reportViolation(Diags, Kernel, *P, *V, Ctx);
      Valid = false;
      continue;
    }
    D.Params.push_back(std::get<ParamRule>(C).Layout);
    if (Rules)
      Rules->push_back(std::move(std::get<ParamRule>(C)));
  }
  if (!Valid)
    return std::nullopt;
  return D;
}

CheckedLaunch
checkLaunchCall(ASTContext &Ctx, DiagnosticsEngine &Diags, const CallExpr &CE,
                unsigned KernelArg, const FunctionDecl *Enclosing,
                llvm::function_ref<bool(const FunctionDecl &)> KernelIsValid) {
  CheckedLaunch Out;
  const Expr *KernelExpr = CE.getArg(KernelArg);
  const FunctionDecl *K = namedKernel(*KernelExpr);
  if (!K) {
    report(Diags, KernelExpr->getExprLoc(), DiagId::CallUnknownKernel)
        << KernelExpr->getSourceRange();
    return Out;
  }
  if (!isKernel(*K)) {
    report(Diags, KernelExpr->getExprLoc(), DiagId::CallNotAKernel)
        << K << KernelExpr->getSourceRange();
    return Out;
  }
  Out.Kernel = K;
  if (Enclosing && isKernel(*Enclosing)) {
    report(Diags, CE.getExprLoc(), DiagId::CallNestedLaunch) << Enclosing;
    return Out;
  }
  if (KernelArg && !checkLaunchShape(Ctx, Diags, CE.getArg(0)))
    return Out;
  // offload.hpp's declarations end in the hidden `__ofld_site` parameter:
  // an argument written there is one too many for the kernel.
  const FunctionDecl *Entry = CE.getDirectCallee();
  if (Entry && hasSiteParameter(*Entry) && CE.getNumArgs() > KernelArg + 1) {
    const Expr *Site = CE.getArg(CE.getNumArgs() - 1);
    if (!isa<CXXDefaultArgExpr>(Site) && !isCallSiteDescriptor(*Site)) {
      report(Diags, Site->getExprLoc(), DiagId::CallTooManyArguments)
          << K << K->getNumParams();
      return Out;
    }
  }
  if (!KernelIsValid(*K)) {
    report(Diags, KernelExpr->getExprLoc(), DiagId::CallInvalidKernel) << K;
    return Out;
  }
  Out.Ok = true;
  return Out;
}

bool checkLaunchShape(ASTContext &Ctx, DiagnosticsEngine &Diags,
                      const Expr *Shape) {
  if (!Shape || Shape->isTypeDependent() || Shape->isValueDependent())
    return true;
  const Expr *Init = initialiserOf(Shape);
  const auto *IL = dyn_cast_or_null<InitListExpr>(Init);
  const auto *RD = Shape->getType()->getAsCXXRecordDecl();
  if (!IL || !isOfldLaunch(RD))
    return true;
  bool Ok = true;
  std::optional<std::array<Component, 3>> Block;
  for (const FieldDecl *F : RD->fields()) {
    unsigned I = F->getFieldIndex();
    const Expr *FieldInit = I < IL->getNumInits() ? IL->getInit(I) : nullptr;
    llvm::StringRef Name = F->getName();
    if (Name == "device") {
      Component D = evaluate(FieldInit, Ctx, IL->getBeginLoc());
      if (D.Value && D.Value->getSExtValue() < -1) {
        report(Diags, D.Loc, DiagId::LaunchBadDevice) << toString(*D.Value, 10);
        Ok = false;
      }
      continue;
    }
    if (Name != "grid" && Name != "block")
      continue;
    std::array<Component, 3> Dims = dimsOf(FieldInit, Ctx, IL->getBeginLoc());
    static constexpr const char *Axis[] = {"x", "y", "z"};
    bool Bad = false;
    for (unsigned A = 0; A < 3; ++A) {
      const Component &C = Dims[A];
      if (!C.Value)
        continue;
      uint64_t V = C.Value->getZExtValue();
      if (C.Source && C.Source->isNegative()) {
        report(Diags, C.Loc, DiagId::LaunchNegativeDimension)
            << Name << Axis[A] << toString(*C.Source, 10)
            << toString(*C.Value, 10);
        Bad = true;
      } else if (V > 0x7fffffffu) {
        report(Diags, C.Loc, DiagId::LaunchDimensionTooLarge)
            << Name << Axis[A] << toString(*C.Value, 10);
        Bad = true;
      }
    }
    if (!Bad && Dims[0].Value) {
      bool DefaultX = Dims[0].Value->isZero();
      for (unsigned A = 1; A < 3; ++A) {
        const Component &C = Dims[A];
        if (!C.Value || !C.Written)
          continue;
        if (DefaultX && C.Value->getZExtValue() > 1) {
          report(Diags, C.Loc, DiagId::LaunchIgnoredDimension)
              << Name << Axis[A] << toString(*C.Value, 10);
          Bad = true;
        } else if (!DefaultX && C.Value->isZero()) {
          report(Diags, C.Loc, DiagId::CallZeroDimension)
              << Name << Axis[A] << 0;
          Bad = true;
        }
      }
    }
    Ok &= !Bad;
    if (Name == "block" && !Bad)
      Block = Dims;
  }
  // GPUs cap a block's threads; the default (x = 0) block is 256.
  if (Block && (*Block)[0].Value && !(*Block)[0].Value->isZero())
    if (auto GPU = gpuTarget(Ctx)) {
      uint64_t Threads = 1;
      bool Known = true;
      for (const Component &C : *Block) {
        if (!C.Value) {
          Known = false;
          break;
        }
        Threads = std::min<uint64_t>(
            Threads * std::max<uint64_t>(1, C.Value->getZExtValue()), 1u << 31);
      }
      if (Known && Threads > GPU->second) {
        report(Diags, (*Block)[0].Loc, DiagId::LaunchBlockTooLarge)
            << unsigned(Threads) << GPU->second << GPU->first;
        Ok = false;
      }
    }
  return Ok;
}

bool leavesGridUnset(const Expr *Shape) {
  if (!Shape)
    return true;
  if (Shape->isTypeDependent() || Shape->isValueDependent())
    return false;
  const auto *IL = dyn_cast_or_null<InitListExpr>(initialiserOf(Shape));
  if (!IL || !isOfldLaunch(IL->getType()->getAsCXXRecordDecl()))
    return false;
  if (IL->getNumInits() == 0)
    return true;
  const Expr *Grid = IL->getInit(0)->IgnoreParens();
  if (isa<CXXDefaultInitExpr>(Grid) || isa<ImplicitValueInitExpr>(Grid))
    return true;
  // `.grid = {0, 0, 0}` is the unset value spelled out.
  ASTContext &Ctx = IL->getType()->getAsCXXRecordDecl()->getASTContext();
  Expr::EvalResult R;
  if (Grid->isValueDependent() || !Grid->EvaluateAsRValue(R, Ctx) ||
      !R.Val.isStruct())
    return false;
  for (unsigned I = 0; I < R.Val.getStructNumFields(); ++I) {
    const APValue &F = componentValue(R.Val.getStructField(I));
    if (!F.isInt() || !F.getInt().isZero())
      return false;
  }
  return true;
}

} // namespace offload
