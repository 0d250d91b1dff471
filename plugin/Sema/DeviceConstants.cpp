//===- DeviceConstants.cpp - constants kernels read, copied to the device -===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Clang's OpenMP code generation emits a global into a device image only if
// it is `declare target`; any other global device code names becomes an
// undefined symbol (`undefined reference to 'perm'` on the host offload
// target, nvlink's `Undefined reference to '_ZL4perm'` on sm_90). Scalar
// constexpr arrays happened to work because clang folds their reads into a
// private copy; class types (std::array) and `const` (not constexpr) arrays
// did not.
//
// The fix is the one OpenMP prescribes: the constant becomes `declare target`
// (to/enter, any device), implicitly, on the host and device compiles alike.
// CodeGen keeps the globals it skipped on the device and emits those that
// became declare target when it finishes the translation unit, which is
// after the plugin's end-of-translation-unit checks: the plugin's consumer
// runs before CodeGen's. An internal constant (namespace-scope `const` and
// `constexpr` variables) gets a private copy in each image and no offload
// entry; an externally visible one (`inline constexpr`, static data members)
// one copy per image, registered like any declare-target global. Only
// constants qualify (the body checks reject other globals): the host never
// updates a device copy, and a constant never needs it to.
//
//===----------------------------------------------------------------------===//

#include "DeviceConstants.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"

using namespace clang;

namespace offload {

void copyConstantsToDevice(ASTContext &Ctx,
                           llvm::ArrayRef<const VarDecl *> Constants) {
  for (const VarDecl *Constant : Constants)
    // Every redeclaration: CodeGen asks whichever it holds.
    for (VarDecl *VD : const_cast<VarDecl *>(Constant)->redecls()) {
      if (VD->hasAttr<OMPDeclareTargetDeclAttr>())
        continue;
      VD->addAttr(OMPDeclareTargetDeclAttr::CreateImplicit(
          Ctx, OMPDeclareTargetDeclAttr::MT_To,
          OMPDeclareTargetDeclAttr::DT_Any, /*IndirectExpr=*/nullptr,
          /*Indirect=*/false, /*Level=*/0, VD->getSourceRange()));
    }
}

} // namespace offload
