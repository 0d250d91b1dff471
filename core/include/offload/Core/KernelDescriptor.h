//===- KernelDescriptor.h - type facts from the AST to IR -------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Opaque pointers cannot be re-derived in an IR pass, so the plugin writes
// what the C++ types decided into a string: per kernel as an annotation on
// the kernel function, per call into the hidden `__ofld_site` argument of
// `offload()`. This file owns the encoding; it depends on LLVM Support only
// so the IR passes can decode without an AST.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CORE_KERNELDESCRIPTOR_H
#define OFFLOAD_CORE_KERNELDESCRIPTOR_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include "offload/Core/LaunchBound.h"

#include <cstdint>
#include <optional>
#include <string>

namespace offload {

/// Direction of a transfer, as OpenMP map bits will express it.
enum class MapKind : uint8_t { Literal, To, ToFrom, From };

/// The OpenMP map-type spelling of a transfer (`firstprivate` for a literal).
llvm::StringRef mapTypeName(MapKind M);

/// How a parameter object is reached from the kernel argument slots.
enum class PayloadKind : uint8_t {
  Value,  ///< by value: the object travels as a literal or a private copy
  Object, ///< by reference: one object (or array) of static size
  Span,   ///< a std::span: data pointer plus element count
  /// An object of class type holding std::span fields: its bytes travel as
  /// a by-value object does, each span field's elements as a span
  /// parameter's, and the device copy's spans view the device's ranges.
  Aggregate,
};

/// The operation of a reduction parameter (`ofld::sum<T>&`...); the values
/// are ofld::detail::reduce_op's.
enum class ReduceKind : uint8_t { None = 0, Sum = 1, Min = 2, Max = 3 };

/// One std::span inside an Aggregate parameter: where it lies in the object
/// and what a span parameter of its type would carry (ParamLayout's Span
/// fields, with `Offset` added to the span's own offsets).
struct SpanField {
  uint64_t Offset = 0; ///< of the span object inside the parameter object
  MapKind Map = MapKind::To;
  uint64_t Bytes = 0; ///< one element
  uint64_t Count = 0; ///< static extent; 0 = dynamic
  uint64_t DataOffset = 0, CountOffset = 0;
  /// How C++ names it from the parameter ("grid.energy"), for messages and
  /// the profile's argument names.
  std::string Path;
};

/// Everything the IR lowering needs to move one parameter.
struct ParamLayout {
  PayloadKind Kind = PayloadKind::Value;
  MapKind Map = MapKind::Literal;
  /// Value/Object: size of the object in bytes. Span: size of one element.
  uint64_t Bytes = 0;
  /// Object arrays and static-extent spans: element count; 0 = dynamic.
  uint64_t Count = 0;
  /// Span: byte offsets of the data pointer and the size inside std::span,
  /// and the size of the span object itself.
  uint64_t DataOffset = 0, CountOffset = 0, SpanBytes = 0;
  /// A reduction: an Object of its T (to and from), plus a scratch slot.
  ReduceKind Reduce = ReduceKind::None;
  /// [[offload::in]] (Map is To): the kernel may write the data, so where
  /// the kernel would run on the host's own memory (the CPU paths) it is
  /// given a private copy.
  bool Scratch = false;
  /// Aggregate: its span fields, in layout order (Bytes: the object's size).
  llvm::SmallVector<SpanField, 0> Fields;
};

/// The type facts of one kernel (or one specialisation of a template).
struct KernelDescriptor {
  std::string Name;        ///< qualified name for messages
  std::string InvokeThunk; ///< mangled __ofld::invoke<P...>
  std::string CpuThunk;    ///< mangled __ofld::cpu_grid<P...>; empty on GPUs
  llvm::SmallVector<ParamLayout, 8> Params;
  /// What the kernel's bounds check admits (the default launch shape), where
  /// the kernel's body was read: on the annotation of its definition.
  std::optional<LaunchBound> Bound;
};

/// Consecutive offload() statements that share arguments, with no host code
/// in between, keep those arguments on the device: the first call of the
/// group maps them (`Held`), the last one copies them back and releases.
struct LaunchGroup {
  unsigned Id = 0; ///< unique in the translation unit; 0: not in a group
  bool Opens = false, Closes = false;
  /// Opening call only: per parameter, the transfer of the range the group
  /// holds for it (MapKind::Literal: not held). To when the first use reads
  /// it; From when any call of the group writes it.
  llvm::SmallVector<MapKind, 8> Held;
  /// Number of held ranges (on every call of the group).
  unsigned NumHeld = 0;
};

/// A parameter's range that a loop around the launch keeps on the device
/// (LoopResidency.h): the launch asks the loop's scope to hold it first.
struct LoopHoldSite {
  unsigned Param = 0;
  /// Loop scopes of the same function between the launch and the holding
  /// one (0: the innermost around the launch).
  unsigned Depth = 0;
  MapKind Map = MapKind::ToFrom;
};

/// One offload() call: the kernel plus where it is and how it was spelled.
struct CallSiteDescriptor {
  KernelDescriptor Kernel;
  std::string File, Function;
  unsigned Line = 0, Column = 0;
  llvm::SmallVector<std::string, 8> ArgSpellings;
  LaunchGroup Group;
  llvm::SmallVector<LoopHoldSite, 2> LoopHolds;
  /// The plugin warned that the launch writes into a range a region maps to
  /// the device only: the runtime need not warn again.
  bool WarnedConstRegion = false;
};

std::string encodeKernel(const KernelDescriptor &K);
llvm::Expected<KernelDescriptor> decodeKernel(llvm::StringRef S);
std::string encodeCallSite(const CallSiteDescriptor &C);
llvm::Expected<CallSiteDescriptor> decodeCallSite(llvm::StringRef S);

/// Prefix of the annotation the plugin attaches to every kernel.
inline constexpr llvm::StringLiteral KernelAnnotationPrefix = "offload.kernel:";

/// The variable template ofld::region reads the span fields of a class from
/// (offload/region.hpp), and the prefix of the annotation the plugin puts on
/// each of its specialisations: a KernelDescriptor named after the class
/// whose one parameter is the class's Aggregate layout.
inline constexpr llvm::StringLiteral RegionFieldsVariable = "__ofld_fields_of";
inline constexpr llvm::StringLiteral RegionFieldsAnnotationPrefix =
    "offload.fields:";

} // namespace offload

#endif // OFFLOAD_CORE_KERNELDESCRIPTOR_H
