//===- Lowering.h - the OpenMP text of one offload() call -------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Spells the replacement of one offload() call, of a launch group, and the
// declare target brackets of a kernel. Pure text: the AST side
// (CallRewriter.cpp) has already asked the transfer table what each
// parameter needs. The text is formatted afterwards (clang-format, LLVM
// style), so it only has to be correct, one statement per line.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_REWRITER_LOWERING_H
#define OFFLOAD_REWRITER_LOWERING_H

#include "offload/Core/KernelDescriptor.h"

#include "offload/Rewriter.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace offload {
namespace rewrite {

/// Marks every rewritten call, so that a reader (and grep) can find them.
inline constexpr llvm::StringLiteral CallMarker = "offload-rewrite:";

/// One std::span field of a struct parameter (PayloadKind::Aggregate).
struct LoweredField {
  /// The member access from the object (`grid.energy`, `materials[1].x`).
  std::string Access;
  /// Its name in messages: the argument and the field's path.
  std::string Name;
  MapKind Map = MapKind::To;
};

/// One kernel parameter as the call passes it.
struct LoweredParam {
  /// The parameter's name in the kernel (may be empty), for readable names.
  std::string Name;
  /// Declarator of the host-side parameter object, `%s` where its name goes,
  /// e.g. `std::span<const float> %s` or `const int (&%s)[4]`.
  std::string Declarator;
  /// The call's argument, as spelled in the source.
  std::string Argument;
  /// The argument is a temporary that the parameter only views (a span of
  /// a temporary container): bind it first, so that it lives as long as
  /// the launch, as it does for the duration of the offload() call.
  bool KeepTemporary = false;
  PayloadKind Kind = PayloadKind::Value;
  MapKind Map = MapKind::Literal;
  /// [[offload::in]]: the kernel writes a copy of its own
  /// (ofld::bridge::scratch), mapped through a pointer to its data.
  bool Scratch = false;
  /// A large by-value object (isLargeValue): mapped to the device, not
  /// firstprivate.
  bool InDeviceMemory = false;
  /// ... that the kernel modifies: each kernel thread copies it into its
  /// parameter (on g++'s NVPTX stack; the bridge checks the size).
  bool CopiedOnStack = false;
  /// A reduction parameter: its accumulator type as spelled at the call
  /// (`ofld::sum<double>`); the Declarator binds the variable (`T &`).
  std::string Reduction;
  /// Aggregate: its span fields, each mapped as a span parameter of its
  /// type; the kernel gets a copy of the object whose fields view them.
  std::vector<LoweredField> Fields;
};

/// One offload() call.
struct LoweredCall {
  /// The call as written, for the marker comment.
  std::string Original;
  /// How the kernel is named at the call (`saxpy`, `scale<float>`).
  std::string Kernel;
  /// The kernel's name in messages.
  std::string KernelName;
  /// The ofld::launch argument, if the call has one.
  std::optional<std::string> Launch;
  std::vector<LoweredParam> Params;
  /// The kernel synchronises its blocks (sync_threads, shared arrays).
  bool Syncs = false;
  /// The kernel calls warp functions that exchange values between lanes.
  bool Warp = false;
  /// What the kernel's bounds check admits (the default launch shape), read
  /// from its definition; none where the call cannot spell it (the bridge
  /// then refuses a launch without a grid).
  std::optional<LaunchBound> Bound;
  /// The call sits inside a macro argument: no `#pragma` lines there, so
  /// use `_Pragma`, and keep the text free of top-level commas. The text is
  /// not formatted there; it is indented from `Indent`, the indentation of
  /// the line the call starts on.
  bool InMacroArgument = false;
  std::string Indent;
  Target Form = Target::Portable;
  /// The call's line, as the plugin names it (the expansion of its first
  /// token): the block's own lines are not the original's.
  unsigned Line = 0;
  /// offload-rewrite warned that the call writes into a region's read-only
  /// range (RegionConstness.h): the bridge does not warn again.
  bool WarnedConst = false;
  /// The ofld::bridge::loop_hold objects of the loops around the call that
  /// hold some of its arguments (lowerLoopBegin): the launch asks each to
  /// hold its ranges once its grid is known.
  std::vector<std::string> LoopHolds;
};

/// The block that replaces the call (and its `;`).
std::string lowerCall(const LoweredCall &Call);

/// One range that a launch group holds on the device.
struct HeldRange {
  /// Declarator of the object that names the range (`%s` for its name),
  /// and the variable it is bound to; a span is taken apart.
  std::string Declarator, Variable;
  PayloadKind Kind = PayloadKind::Span;
  MapKind Map = MapKind::ToFrom;
  /// The argument as the group's first call spells it, for messages.
  std::string Argument;
};

/// The text before the first and after the last call of a launch group:
/// a block that holds `Held` on the default device (`target data`), if the
/// device can hold it (else the failure is reported for `First`, the
/// group's first call, and its launches map their own data).
std::string lowerGroupBegin(const LoweredCall &First,
                            llvm::ArrayRef<HeldRange> Held,
                            bool InMacroArgument);
std::string lowerGroupEnd();

/// The name of the ofld::bridge::loop_hold of a loop inside `Depth` other
/// loops that hold data (names are unique where they are in scope).
std::string loopHoldName(unsigned Depth);

/// The text before and after a loop whose launches keep `Held` on the
/// device (loop residency): a block that binds the ranges and declares the
/// loop's ofld::bridge::loop_hold `Name`, which the loop's launches ask to
/// hold them and whose end copies back and releases them. `Watch`: what the
/// host reads in the loop under a name a held variable may share
/// (ResidentLoop::Watch), told to the hold, which holds nothing overlapping.
std::string lowerLoopBegin(llvm::StringRef Name, llvm::ArrayRef<HeldRange> Held,
                           llvm::ArrayRef<std::string> Watch);
std::string lowerLoopEnd();

/// Whether `Text` has a comma outside (), [] and literals: such text would
/// split a macro argument.
bool hasTopLevelComma(llvm::StringRef Text);

/// Directive lines placed around a declaration compiled for the device.
std::string declareTargetBegin(llvm::StringRef Indent);
std::string declareTargetEnd(llvm::StringRef Indent);

/// The include every rewritten file gets; `Angled` follows the file's own
/// spelling of the offload.hpp include.
std::string bridgeInclude(bool Angled);

/// How a by-value std::span parameter is written in rewritten code, for an
/// element type and extent (empty: dynamic) as spelled.
std::string spanParamType(llvm::StringRef Element, llvm::StringRef Extent);

/// `ofld::bridge::value_param<Type>`.
std::string valueParamType(llvm::StringRef Type);

} // namespace rewrite
} // namespace offload

#endif // OFFLOAD_REWRITER_LOWERING_H
