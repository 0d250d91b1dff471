//===- DeviceConstants.h - constants read on the device --------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Namespace- and class-scope constants (`constexpr std::array<int, 8> perm`,
// `const float w[5]`, `static constexpr` members, `inline constexpr`
// variables) that device code reads need a copy in the device image, as if
// they were declared inside `#pragma omp declare target`. The kernel body
// checks find them (KernelBodyChecks.h); this file gives them the copy.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_SEMA_DEVICECONSTANTS_H
#define OFFLOAD_SEMA_DEVICECONSTANTS_H

#include "llvm/ADT/ArrayRef.h"

namespace clang {
class ASTContext;
class VarDecl;
} // namespace clang

namespace offload {

/// Marks each of `Constants` for a copy in the device image. Must run before
/// CodeGen finishes the translation unit (its deferred declare-target
/// globals are emitted then).
void copyConstantsToDevice(clang::ASTContext &Ctx,
                           llvm::ArrayRef<const clang::VarDecl *> Constants);

} // namespace offload

#endif // OFFLOAD_SEMA_DEVICECONSTANTS_H
