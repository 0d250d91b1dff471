//===- CallRewriter.cpp - one offload() call, checked and planned ---------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "CallRewriter.h"
#include "DeviceCode.h"

#include "offload/Core/CallShape.h"
#include "offload/Core/Diagnostics.h"
#include "offload/Core/KernelAttributes.h"
#include "offload/Core/LaunchBound.h"
#include "offload/Core/LaunchChecks.h"
#include "offload/Core/TransferRules.h"
#include "offload/launch.hpp"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace offload {
namespace rewrite {

namespace {

/// The two entry points, as the plugin tells them apart: by the marker
/// symbol of their declaration (or, failing that, by the first parameter).
unsigned kernelArgIndex(const FunctionDecl &Entry) {
  if (Entry.hasAttr<AsmLabelAttr>())
    return launchFormOf(&Entry) == LaunchForm::Shaped ? 1 : 0;
  return Entry.getNumParams() &&
                 Entry.getParamDecl(0)->getType()->isReferenceType()
             ? 1
             : 0;
}

/// If the call is a statement on its own, so that a block can replace it,
/// that statement (the call, or the cleanups around it) and its parent.
std::pair<const Stmt *, const Stmt *> statementOf(ASTContext &Ctx,
                                                  const CallExpr &CE) {
  const Stmt *Child = &CE;
  DynTypedNodeList Parents = Ctx.getParents(*Child);
  while (Parents.size() == 1 && (Parents[0].get<ExprWithCleanups>() ||
                                 Parents[0].get<ConstantExpr>())) {
    Child = Parents[0].get<Stmt>();
    Parents = Ctx.getParents(*Child);
  }
  if (Parents.size() != 1)
    return {nullptr, nullptr};
  const Stmt *P = Parents[0].get<Stmt>();
  if (!P)
    return {nullptr, nullptr};
  bool IsBody = false;
  if (isa<CompoundStmt>(P))
    IsBody = true;
  else if (const auto *If = dyn_cast<IfStmt>(P))
    IsBody = If->getThen() == Child || If->getElse() == Child;
  else if (const auto *For = dyn_cast<ForStmt>(P))
    IsBody = For->getBody() == Child;
  else if (const auto *Range = dyn_cast<CXXForRangeStmt>(P))
    IsBody = Range->getBody() == Child;
  else if (const auto *While = dyn_cast<WhileStmt>(P))
    IsBody = While->getBody() == Child;
  else if (const auto *Do = dyn_cast<DoStmt>(P))
    IsBody = Do->getBody() == Child;
  else if (const auto *Case = dyn_cast<SwitchCase>(P))
    IsBody = Case->getSubStmt() == Child;
  else if (const auto *Label = dyn_cast<LabelStmt>(P))
    IsBody = Label->getSubStmt() == Child;
  else if (const auto *Attributed = dyn_cast<AttributedStmt>(P))
    IsBody = Attributed->getSubStmt() == Child;
  return IsBody ? std::make_pair(Child, P) : std::make_pair(nullptr, nullptr);
}

/// Whether `D` can be named from another scope.
bool isNameable(const NamedDecl *D) {
  for (const Decl *Cur = D; Cur;) {
    const DeclContext *DC = Cur->getDeclContext();
    if (DC->isFunctionOrMethod())
      return false;
    if (const auto *Tag = dyn_cast<TagDecl>(Cur))
      if (!Tag->getIdentifier() && !Tag->getTypedefNameForAnonDecl())
        return false;
    if (isa<RecordDecl>(DC) &&
        (Cur->getAccess() == AS_private || Cur->getAccess() == AS_protected))
      return false;
    Cur = dyn_cast<Decl>(DC);
    if (Cur && !isa<TagDecl>(Cur))
      Cur = nullptr; // namespaces are always reachable
  }
  return true;
}

/// Whether a parameter type can be written at the call: no local, unnamed
/// or inaccessible class appears in it.
bool canSpell(ASTContext &Ctx, QualType T) {
  // The written spelling may go through aliases: check them too.
  for (QualType S = T; !S.isNull();) {
    if (const auto *TT = dyn_cast<TypedefType>(S.getTypePtr()))
      if (!isNameable(TT->getDecl()))
        return false;
    QualType Next = S.getSingleStepDesugaredType(Ctx);
    if (Next == S)
      break;
    S = Next;
  }
  SmallVector<QualType, 8> Work{T.getCanonicalType()};
  while (!Work.empty()) {
    QualType C = Work.pop_back_val();
    if (const auto *Ref = C->getAs<ReferenceType>()) {
      Work.push_back(Ref->getPointeeType());
    } else if (const auto *Ptr = C->getAs<clang::PointerType>()) {
      Work.push_back(Ptr->getPointeeType());
    } else if (const auto *Arr = Ctx.getAsArrayType(C)) {
      Work.push_back(Arr->getElementType());
    } else if (const TagDecl *Tag = C->getAsTagDecl()) {
      if (const auto *RD = dyn_cast<CXXRecordDecl>(Tag); RD && RD->isLambda())
        return false;
      if (!isNameable(Tag))
        return false;
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Tag))
        for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
          if (Arg.getKind() == TemplateArgument::Type)
            Work.push_back(Arg.getAsType());
    }
  }
  return true;
}

