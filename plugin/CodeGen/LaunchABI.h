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
/// Packed grid x|y, grid z|block x, block y|z, dynamic shared bytes|0 after
/// the parameter slots.
inline constexpr unsigned NumDimSlots = abi::NumDims / 2;
/// Then the launch mark (runtime_abi.def: abi::NumMarkSlots slots, in the
/// order abi::MarkWordSlot, abi::MarkNumberSlot), both 0 for a launch without
/// a mark.

/// Inline: a by-value object larger than a slot, its bytes in consecutive
/// literal slots (the last one zero-padded), so that on GPUs it lies in the
/// kernel's parameter space as CUDA passes a struct by value (the constant
/// bank: no device copy, no load through a pointer that stores may alias).
/// Reduction: the variable's device copy (a pointer) and the device
/// address of the reduction's scratch (a literal, __ofld_reduction_scratch).
/// Aggregate: the object's bytes in literal slots, then one pointer slot per
/// span field (its elements' device address), which the entry writes into
/// its copy of the object: the spans' sizes are in the bytes already.
enum class SlotShape {
  Literal,
  Inline,
  Pointer,
  PointerAndCount,
  Reduction,
  Aggregate
};

/// The kernel parameter space every GPU target offers: CUDA's classic limit
/// (sm_70+ with CUDA 12.1 allows 32764 bytes; AMD's kernarg segment more).
/// By-value objects that would take the slots past it travel as a device
/// copy (SlotShape::Pointer), read in place.
inline constexpr uint64_t MaxParamBytes = 4096;

/// Literal slots of an Inline object of `Bytes` bytes.
inline uint64_t inlineSlots(uint64_t Bytes) { return (Bytes + 7) / 8; }

/// Slots of an Aggregate parameter.
inline uint64_t aggregateSlots(const ParamLayout &P) {
  return inlineSlots(P.Bytes) + P.Fields.size();
}

/// The slot shape of each of `Params`, in order. By-value objects larger
/// than a slot are Inline while every slot of the launch (the dyn_ptr, the
/// parameters, the grid and the mark) fits MaxParamBytes, in parameter
/// order; the rest are Pointer. Host lowering and device entries both ask
/// this, with the same parameters.
inline llvm::SmallVector<SlotShape, 8>
slotShapes(llvm::ArrayRef<ParamLayout> Params) {
  auto Fixed = [](const ParamLayout &P) {
    if (P.Reduce != ReduceKind::None)
      return SlotShape::Reduction;
    switch (P.Kind) {
    case PayloadKind::Value:
      return P.Bytes <= MaxLiteralBytes ? SlotShape::Literal
                                        : SlotShape::Pointer;
    case PayloadKind::Object:
      return SlotShape::Pointer;
    case PayloadKind::Span:
      return SlotShape::PointerAndCount;
    case PayloadKind::Aggregate:
      return SlotShape::Aggregate;
    }
    return SlotShape::Pointer;
  };
  llvm::SmallVector<SlotShape, 8> Shapes;
  uint64_t Slots = 1 + NumDimSlots + abi::NumMarkSlots;
  for (const ParamLayout &P : Params) {
    Shapes.push_back(Fixed(P));
    Slots += Shapes.back() == SlotShape::Aggregate ? aggregateSlots(P)
             : Shapes.back() == SlotShape::PointerAndCount ||
                     Shapes.back() == SlotShape::Reduction
                 ? 2
                 : 1;
  }
  for (auto [I, P] : llvm::enumerate(Params)) {
    if (Shapes[I] != SlotShape::Pointer || P.Kind != PayloadKind::Value)
      continue;
    uint64_t More = inlineSlots(P.Bytes) - 1;
    if ((Slots + More) * 8 > MaxParamBytes)
      continue;
    Shapes[I] = SlotShape::Inline;
    Slots += More;
  }
  return Shapes;
}

} // namespace offload

#endif // OFFLOAD_CODEGEN_LAUNCHABI_H
