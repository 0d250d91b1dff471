//===- CallShape.h - offload() calls clang could not resolve ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// offload() is a function template whose parameter types come from the
// kernel: a kernel template named without its arguments, an overload set, a
// wrong argument count or type leave clang without a candidate, and clang's
// notes then talk about the header (deduced packs, the hidden descriptor
// parameter). Clang still keeps the call in the AST (a RecoveryExpr); this
// file holds clang's error back until the consumer has looked at that call,
// and replaces it with one error in the user's terms. Shared by the plugin
// and offload-rewrite, which must say the same.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_CALLSHAPE_H
#define OFFLOAD_CORE_CALLSHAPE_H

#include "clang/Basic/Diagnostic.h"

#include <memory>
#include <vector>

namespace clang {
class Expr;
class RecoveryExpr;
class Sema;
} // namespace clang

namespace offload {

/// Wraps a diagnostics engine's client and holds back clang's "no matching
/// function for call to 'offload'" with its notes, until the consumer either
/// reports the call itself (`drop`) or lets clang's words through
/// (`release`).
class UnresolvedLaunchFilter final : public clang::DiagnosticConsumer {
public:
  /// Installs a filter in front of `Diags`' client; the engine owns it.
  /// `ErrorLimit` is the engine's (-ferror-limit, 0 for none).
  static UnresolvedLaunchFilter &install(clang::DiagnosticsEngine &Diags,
                                         unsigned ErrorLimit);

  /// Whether clang's error for the call that starts at `Loc` is held.
  bool holds(clang::SourceLocation Loc) const;
  /// Drops one held error at `Loc` and its notes about the candidates in
  /// `Header` (where offload() is declared): the caller has reported the
  /// call instead.
  void drop(clang::SourceLocation Loc, clang::FileID Header);
  /// Passes every held diagnostic on, in order.
  void release();

  void clear() override;
  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void finish() override;
  bool IncludeInDiagnosticCounts() const override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

private:
  UnresolvedLaunchFilter(clang::DiagnosticsEngine &Diags,
                         clang::DiagnosticConsumer *Inner,
                         std::unique_ptr<clang::DiagnosticConsumer> Owned,
                         unsigned ErrorLimit);
  void forward(clang::DiagnosticsEngine::Level Level,
               const clang::Diagnostic &Info);
  void forwardStored(const clang::StoredDiagnostic &SD);
  void syncCounts();

  clang::DiagnosticsEngine &Diags;
  clang::DiagnosticConsumer *Inner;
  std::unique_ptr<clang::DiagnosticConsumer> Owned;
  /// Each held error with the notes that followed it.
  std::vector<std::vector<clang::StoredDiagnostic>> Held;
  bool Holding = false;
  unsigned ErrorLimit;
};

/// If `RE` is an offload() call that overload resolution rejected and
/// `Filter` holds clang's error for it, reports what is wrong with the call
/// in its place. Leaves clang's error held otherwise.
void diagnoseUnresolvedLaunch(clang::Sema &S, UnresolvedLaunchFilter &Filter,
                              const clang::RecoveryExpr &RE);

} // namespace offload

#endif // OFFLOAD_CORE_CALLSHAPE_H
