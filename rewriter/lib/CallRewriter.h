//===- CallRewriter.h - one offload() call, checked and planned -*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Checks an offload() call as the plugin does (the same functions, in the
// plugin's order) and plans its replacement: which text it replaces, how
// each argument binds to its parameter, what the transfer table says about
// it (LoweredCall, for Lowering.cpp), and what --explain prints.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_REWRITER_CALLREWRITER_H
#define OFFLOAD_REWRITER_CALLREWRITER_H

#include "Lowering.h"
#include "RewriteContext.h"
#include "SourceText.h"

#include "offload/Core/CallWalker.h"
#include "offload/Core/KernelDescriptor.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace offload {
namespace rewrite {

/// A call that passed the plugin's checks.
struct CheckedCall {
  const clang::FunctionDecl *Kernel = nullptr;
  /// Index of the kernel among the call's arguments (1 after a launch).
  unsigned KernelArg = 0;
  /// The kernel's arguments.
  unsigned NumArgs = 0;
};

/// Checks a kernel's declaration once per translation unit and says whether
/// it can be launched (the consumer's cache; `Needed`: see KernelChecks).
using KernelCheck =
    llvm::function_ref<bool(const clang::FunctionDecl &Kernel, bool Needed)>;

/// Checks one call, written in `Enclosing`, as the plugin does, in the
/// plugin's order. `Launched` collects every kernel a call names (for the
/// body checks).
std::optional<CheckedCall>
checkCall(RewriteContext &RC, const clang::CallExpr &CE,
          const clang::FunctionDecl *Enclosing, KernelCheck Check,
          std::vector<const clang::FunctionDecl *> &Launched);

/// A call ready to be replaced.
struct PlannedCall {
  /// The text replaced: the call and the `;` after it, where there is one.
  FileRange Range;
  LoweredCall Call;
  CallExplanation Explain;
  /// The kernel's transfers, for launch groups.
  KernelDescriptor Kernel;
  /// The statement the call is (its parent is a CompoundStmt for groups).
  const clang::Stmt *Statement = nullptr;
};

/// What planCall reads about a call's kernel, found once per kernel.
struct KernelInputs {
  /// The kernel's declaration, checked (CallWalker's memo): what each
  /// parameter moves, and how.
  const KernelFacts *Facts = nullptr;
  /// Per parameter, the size expression --explain prints (explainedSizes).
  llvm::ArrayRef<std::string> Sizes;
  /// The kernel synchronises its blocks; it calls warp functions.
  bool Syncs = false, Warp = false;
  /// What the kernel's bounds check admits, null where the call cannot
  /// spell it (the kernel is defined in another file, after the call or in
  /// another translation unit).
  const LaunchBound *Bound = nullptr;
};

/// The size expression of each parameter of `Kernel` for --explain, spelled
/// with the names its definition gives the parameters.
std::vector<std::string> explainedSizes(clang::ASTContext &Ctx,
                                        const clang::FunctionDecl &Kernel,
                                        const KernelFacts &Facts);

/// Plans the replacement of a checked call, or reports (a row of
/// Diagnostics.def) why it cannot be spelled.
std::optional<PlannedCall> planCall(RewriteContext &RC,
                                    const clang::CallExpr &CE,
                                    const CheckedCall &Checked,
                                    const KernelInputs &Kernel);

} // namespace rewrite
} // namespace offload

#endif // OFFLOAD_REWRITER_CALLREWRITER_H
