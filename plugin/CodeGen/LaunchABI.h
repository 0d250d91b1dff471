//===- LaunchABI.h - argument slots shared by host and device ---*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// How one kernel parameter travels as pointer-sized kernel arguments. The
// host lowering produces the slots, the device entry consumes them; both ask
// this header so the two sides cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CODEGEN_LAUNCHABI_H
#define OFFLOAD_CODEGEN_LAUNCHABI_H

#include "RuntimeABI.h"
#include "offload/Core/KernelDescriptor.h"

namespace offload {

/// Objects up to this size travel as literals inside their slot.
inline constexpr uint64_t MaxLiteralBytes = 8;
/// Packed grid x|y, grid z|block x, block y|z after the parameter slots.
inline constexpr unsigned NumDimSlots = abi::NumDims / 2;
/// Then the launch mark (runtime_abi.def: abi::NumMarkSlots slots, in the
/// order abi::MarkWordSlot, abi::MarkNumberSlot), both 0 for a launch without
/// a mark.

/// Reduction: the variable's device copy (a pointer) and the device
/// address of the reduction's scratch (a literal, __ofld_reduction_scratch).
enum class SlotShape { Literal, Pointer, PointerAndCount, Reduction };

inline SlotShape slotsOf(const ParamLayout &P) {
  if (P.Reduce != ReduceKind::None)
    return SlotShape::Reduction;
  switch (P.Kind) {
  case PayloadKind::Value:
    return P.Bytes <= MaxLiteralBytes ? SlotShape::Literal : SlotShape::Pointer;
  case PayloadKind::Object:
    return SlotShape::Pointer;
  case PayloadKind::Span:
    return SlotShape::PointerAndCount;
  }
  return SlotShape::Pointer;
}

} // namespace offload

#endif // OFFLOAD_CODEGEN_LAUNCHABI_H
