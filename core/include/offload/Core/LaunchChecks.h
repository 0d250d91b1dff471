//===- LaunchChecks.h - what an offload() call may not do -------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The checks of a launch: the parts of an `ofld::launch` shape that are
// known at compile time. Every diagnostic is a row of Diagnostics.def. Part
// of offloadCore: the plugin and offload-rewrite both run these checks and
// report the same errors.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_LAUNCHCHECKS_H
#define OFFLOAD_CORE_LAUNCHCHECKS_H

namespace clang {
class ASTContext;
class DiagnosticsEngine;
class Expr;
} // namespace clang

namespace offload {

/// Checks the `ofld::launch` argument of a shaped offload() call: components
/// known at compile time must be launchable. Returns whether it was fine.
bool checkLaunchShape(clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
                      const clang::Expr *Shape);

} // namespace offload

#endif // OFFLOAD_CORE_LAUNCHCHECKS_H
