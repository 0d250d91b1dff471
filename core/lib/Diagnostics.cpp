//===- Diagnostics.cpp - the offload diagnostic table ---------------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "offload/Core/Diagnostics.h"

namespace offload {

unsigned getClangDiagID(clang::DiagnosticsEngine &Diags, DiagId Id) {
  using Level = clang::DiagnosticsEngine::Level;
  struct Row {
    Level L;
    const char *Format;
  };
  static constexpr Row Rows[] = {
#define OFFLOAD_DIAG(Name, Lvl, Format) {clang::DiagnosticsEngine::Lvl, Format},
#include "offload/Core/Diagnostics.def"
#undef OFFLOAD_DIAG
  };
  const Row &R = Rows[static_cast<unsigned>(Id)];
  // getCustomDiagID interns by (level, text), so asking again is cheap and
  // the same engine always hands back the same ID.
  return Diags.getDiagnosticIDs()->getCustomDiagID(
      static_cast<clang::DiagnosticIDs::Level>(R.L), R.Format);
}

} // namespace offload
