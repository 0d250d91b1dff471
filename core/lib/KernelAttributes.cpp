//===- KernelAttributes.cpp - offload::kernel, offload::out, offload::in --===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/KernelAttributes.h"
#include "offload/Core/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace offload {

static bool hasAnnotation(const Decl &D, llvm::StringRef Marker) {
  for (const auto *A : D.specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == Marker)
      return true;
  return false;
}

bool isKernel(const FunctionDecl &FD) {
  if (hasAnnotation(FD, KernelMarker))
    return true;
  if (const FunctionDecl *Pattern = FD.getTemplateInstantiationPattern())
    return hasAnnotation(*Pattern, KernelMarker);
  return false;
}

bool isOutParam(const ParmVarDecl &P) { return hasAnnotation(P, OutMarker); }

bool isInParam(const ParmVarDecl &P) { return hasAnnotation(P, InMarker); }

/// The parameter attributes, by marker: their names in messages, whether
/// a parameter has one, and what a diagnostic's %select calls it (0: out,
/// 1: in).
static const struct {
  llvm::StringLiteral Marker, Name;
  bool (*Has)(const ParmVarDecl &);
} ParamAttrs[] = {{OutMarker, "out", isOutParam}, {InMarker, "in", isInParam}};

bool isOutField(const FieldDecl &F) {
  if (hasAnnotation(F, OutMarker))
    return true;
  // A member of a class template specialisation: the attribute is on the
  // pattern's field.
  if (const auto *RD = dyn_cast<CXXRecordDecl>(F.getParent()))
    if (const CXXRecordDecl *Pattern = RD->getTemplateInstantiationPattern())
      for (const FieldDecl *PF : Pattern->fields())
        if (PF->getName() == F.getName() && !F.getName().empty())
          return hasAnnotation(*PF, OutMarker);
  return false;
}

bool checkOutParams(const FunctionDecl &FD, DiagnosticsEngine &Diags) {
  if (FD.getTemplateInstantiationPattern())
    return true;
  bool Kernel = isKernel(FD);
  // Kernels are classified on their first declaration (the plugin may
  // launch one before a later declaration exists), so a later declaration
  // cannot add the attribute.
  const FunctionDecl *First = FD.getFirstDecl();
  bool Ok = true;
  for (const ParmVarDecl *P : FD.parameters())
    for (const auto *A : P->specific_attrs<AnnotateAttr>()) {
      const auto *Attr = llvm::find_if(ParamAttrs, [&](const auto &PA) {
        return PA.Marker == A->getAnnotation();
      });
      // An inherited one was reported at the declaration that wrote it.
      if (Attr == std::end(ParamAttrs) || A->isInherited())
        continue;
      unsigned Which = Attr - std::begin(ParamAttrs);
      if (!Kernel) {
        report(Diags, A->getLocation(), DiagId::OutOnNonKernel)
            << P << &FD << Attr->Name << Which << A->getRange();
        Ok = false;
        continue;
      }
      unsigned I = P->getFunctionScopeIndex();
      if (First == &FD || I >= First->getNumParams() ||
          Attr->Has(*First->getParamDecl(I)))
        continue;
      report(Diags, A->getLocation(), DiagId::OutNotOnFirstDeclaration)
          << P << &FD << Attr->Name << A->getRange();
      report(Diags, First->getLocation(), DiagId::ParamNote) << First;
      Ok = false;
    }
  return Ok;
}

void linkKernelAttributes() {}

