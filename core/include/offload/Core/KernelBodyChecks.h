//===- KernelBodyChecks.h - what a kernel body may not do -------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Checks beyond the kernel's signature: the statements of a kernel (and of
// the functions it calls that this translation unit defines) that cannot run
// on a device (launches: LaunchChecks.h). The rules and the reasons are in
// the .cpp file; every diagnostic is a row of Diagnostics.def. Part of
// offloadCore: the plugin and offload-rewrite both run these checks and
// report the same errors.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_KERNELBODYCHECKS_H
#define OFFLOAD_CORE_KERNELBODYCHECKS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class ASTContext;
class DiagnosticsEngine;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace offload {

/// What the kernel bodies showed.
struct KernelBodies {
  bool Ok = true;
  /// The namespace- and class-scope constants that device code reads (and
  /// those their initialisers point to), in source order: each needs a copy
  /// in the device image (DeviceConstants.h).
  llvm::SmallVector<const clang::VarDecl *, 8> Constants;
};

/// Checks the bodies of `Kernels` once the translation unit is complete (so
/// that callees defined further down and template instantiations exist).
/// Kernels without a definition are skipped; each function body is checked
/// once, for the first kernel that reaches it.
KernelBodies
analyseKernelBodies(clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
                    llvm::ArrayRef<const clang::FunctionDecl *> Kernels);

/// The checks alone: whether all kernel bodies were fine.
inline bool
checkKernelBodies(clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
                  llvm::ArrayRef<const clang::FunctionDecl *> Kernels) {
  return analyseKernelBodies(Ctx, Diags, Kernels).Ok;
}

} // namespace offload

#endif // OFFLOAD_CORE_KERNELBODYCHECKS_H
