//===- LaunchGroups.h - consecutive launches that share data ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// `offload(a, x); offload(b, x, y); offload(c, x);` maps x once: no host code
// runs between the launches, so nothing on the host can see x in between and
// the copies back and in again are pure cost. Launches with a configuration
// (`offload(ofld::launch{.grid = g}, a, x)`) join too, where it keeps the
// default device, queue and waiting (LaunchGroups.cpp). This finds such groups
// in a block; the host lowering then maps the shared ranges before the first
// launch and copies them back after the last (LaunchGroup in
// KernelDescriptor.h).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_LAUNCHGROUPS_H
#define OFFLOAD_CORE_LAUNCHGROUPS_H

#include "offload/Core/KernelDescriptor.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class CallExpr;
class CompoundStmt;
class Expr;
class VarDecl;
} // namespace clang

namespace offload {

/// The descriptor of the kernel a call launches, if it is an offload() call
/// (with or without a launch configuration) whose kernel is valid; null
/// otherwise. Where the kernel's arguments begin is launchedKernel's
/// (LaunchChecks.h).
using LaunchKernelFn =
    llvm::function_ref<const KernelDescriptor *(const clang::CallExpr &)>;

/// Adds to `Groups` every call of `Block` that joins a launch group, with
/// ids from `NextId`.
void findLaunchGroups(
    const clang::CompoundStmt &Block, LaunchKernelFn KernelOf, unsigned &NextId,
    llvm::DenseMap<const clang::CallExpr *, LaunchGroup> &Groups);

/// The variable whose whole object (or, through a span made of it, whose
/// elements) an argument maps; null for anything else. A group holds only
/// such variables.
const clang::VarDecl *heldVariable(const clang::Expr &Arg);

/// The object an argument maps, under a span made of it (`std::span<float>(
/// v)`, an implicit conversion) and casts: `v` for all of these.
const clang::Expr &mappedObject(const clang::Expr &Arg);

} // namespace offload

#endif // OFFLOAD_CORE_LAUNCHGROUPS_H