namespace {

/// clang parses the arguments of a `[[scope::name(...)]]` attribute only if
/// it knows the attribute, and for plugin attributes it asks with the name
/// alone ("kernel", not "offload::kernel"); otherwise it skips them silently
/// and `[[offload::kernel(3)]]` would be accepted. The unscoped spellings are
/// registered so that the arguments reach us; an unscoped `[[kernel]]` is not
/// ours and is ignored with clang's own warning.
bool isUnscopedSpelling(Sema &S, const ParsedAttr &Attr) {
  if (!Attr.isStandardAttributeSyntax() || Attr.getScopeName())
    return false;
  S.Diag(Attr.getLoc(), diag::warn_unknown_attribute_ignored)
      << Attr << Attr.getRange();
  return true;
}

/// Both attributes take no arguments; say so with our own wording rather
/// than clang's generic one, which cannot name the fix.
bool rejectArguments(Sema &S, const ParsedAttr &Attr, llvm::StringRef Name) {
  if (Attr.getNumArgs() == 0)
    return false;
  auto DB =
      report(S.getDiagnostics(), Attr.getLoc(), DiagId::AttrTakesNoArguments)
      << Name;
  // The fix-it drops the parenthesised list: from the first '(' after the
  // (possibly scoped) name to the end of the attribute.
  const SourceManager &SM = S.getSourceManager();
  SourceLocation End = Attr.getRange().getEnd();
  SourceLocation L = Attr.getLoc();
  if (!L.isFileID() || !End.isFileID())
    return true;
  for (unsigned I = 0; I < 4; ++I) {
    std::optional<Token> T = Lexer::findNextToken(L, SM, S.getLangOpts());
    if (!T || !SM.isBeforeInTranslationUnit(T->getLocation(), End))
      break;
    if (T->is(tok::l_paren)) {
      DB << FixItHint::CreateRemoval(
          CharSourceRange::getTokenRange(T->getLocation(), End));
      break;
    }
    L = T->getLocation();
  }
  return true;
}

struct KernelAttrInfo : ParsedAttrInfo {
  KernelAttrInfo() {
    OptArgs = 15;
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "offload::kernel"},
                                     {ParsedAttr::AS_C23, "offload::kernel"},
                                     {ParsedAttr::AS_GNU, "offload_kernel"},
                                     // See isUnscopedSpelling.
                                     {ParsedAttr::AS_CXX11, "kernel"},
                                     {ParsedAttr::AS_C23, "kernel"}};
    Spellings = S;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isUnscopedSpelling(S, Attr))
      return false;
    if (isa<FunctionDecl, FunctionTemplateDecl>(D))
      return true;
    report(S.getDiagnostics(), Attr.getLoc(), DiagId::KernelAttrWrongSubject);
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    if (rejectArguments(S, Attr, "kernel"))
      return AttributeNotApplied;
    // A closure's call operator has no name offload() could be given.
    if (const auto *MD = dyn_cast<CXXMethodDecl>(D);
        MD && MD->getParent()->isLambda()) {
      report(S.getDiagnostics(), Attr.getLoc(), DiagId::KernelIsLambda);
      return AttributeNotApplied;
    }
    FunctionDecl *FD = D->getAsFunction();
    if (!FD || hasAnnotation(*FD, KernelMarker))
      return AttributeApplied;
    FD->addAttr(AnnotateAttr::CreateImplicit(S.Context, KernelMarker, nullptr,
                                             0, Attr.getRange()));
    return AttributeApplied;
  }
};

/// [[offload::out]] and [[offload::in]]: on a parameter, an annotation
/// with the attribute's marker; what it means is the transfer table's.
struct ParamAttrInfo : ParsedAttrInfo {
  llvm::StringLiteral Name, Marker;

  ParamAttrInfo(llvm::StringLiteral Name, llvm::StringLiteral Marker)
      : Name(Name), Marker(Marker) {
    OptArgs = 15;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isUnscopedSpelling(S, Attr))
      return false;
    if (isa<ParmVarDecl>(D))
      return true;
    // A span field of a kernel parameter's class: its elements come back
    // only (TransferRules.cpp, the aggregate rule). [[offload::in]] is for
    // parameters alone.
    if (const auto *F = dyn_cast<FieldDecl>(D); F && Name == "out") {
      QualType T = F->getType();
      const auto *RD = T->getAsCXXRecordDecl();
      if (T->isDependentType() ||
          (RD && RD->isInStdNamespace() && RD->getName() == "span"))
        return true;
    }
    report(S.getDiagnostics(), Attr.getLoc(), DiagId::OutAttrWrongSubject)
        << Name << (Name == "out" ? 0 : 1);
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    if (rejectArguments(S, Attr, Name))
      return AttributeNotApplied;
    D->addAttr(AnnotateAttr::CreateImplicit(S.Context, Marker, nullptr, 0,
                                            Attr.getRange()));
    return AttributeApplied;
  }
};

struct OutAttrInfo : ParamAttrInfo {
  OutAttrInfo() : ParamAttrInfo("out", OutMarker) {
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "offload::out"},
                                     {ParsedAttr::AS_C23, "offload::out"},
                                     {ParsedAttr::AS_GNU, "offload_out"},
                                     // See isUnscopedSpelling.
                                     {ParsedAttr::AS_CXX11, "out"},
                                     {ParsedAttr::AS_C23, "out"}};
    Spellings = S;
  }
};

struct InAttrInfo : ParamAttrInfo {
  InAttrInfo() : ParamAttrInfo("in", InMarker) {
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "offload::in"},
                                     {ParsedAttr::AS_C23, "offload::in"},
                                     {ParsedAttr::AS_GNU, "offload_in"},
                                     // See isUnscopedSpelling.
                                     {ParsedAttr::AS_CXX11, "in"},
                                     {ParsedAttr::AS_C23, "in"}};
    Spellings = S;
  }
};

} // namespace
} // namespace offload

static clang::ParsedAttrInfoRegistry::Add<offload::KernelAttrInfo>
    KernelAttr("offload-kernel", "marks an offload kernel");
static clang::ParsedAttrInfoRegistry::Add<offload::OutAttrInfo>
    OutAttr("offload-out", "marks a kernel parameter as device-written only");
static clang::ParsedAttrInfoRegistry::Add<offload::InAttrInfo>
    InAttr("offload-in", "marks a kernel parameter as copied in only");
