//===- KernelAttributes.cpp - [[offload::kernel]] and [[offload::out]] ----===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "KernelAttributes.h"
#include "Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
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

void linkKernelAttributes() {}

namespace {

/// Both attributes take no arguments; say so with our own wording rather
/// than clang's generic one, which cannot name the fix.
bool rejectArguments(Sema &S, const ParsedAttr &Attr, llvm::StringRef Name) {
  if (Attr.getNumArgs() == 0)
    return false;
  report(S.getDiagnostics(), Attr.getLoc(), DiagId::AttrTakesNoArguments)
      << Name;
  return true;
}

struct KernelAttrInfo : ParsedAttrInfo {
  KernelAttrInfo() {
    OptArgs = 15;
    static constexpr Spelling S[] = {
        {ParsedAttr::AS_CXX11, "offload::kernel"},
        {ParsedAttr::AS_C23, "offload::kernel"},
        {ParsedAttr::AS_GNU, "offload_kernel"}};
    Spellings = S;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isa<FunctionDecl, FunctionTemplateDecl>(D))
      return true;
    report(S.getDiagnostics(), Attr.getLoc(), DiagId::KernelAttrWrongSubject);
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    if (rejectArguments(S, Attr, "kernel"))
      return AttributeNotApplied;
    FunctionDecl *FD = D->getAsFunction();
    if (!FD || hasAnnotation(*FD, KernelMarker))
      return AttributeApplied;
    FD->addAttr(AnnotateAttr::CreateImplicit(S.Context, KernelMarker, nullptr,
                                             0, Attr.getRange()));
    return AttributeApplied;
  }
};

struct OutAttrInfo : ParsedAttrInfo {
  OutAttrInfo() {
    OptArgs = 15;
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "offload::out"},
                                     {ParsedAttr::AS_C23, "offload::out"},
                                     {ParsedAttr::AS_GNU, "offload_out"}};
    Spellings = S;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isa<ParmVarDecl>(D))
      return true;
    report(S.getDiagnostics(), Attr.getLoc(), DiagId::OutAttrWrongSubject);
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    if (rejectArguments(S, Attr, "out"))
      return AttributeNotApplied;
    D->addAttr(AnnotateAttr::CreateImplicit(S.Context, OutMarker, nullptr, 0,
                                            Attr.getRange()));
    return AttributeApplied;
  }
};

} // namespace
} // namespace offload

static clang::ParsedAttrInfoRegistry::Add<offload::KernelAttrInfo>
    KernelAttr("offload-kernel", "marks an offload kernel");
static clang::ParsedAttrInfoRegistry::Add<offload::OutAttrInfo>
    OutAttr("offload-out", "marks a kernel parameter as device-written only");