/// `T %s`, with T written so that it means the same at the call (the
/// parameter's own spelling of a span would be ofld::bridge::span_param,
/// a reference for g++: the host object is always the span itself).
std::string declarator(ASTContext &Ctx, QualType T) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressUnwrittenScope = true;
  QualType Qualified = TypeName::getFullyQualifiedType(T, Ctx, false);
  std::string Out;
  raw_string_ostream OS(Out);
  Qualified.print(OS, Policy, "%s");
  return Out;
}

/// The value of the bound that starts at Terms[I] (advancing I past it),
/// if it names no argument: launch.hpp's arithmetic.
std::optional<long long> constantBound(ArrayRef<BoundTerm> Terms, size_t &I) {
  const BoundTerm &T = Terms[I++];
  if (T.Op == BoundTerm::Const)
    return T.Constant;
  if (T.Op == BoundTerm::Value || T.Op == BoundTerm::Count)
    return std::nullopt;
  std::optional<long long> L = constantBound(Terms, I);
  std::optional<long long> R = constantBound(Terms, I);
  if (!L || !R)
    return std::nullopt;
  // Unsigned, as the bounds' 64-bit arithmetic wraps.
  auto Wrap = [](unsigned long long V) { return (long long)V; };
  switch (T.Op) {
  case BoundTerm::Add:
    return Wrap((unsigned long long)*L + (unsigned long long)*R);
  case BoundTerm::Sub:
    return Wrap((unsigned long long)*L - (unsigned long long)*R);
  case BoundTerm::Mul:
    return Wrap((unsigned long long)*L * (unsigned long long)*R);
  case BoundTerm::Div:
    return *R == -1 ? Wrap(0ull - (unsigned long long)*L)
                    : ofld::detail::bound_div(*L, *R);
  case BoundTerm::Min:
    return ofld::detail::bound_min(*L, *R);
  default:
    return ofld::detail::bound_max(*L, *R);
  }
}

/// `B` with each dimension whose bound names no argument bounded by its
/// value (`max(8, 0 + 1)`: 8), for people and the output alike.
LaunchBound foldConstants(LaunchBound B) {
  for (DimBound &Dim : B.Dims) {
    size_t I = 0;
    std::optional<long long> Value =
        Dim.S == DimBound::Bounded ? constantBound(Dim.Terms, I) : std::nullopt;
    if (!Value)
      continue;
    Dim.Terms.assign(1, BoundTerm());
    Dim.Terms.front().Constant = *Value;
  }
  return B;
}

