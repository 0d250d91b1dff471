//===- KernelAttributes.h - offload::kernel, out and in ---------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The attributes are registered with clang's ParsedAttrInfoRegistry by
// linking KernelAttributes.cpp; the plugin and offload-rewrite both do. They
// lower to annotations, which survive template instantiation and reach IR.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_KERNELATTRIBUTES_H
#define OFFLOAD_CORE_KERNELATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

namespace clang {
class Decl;
class DiagnosticsEngine;
class FieldDecl;
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace offload {

/// Annotation strings the attributes leave on declarations.
inline constexpr llvm::StringLiteral KernelMarker = "offload.kernel";
inline constexpr llvm::StringLiteral OutMarker = "offload.out";
inline constexpr llvm::StringLiteral InMarker = "offload.in";

/// Whether `FD` (or the template it was instantiated from) is a kernel.
bool isKernel(const clang::FunctionDecl &FD);
/// Whether a kernel parameter carries [[offload::out]].
bool isOutParam(const clang::ParmVarDecl &P);
/// Whether a kernel parameter carries [[offload::in]].
bool isInParam(const clang::ParmVarDecl &P);
/// Whether a std::span field carries [[offload::out]] (on the field of the
/// class template, for a member of a specialisation).
bool isOutField(const clang::FieldDecl &F);

/// Reports [[offload::out]] or [[offload::in]] written on a parameter of `FD`
/// when `FD` is not a kernel, or when `FD` is a later declaration of a kernel
/// whose first declaration lacks it: the attribute cannot tell that when it is
/// parsed (the function does not exist yet), so the plugin and offload-rewrite
/// call this for every function they see. Template instantiations are skipped
/// (their pattern is checked). Returns whether there was nothing to report.
bool checkOutParams(const clang::FunctionDecl &FD,
                    clang::DiagnosticsEngine &Diags);

/// Forces the registration object file to be linked into a tool.
void linkKernelAttributes();

} // namespace offload

#endif // OFFLOAD_CORE_KERNELATTRIBUTES_H
