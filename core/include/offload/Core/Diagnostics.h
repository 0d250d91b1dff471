//===- Diagnostics.h - the offload diagnostic table -------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_DIAGNOSTICS_H
#define OFFLOAD_CORE_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"

namespace offload {

enum class DiagId : unsigned {
#define OFFLOAD_DIAG(Name, Level, Format) Name,
#include "offload/Core/Diagnostics.def"
#undef OFFLOAD_DIAG
};

/// Registers (once per engine) and returns the clang diagnostic ID of a row.
unsigned getClangDiagID(clang::DiagnosticsEngine &Diags, DiagId Id);

/// Starts a diagnostic of the table at `Loc`.
inline clang::DiagnosticBuilder report(clang::DiagnosticsEngine &Diags,
                                       clang::SourceLocation Loc, DiagId Id) {
  return Diags.Report(Loc, getClangDiagID(Diags, Id));
}

} // namespace offload

#endif // OFFLOAD_CORE_DIAGNOSTICS_H