/// The default shape in words: the threads the bound admits and, where the
/// kernel reads a thread index, the default block (`blocks of up to 256`,
/// smaller where the bound is; `blocks of 8` for a bound of 8).
std::string defaultShapeWords(const std::optional<LaunchBound> &Bound,
                              ArrayRef<std::string> ParamNames) {
  if (!Bound)
    return "none: the kernel is defined in another file (after this call, or "
           "in another translation unit); give the grid";
  std::string Words = describeBound(*Bound, ParamNames);
  if (!Bound->readsIndex() || Bound->lacksBound())
    return Words;
  // ofld::detail::default_block on the constant bounds (the others taken as
  // large), over as many dimensions as describeBound names.
  long long Extent[3];
  unsigned Rank = 0;
  bool Constant = true;
  for (auto [D, Dim] : enumerate(Bound->Dims)) {
    Extent[D] = ofld::detail::extent_unindexed;
    if (Dim.S == DimBound::Unindexed)
      continue;
    Rank = D + 1;
    bool IsConstant =
        Dim.Terms.size() == 1 && Dim.Terms.front().Op == BoundTerm::Const;
    Constant &= IsConstant;
    Extent[D] =
        IsConstant ? std::max<long long>(Dim.Terms.front().Constant, 0) : 0;
  }
  std::uint64_t Block[3];
  ofld::detail::default_block(Extent, Block);
  Words += Constant ? ", blocks of " : ", blocks of up to ";
  for (unsigned D = 0; D < Rank; ++D)
    Words += (D ? "x" : "") + utostr(Block[D]);
  return Words;
}

} // namespace

std::optional<CheckedCall>
checkCall(RewriteContext &RC, const CallExpr &CE, const FunctionDecl *Enclosing,
          KernelCheck Check, std::vector<const FunctionDecl *> &Launched) {
  const FunctionDecl &Entry = *CE.getDirectCallee();
  if (CE.isTypeDependent() || CE.isValueDependent())
    return std::nullopt;
  CheckedCall Out;
  Out.KernelArg = kernelArgIndex(Entry);
  if (CE.getNumArgs() <= Out.KernelArg)
    return std::nullopt;

  CheckedLaunch Checked =
      checkLaunchCall(RC.Ctx, RC.Diags, CE, Out.KernelArg, Enclosing,
                      [&](const FunctionDecl &K) { return Check(K, true); });
  if (Checked.Kernel)
    Launched.push_back(Checked.Kernel);
  if (!Checked.Ok)
    return std::nullopt;
  const FunctionDecl *Kernel = Checked.Kernel;
  // The declaration ends in the hidden `__ofld_site` parameter, which
  // checkLaunchCall found without an argument written for it.
  Out.NumArgs = CE.getNumArgs() - Out.KernelArg - 1;
  if (hasSiteParameter(Entry) && Out.NumArgs)
    --Out.NumArgs;
  if (Out.NumArgs != Kernel->getNumParams())
    return std::nullopt; // clang has already said why the call does not match
  Out.Kernel = Kernel;
  return Out;
}

