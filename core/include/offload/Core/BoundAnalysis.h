//===- BoundAnalysis.h - a kernel's bounds check, read ----------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A launch without a grid runs one thread per index the kernel's own bounds
// check admits: the bound that every use of `ofld::global_id(d)` (directly,
// through a variable initialised from it, or CUDA's `block_id(d) *
// block_dim(d) + thread_id(d)`) is held to, in the forms people write:
// `if (i < E) {...}`, `if (i >= E) return;`, `if (i < E && j < F)`, a
// grid-stride `for (i = ofld::global_id(); i < E; i += ...)`. E is what a
// call can compute from the arguments (LaunchBound.h). A read of a thread
// index that no such bound holds makes the dimension Unknown: the launch
// must then give its grid (checkDefaultShape). Part of offloadCore: the
// plugin and offload-rewrite read the same bound.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_BOUNDANALYSIS_H
#define OFFLOAD_CORE_BOUNDANALYSIS_H

#include "offload/Core/LaunchBound.h"

#include "clang/Basic/SourceLocation.h"

#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class DiagnosticsEngine;
class Expr;
class FunctionDecl;
} // namespace clang

namespace offload {

/// What the body showed.
struct BoundAnalysis {
  LaunchBound Bound;
  /// Per dimension that is DimBound::Unknown: the first read of its thread
  /// index that no bound holds.
  clang::SourceLocation Unguarded[3];
};

/// Reads the bound of `Kernel`'s definition; none if this translation unit
/// does not define it (the kernel's own translation unit computes it).
std::optional<BoundAnalysis>
analyseLaunchBound(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

/// A launch that leaves the grid unset of a kernel whose bound is Unknown:
/// an error at the call, with a note at the unguarded read. Returns whether
/// the launch is fine.
bool checkDefaultShape(clang::DiagnosticsEngine &Diags,
                       const clang::CallExpr &Call,
                       const clang::FunctionDecl &Kernel,
                       const BoundAnalysis &Bound);

} // namespace offload

#endif // OFFLOAD_CORE_BOUNDANALYSIS_H
