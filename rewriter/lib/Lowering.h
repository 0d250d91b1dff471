//===- Lowering.h - the OpenMP text of one offload() call -------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Spells the replacement of one offload() call and the declare target
// brackets of a kernel. Pure text: the AST side (OffloadRewriter.cpp) has
// already asked the transfer table what each parameter needs.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_REWRITER_LOWERING_H
#define OFFLOAD_REWRITER_LOWERING_H

#include "KernelDescriptor.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace offload {
namespace rewrite {

/// Marks every rewritten call, so that a reader (and grep) can find them.
inline constexpr llvm::StringLiteral CallMarker = "offload-rewrite:";

/// One kernel parameter as the call passes it.
struct LoweredParam {
  /// Declarator of the host-side parameter object, name included, e.g.
  /// `std::span<const float> __ofld_p1` or `const int (&__ofld_p2)[4]`.
  std::string Declarator;
  /// The call's argument, as spelled in the source.
  std::string Argument;
  /// The argument is a temporary that the parameter only views (a span of
  /// a temporary container): bind it first, so that it lives as long as
  /// the launch, as it does for the duration of the offload() call.
  bool KeepTemporary = false;
  PayloadKind Kind = PayloadKind::Value;
  MapKind Map = MapKind::Literal;
  /// Object arrays: element count (the default launch shape uses it).
  uint64_t Count = 0;
  bool IsArrayLike = false;
};

/// One offload() call.
struct LoweredCall {
  /// Leading whitespace of the line the call starts on.
  std::string Indent;
  /// The call as written, for the marker comment.
  std::string Original;
  /// How the kernel is named at the call (`saxpy`, `scale<float>`).
  std::string Kernel;
  /// The ofld::launch argument, if the call has one.
  std::optional<std::string> Launch;
  std::vector<LoweredParam> Params;
  /// The call sits inside a macro argument: no `#pragma` lines there, so
  /// use `_Pragma`, and keep the text free of top-level commas.
  bool InMacroArgument = false;
};

/// Name of parameter object `I` in the rewritten block.
std::string paramName(unsigned I);

/// The block that replaces the call (and its `;`).
std::string lowerCall(const LoweredCall &Call);

/// Whether `Text` has a comma outside (), [] and literals: such text would
/// split a macro argument.
bool hasTopLevelComma(llvm::StringRef Text);

/// Directive lines placed around a kernel declaration.
std::string declareTargetBegin(llvm::StringRef Indent);
std::string declareTargetEnd(llvm::StringRef Indent);

/// The include every rewritten file gets; `Angled` follows the file's own
/// spelling of the offload.hpp include.
std::string bridgeInclude(bool Angled);

} // namespace rewrite
} // namespace offload

#endif // OFFLOAD_REWRITER_LOWERING_H