namespace {

/// The text a call replaces: none (reported) where it is spelled in a
/// macro's body, which has no text of its own.
std::optional<FileRange> replacedRange(RewriteContext &RC, const CallExpr &CE,
                                       SourceLocation Loc) {
  const SourceManager &SM = RC.SM;
  if (CE.getBeginLoc().isFileID() || SM.isMacroArgExpansion(CE.getBeginLoc()))
    if (std::optional<FileRange> Range =
            fileRange(SM, RC.langOpts(), CE.getSourceRange()))
      return Range;
  StringRef Macro =
      Lexer::getImmediateMacroName(CE.getBeginLoc(), SM, RC.langOpts());
  report(RC.Diags, Loc, DiagId::RewriteCallInMacroBody) << Macro;
  return std::nullopt;
}

/// The call's own fields of its lowering (its text, the kernel and launch
/// as spelled, where it sits); false (reported) where the kernel or launch
/// is spelled in a macro.
bool describeCall(RewriteContext &RC, const CallExpr &CE,
                  const CheckedCall &Checked, const FileRange &Range,
                  LoweredCall &Call) {
  const SourceManager &SM = RC.SM;
  const LangOptions &LO = RC.langOpts();
  StringRef Buf = SM.getBufferData(Range.File);
  Call.InMacroArgument = CE.getBeginLoc().isMacroID();
  if (Call.InMacroArgument) {
    // No `#line` directive inside the macro's invocation.
    CharSourceRange Inv = SM.getExpansionRange(CE.getSourceRange());
    FileID FID = SM.getFileID(Inv.getBegin());
    if (FID == SM.getFileID(Inv.getEnd()))
      RC.Result.addNoDirectives(RC.filePath(FID),
                                SM.getFileOffset(Inv.getBegin()),
                                SM.getFileOffset(Inv.getEnd()));
  }
  // The indentation of the line the call starts on.
  Call.Indent = Buf.slice(lineStart(Buf, Range.Begin), Range.Begin)
                    .take_while([](char C) { return C == ' ' || C == '\t'; })
                    .str();
  Call.Form = RC.Opts.Form;
  Call.Original = Buf.slice(Range.Begin, Range.End).str();
  Call.Kernel = fileText(
      SM, LO, kernelReference(*CE.getArg(Checked.KernelArg))->getSourceRange());
  {
    raw_string_ostream OS(Call.KernelName);
    Checked.Kernel->getNameForDiagnostic(OS, RC.Ctx.getPrintingPolicy(),
                                         /*Qualified=*/true);
  }
  if (Checked.KernelArg)
    Call.Launch = fileText(SM, LO, CE.getArg(0)->getSourceRange());
  Call.Line = SM.getPresumedLoc(SM.getExpansionLoc(CE.getBeginLoc())).getLine();
  if (!Call.Kernel.empty() && !(Call.Launch && Call.Launch->empty()))
    return true;
  report(RC.Diags, SM.getFileLoc(CE.getBeginLoc()),
         DiagId::RewriteArgumentInMacro)
      << (Call.Kernel.empty() ? Checked.KernelArg + 1 : 1);
  return false;
}

/// The declarators of a reduction parameter `P` (of type `T`, reducing
/// into `Pointee`): the variable it binds, and its accumulator's type.
void declareReduction(ASTContext &Ctx, QualType T, QualType Pointee, unsigned I,
                      LoweredParam &LP, const LoweredCall &Call) {
  // The argument is a T lvalue; the kernel gets an accumulator.
  QualType Acc = T.getNonReferenceType().getUnqualifiedType();
  bool Spell = !Call.InMacroArgument && canSpell(Ctx, Acc);
  LP.Declarator =
      Spell ? declarator(Ctx, Ctx.getLValueReferenceType(Pointee)) : "auto &%s";
  LP.Reduction = Spell ? declarator(Ctx, Acc)
                       : "std::remove_reference_t<decltype(ofld::bridge::"
                         "param<" +
                             utostr(I) + ">(" + Call.Kernel + "))>";
  if (StringRef(LP.Reduction).ends_with(" %s"))
    LP.Reduction.resize(LP.Reduction.size() - 3);
}

/// Parameter `I` of the call's kernel as the call passes `Arg` to it, from
/// the kernel's facts (its first declaration `P`); none (reported) where the
/// argument is spelled in a macro.
std::optional<LoweredParam> lowerParam(RewriteContext &RC, const Expr &Arg,
                                       unsigned ArgIndex, const ParmVarDecl &P,
                                       const ParmVarDecl &NamedP, unsigned I,
                                       const KernelFacts &Facts,
                                       const LoweredCall &Call) {
  ASTContext &Ctx = RC.Ctx;
  const ParamLayout &Layout = Facts.Desc.Params[I];
  LoweredParam LP;
  LP.Argument = fileText(RC.SM, RC.langOpts(), Arg.getSourceRange());
  if (LP.Argument.empty()) {
    report(RC.Diags, Arg.getBeginLoc(), DiagId::RewriteArgumentInMacro)
        << ArgIndex + 1;
    return std::nullopt;
  }
  LP.Name = NamedP.getName().str();
  // A struct of spans: each span field is mapped by its name at the call.
  for (auto [F, Plan] : zip_equal(Layout.Fields, Facts.Rules[I].Fields)) {
    if (!Plan.Public) {
      report(RC.Diags, Arg.getBeginLoc(), DiagId::RewriteHiddenSpanField)
          << &NamedP << Plan.Path;
      return std::nullopt;
    }
    LP.Fields.push_back({Plan.Access, LP.Argument + "." + Plan.Path, F.Map});
  }
  QualType T = P.getType();
  LP.Declarator = !Call.InMacroArgument && canSpell(Ctx, T)
                      ? declarator(Ctx, T)
                      : "decltype(ofld::bridge::param<" + utostr(I) + ">(" +
                            Call.Kernel + ")) %s";
  // A span made from a temporary container: the container must outlive
  // the declaration of the span (in the call it lives to the call's end).
  if (Layout.Kind == PayloadKind::Span) {
    const Expr *Written = Arg.IgnoreUnlessSpelledInSource();
    QualType WT = Written->getType();
    LP.KeepTemporary = !Written->isLValue() && WT->isRecordType() &&
                       !Ctx.hasSameUnqualifiedType(WT, T);
  }
  if (Layout.Reduce != ReduceKind::None)
    declareReduction(Ctx, T, Facts.Rules[I].Pointee, I, LP, Call);
  LP.Kind = Layout.Kind;
  LP.InDeviceMemory = LP.Kind == PayloadKind::Value && LP.Reduction.empty() &&
                      isLargeValue(P, Ctx);
  LP.CopiedOnStack = LP.InDeviceMemory && !isLargeReadOnlyValue(P, Ctx);
  LP.Map = Layout.Map;
  LP.Scratch = Layout.Scratch;
  return LP;
}

/// How the launch shape is chosen, for --explain: the rule of
/// offload/launch.hpp (ofld::detail::default_dims), with the bound named by
/// the kernel's parameters.
std::string launchWords(const LoweredCall &Call,
                        ArrayRef<ParamExplanation> Params) {
  SmallVector<std::string, 8> ParamNames;
  for (const ParamExplanation &PE : Params)
    ParamNames.push_back(PE.Name);
  std::string Shape = defaultShapeWords(Call.Bound, ParamNames);
  return Call.Launch ? *Call.Launch + " (unset grid: " + Shape +
                           "; a grid without a block: blocks of " +
                           utostr(ofld::detail::default_block_threads) + "; " +
                           ofld::detail::zero_component_rule + ")"
                     : "default, " + Shape;
}

} // namespace

