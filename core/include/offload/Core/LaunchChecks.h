//===- LaunchChecks.h - offload() calls and their kernels -------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The checks of a launch and of the kernel it names: the kernel's
// declaration (its signature and the transfer table), the call (what it
// names, where it is, its arguments) and the parts of an `ofld::launch` shape
// that are known at compile time. Every diagnostic is a row of
// Diagnostics.def. Part of offloadCore: the plugin and offload-rewrite both
// call these functions, so they report the same errors in the same order.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_LAUNCHCHECKS_H
#define OFFLOAD_CORE_LAUNCHCHECKS_H

#include "offload/Core/KernelDescriptor.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class DeclRefExpr;
class DiagnosticsEngine;
class Expr;
class FunctionDecl;
} // namespace clang

namespace offload {

struct ParamRule;

/// The offload() overload a call goes through, told apart by the marker
/// symbol (asm label) offload.hpp gives each; None for any other function.
enum class LaunchForm { None, Plain, Shaped };
LaunchForm launchFormOf(const clang::FunctionDecl *Callee);

/// The reference that names the kernel of a launch (`k`, `&k`, `ns::k`,
/// `k<T>`, or one overload picked by a cast to its own type,
/// `static_cast<void (*)(P...)>(k)`), and the function it names; null for
/// anything else (a pointer whose target is only known at run time).
const clang::DeclRefExpr *kernelReference(const clang::Expr &E);
const clang::FunctionDecl *namedKernel(const clang::Expr &E);

/// The kernel an offload() call launches and the index of its first kernel
/// argument (after the kernel, and the shape of a shaped launch); none for
/// another call, a type-dependent one, or a kernel not named statically.
struct LaunchedKernel {
  const clang::FunctionDecl *Kernel;
  unsigned FirstArg;
};
std::optional<LaunchedKernel> launchedKernel(const clang::CallExpr &CE);

/// Whether an offload() declaration ends in the hidden `__ofld_site`
/// parameter that the plugin fills with the call-site descriptor.
bool hasSiteParameter(const clang::FunctionDecl &Entry);

/// Whether `E` is the call-site descriptor the plugin writes into a call's
/// hidden `__ofld_site` argument (found again where a template's
/// instantiation copies the call).
bool isCallSiteDescriptor(const clang::Expr &E);

/// Whether a parameter type of `Kernel` is still incomplete: a declaration
/// is then judged where its definition or a launch needs it, not where it is
/// declared.
bool hasIncompleteParameter(const clang::FunctionDecl &Kernel,
                            clang::ASTContext &Ctx);

/// Checks a kernel's declaration (pass the first one): the signature rules,
/// then the transfer table for each parameter, reporting every violation.
/// Returns the kernel's name and parameter layouts (no thunks), or nothing
/// when it reported a violation. `Rules`, if given, receives each
/// parameter's row of the transfer table.
std::optional<KernelDescriptor>
checkKernelDeclaration(const clang::FunctionDecl &Kernel,
                       clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
                       llvm::SmallVectorImpl<ParamRule> *Rules = nullptr);

/// What checkLaunchCall found.
struct CheckedLaunch {
  /// The kernel the call names, once it names one, also where a later check
  /// failed (its body is still checked).
  const clang::FunctionDecl *Kernel = nullptr;
  bool Ok = false;
};

/// Checks an offload() call whose kernel is argument `KernelArg` (1 after a
/// launch shape) and which is written in `Enclosing`, reporting the first
/// problem, in this order: the kernel argument names no function, or no
/// kernel; the call is inside a kernel; the launch shape (checkLaunchShape);
/// an argument fills the hidden `__ofld_site` parameter (one too many for
/// the kernel); `KernelIsValid` (the caller's cached
/// checkKernelDeclaration) says the kernel cannot be launched.
CheckedLaunch checkLaunchCall(
    clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
    const clang::CallExpr &CE, unsigned KernelArg,
    const clang::FunctionDecl *Enclosing,
    llvm::function_ref<bool(const clang::FunctionDecl &)> KernelIsValid);

/// Checks the `ofld::launch` argument of a shaped offload() call: components
/// known at compile time must be launchable. Returns whether it was fine.
bool checkLaunchShape(clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
                      const clang::Expr *Shape);

/// Whether a launch leaves the grid to the kernel's bounds check: `Shape` is
/// null (a call without an `ofld::launch`) or an `ofld::launch{...}` that
/// does not set `.grid`. False where only the running program knows (a
/// launch held in a variable): the runtime checks it there.
bool leavesGridUnset(const clang::Expr *Shape);

} // namespace offload

#endif // OFFLOAD_CORE_LAUNCHCHECKS_H
