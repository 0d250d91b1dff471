//===- RegionConstness.h - writes to read-only ranges -----------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
//   ofld::region r{std::span<const float>(v)};
//   offload(set_one, v);   // set_one(std::span<float>): writes v
//
// The region maps v to the device only, the kernel writes it. On the CPU the
// kernel writes v itself; so that every path ends alike, the runtime copies
// such writes back at the region's end (Residency.cpp; omp_bridge.hpp for
// rewritten code). The const is most likely a mistake either way: this warns
// where the plugin (or offload-rewrite) sees region and launch in one
// function; the runtime warns once for the others.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_REGIONCONSTNESS_H
#define OFFLOAD_CORE_REGIONCONSTNESS_H

#include "offload/Core/KernelDescriptor.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class DiagnosticsEngine;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace offload {

/// A valid launch: its kernel, the kernel's descriptor and the index of the
/// call's first kernel argument.
struct LaunchInfo {
  const clang::FunctionDecl *Kernel;
  const KernelDescriptor *Desc;
  unsigned FirstArg;
};
using LaunchOfFn =
    llvm::function_ref<std::optional<LaunchInfo>(const clang::CallExpr &)>;

/// Warns at each launch in `Body` that passes a variable to a parameter the
/// kernel writes, where an ofld::region declared before it in an enclosing
/// block maps that variable as std::span<const T>; adds the launches it
/// warned about to `Warned`.
void checkRegionConstness(
    const clang::Stmt &Body, clang::ASTContext &Ctx,
    clang::DiagnosticsEngine &Diags, LaunchOfFn LaunchOf,
    llvm::SmallPtrSetImpl<const clang::CallExpr *> &Warned);

} // namespace offload

#endif // OFFLOAD_CORE_REGIONCONSTNESS_H