std::vector<std::string> explainedSizes(ASTContext &Ctx,
                                        const FunctionDecl &Kernel,
                                        const KernelFacts &Facts) {
  const FunctionDecl *First = Kernel.getCanonicalDecl();
  const FunctionDecl *Named =
      Kernel.getDefinition() ? Kernel.getDefinition() : First;
  std::vector<std::string> Sizes;
  for (auto [I, Rule] : enumerate(Facts.Rules)) {
    const ParmVarDecl *NamedP = Named->getParamDecl(I);
    if (NamedP == First->getParamDecl(I)) {
      Sizes.push_back(Rule.SizeExpr);
      continue;
    }
    // The definition names the parameter: spell the size with that name.
    ParamClassification NamedC = classifyParameter(*NamedP, isOutParam(*NamedP),
                                                   Ctx, isInParam(*NamedP));
    const auto *NamedRule = std::get_if<ParamRule>(&NamedC);
    Sizes.push_back(NamedRule ? NamedRule->SizeExpr : Rule.SizeExpr);
  }
  return Sizes;
}

std::optional<PlannedCall> planCall(RewriteContext &RC, const CallExpr &CE,
                                    const CheckedCall &Checked,
                                    const KernelInputs &In) {
  const SourceManager &SM = RC.SM;
  SourceLocation Loc = SM.getFileLoc(CE.getBeginLoc());
  std::optional<FileRange> Range = replacedRange(RC, CE, Loc);
  if (!Range)
    return std::nullopt;
  // Replace the `;` too where it follows in the text, so that the block
  // is the statement (`if (c) offload(...); else` stays valid).
  std::optional<unsigned> Semi =
      semicolonAfter(SM, RC.langOpts(), Range->File, Range->End);
  // Without it, `{...};` only reads as one statement inside a block.
  auto [Statement, Holder] = statementOf(RC.Ctx, CE);
  if (!Holder || (!Semi && !isa<CompoundStmt>(Holder))) {
    report(RC.Diags, Loc, DiagId::RewriteCallNotAStatement);
    return std::nullopt;
  }

  PlannedCall Out;
  Out.Statement = Statement;
  LoweredCall &Call = Out.Call;
  Call.Syncs = In.Syncs;
  Call.Warp = In.Warp;
  if (!describeCall(RC, CE, Checked, *Range, Call))
    return std::nullopt;
  if (Semi)
    Range->End = *Semi;
  Out.Range = *Range;

  CallExplanation &Explain = Out.Explain;
  PresumedLoc PLoc = SM.getPresumedLoc(Loc);
  Explain.File = PLoc.getFilename();
  Explain.Line = PLoc.getLine();
  Explain.Column = PLoc.getColumn();
  Explain.Kernel = Call.Kernel;
  Out.Kernel.Name = Call.KernelName;

  // The kernel's facts come from its first declaration; the parameters are
  // named as the definition names them, where there is one.
  const FunctionDecl *First = Checked.Kernel->getCanonicalDecl();
  const FunctionDecl *Named =
      Checked.Kernel->getDefinition() ? Checked.Kernel->getDefinition() : First;
  ASTContext &Ctx = RC.Ctx;
  for (unsigned I = 0; I < Checked.NumArgs; ++I) {
    const ParmVarDecl *P = First->getParamDecl(I);
    const ParamLayout &Layout = In.Facts->Desc.Params[I];
    unsigned ArgIndex = Checked.KernelArg + 1 + I;
    std::optional<LoweredParam> LP =
        lowerParam(RC, *CE.getArg(ArgIndex), ArgIndex, *P,
                   *Named->getParamDecl(I), I, *In.Facts, Call);
    if (!LP)
      return std::nullopt;
    Out.Kernel.Params.push_back(Layout);
    ParamExplanation PE;
    PE.Name = LP->Name;
    Call.Params.push_back(std::move(*LP));
    PE.Type = P->getType().getAsString(Ctx.getPrintingPolicy());
    PE.Row = ruleFor(In.Facts->Rules[I].Row).ParamForm;
    PE.Transfer = mapTypeName(Layout.Map).str();
    PE.Size = In.Sizes[I];
    // A struct of spans: each span field's row, named from the parameter.
    for (auto [F, Plan] : zip_equal(Layout.Fields, In.Facts->Rules[I].Fields)) {
      ParamExplanation FE;
      FE.Name = PE.Name + "." + Plan.Path;
      FE.Type = Plan.Type.getAsString(Ctx.getPrintingPolicy());
      FE.Row = ruleFor(Plan.Row).ParamForm;
      FE.Transfer = mapTypeName(F.Map).str();
      FE.Size = Plan.SizeExpr;
      PE.Fields.push_back(std::move(FE));
    }
    Explain.Params.push_back(std::move(PE));
  }
  if (In.Bound)
    Call.Bound = foldConstants(*In.Bound);
  Explain.Launch = launchWords(Call, Explain.Params);
  return Out;
}

} // namespace rewrite
} // namespace offload
