//===- CallWalker.h - kernels and offload() calls of a TU -------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The plugin and offload-rewrite must find the same kernels and calls, check
// each kernel's declaration once, put off a declaration whose parameter types
// are not complete yet, and see calls in the same order, or they would report
// different errors for one program. CallWalker is that walk: it visits
// declarations, hands what it finds to the subclass (the plugin's consumer,
// the rewriter's), and keeps the kernel memo both read.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_CALLWALKER_H
#define OFFLOAD_CORE_CALLWALKER_H

#include "offload/Core/KernelDescriptor.h"
#include "offload/Core/TransferRules.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <set>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class CompoundStmt;
class Decl;
class DiagnosticsEngine;
class FunctionDecl;
class RecoveryExpr;
} // namespace clang

namespace offload {

/// What a kernel's declaration says, checked once (checkKernelDeclaration on
/// its first declaration).
struct KernelFacts {
  /// The parameters' layouts: what moves, and how.
  KernelDescriptor Desc;
  /// The transfer table's row for each parameter (Desc.Params' source).
  llvm::SmallVector<ParamRule, 8> Rules;
};

/// Whether `FD` is one of offload.hpp's offload() entry points: a template
/// named `offload` at global scope.
bool isOffloadEntry(const clang::FunctionDecl &FD);

/// Walks declarations and hands their kernels, functions, blocks and
/// offload() calls to the subclass, in source order.
class CallWalker {
public:
  /// Where a call was found.
  enum class CallKind {
    Written,      ///< as written (in a function or a template)
    Dependent,    ///< in a template, with dependent arguments: unresolved
    Instantiated, ///< in an instantiation (only with VisitInstantiations)
  };

  /// `VisitInstantiations`: visit the instantiations of the templates walked
  /// for their calls (which come last, from handOutInstantiatedCalls), not
  /// for their declarations; without it, an instantiation is walked only
  /// where it is handed to walk() (as Sema hands it to a consumer).
  CallWalker(clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
             bool VisitInstantiations);
  virtual ~CallWalker();

  /// Visits `D`, handing out what it finds in source order.
  void walk(clang::Decl *D);

  /// Hands out the calls that walk() found in instantiations, once each,
  /// leaving out those written outside a template (a call that is not
  /// dependent is the same in every instantiation: walked as written).
  void handOutInstantiatedCalls();

  /// The facts of kernel `K`, checked once per translation unit; null where
  /// its declaration was refused. Where `Needed` is false (a declaration
  /// that is not a definition) and a parameter type is still incomplete, it
  /// is not checked now but where a definition or a launch needs it: null.
  const KernelFacts *kernel(const clang::FunctionDecl &K, bool Needed = true);

  /// Every kernel checked so far (first declarations), refused ones too.
  llvm::SmallVector<const clang::FunctionDecl *, 16> checkedKernels() const;

protected:
  clang::ASTContext &Ctx;
  clang::DiagnosticsEngine &Diags;

  /// A kernel's declaration (not one inside an instantiation walked for its
  /// calls).
  virtual void kernelFound(clang::FunctionDecl &FD) {}
  /// Any other function's declaration, likewise.
  virtual void functionFound(clang::FunctionDecl &FD) {}
  /// A block, before the calls in it.
  virtual void blockFound(clang::CompoundStmt &CS) {}
  /// An offload() call; `Enclosing` is the innermost function walked around
  /// it (a lambda's body belongs to the function that writes it).
  virtual void callFound(clang::CallExpr &CE, clang::FunctionDecl *Enclosing,
                         CallKind Kind) {}
  /// An expression clang could not resolve (maybe an offload() call).
  virtual void unresolvedFound(clang::RecoveryExpr &RE) {}
  /// Before kernel `K`'s declaration is checked (the plugin completes its
  /// parameter types there).
  virtual void beforeKernelCheck(const clang::FunctionDecl &K) {}
  /// After `K`'s declaration passed: adds what the subclass needs to
  /// `Facts`; false refuses the kernel.
  virtual bool kernelChecked(const clang::FunctionDecl &K, KernelFacts &Facts) {
    return true;
  }

private:
  class Visitor;
  friend class Visitor;

  const bool VisitInstantiations;
  /// Keyed by first declaration; nullopt: refused (or being checked).
  llvm::DenseMap<const clang::FunctionDecl *, std::optional<KernelFacts>>
      Kernels;
  /// Calls found in instantiations, for handOutInstantiatedCalls.
  std::vector<std::pair<clang::CallExpr *, clang::FunctionDecl *>>
      InstantiatedCalls;
  /// Where the calls found as written begin.
  std::set<clang::SourceLocation> WrittenCalls;
};

} // namespace offload

#endif // OFFLOAD_CORE_CALLWALKER_H
