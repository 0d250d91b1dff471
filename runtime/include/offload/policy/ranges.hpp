//===- offload/policy/ranges.hpp - overlapping mapped ranges ----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A launch (or region) may map the same memory twice: one buffer as a
// std::span<const T> and a std::span<T>, a sub-span of another argument.
// OpenMP refuses a map that extends one already present, so overlapping
// ranges are mapped as their union, with the union of their transfers;
// where the group mixes ranges that copy back with ranges that do not, the
// union also copies in (the bytes no parameter writes must come back as
// they went). libofld_rt (MapPlan.cpp) and the OpenMP bridge merge by this
// rule.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_POLICY_RANGES_HPP
#define OFFLOAD_POLICY_RANGES_HPP

#include "offload/policy/map_kinds.hpp"

#include <cstdint>

namespace ofld::policy {

/// Whether the byte ranges [AFirst, ALast) and [BFirst, BLast) share a byte.
constexpr bool overlaps(std::uintptr_t AFirst, std::uintptr_t ALast,
                        std::uintptr_t BFirst, std::uintptr_t BLast) {
  return AFirst < BLast && BFirst < ALast;
}

/// The transfer bits (MapTransfer) of the union of two overlapping ranges
/// of map types `A` and `B`.
constexpr std::int64_t mergedTransfer(std::int64_t A, std::int64_t B) {
  std::int64_t T = (A | B) & MapTransfer;
  if ((T & MapFrom) && (A & MapTransfer) != (B & MapTransfer))
    T |= MapTo;
  return T;
}

/// Ranges merged where they overlap: [First, Last) byte addresses and their
/// transfer bits. `Merged`: two or more ranges met.
struct RangeUnion {
  std::uintptr_t First, Last;
  std::int64_t Transfer;
  bool Merged;
};

/// Merges `N` ranges into at most `N` unions in `Out`, returning how many:
/// range I starts at `First(I)`, has `Bytes(I)` bytes (empty ones are
/// skipped) and map type `Type(I)`.
template <class FirstFn, class BytesFn, class TypeFn>
unsigned uniteRanges(unsigned N, FirstFn First, BytesFn Bytes, TypeFn Type,
                     RangeUnion *Out) {
  unsigned Count = 0;
  for (unsigned I = 0; I < N; ++I) {
    if (!Bytes(I))
      continue;
    const std::uintptr_t Begin = First(I);
    RangeUnion U{Begin, Begin + Bytes(I), Type(I) & MapTransfer, false};
    // Absorb every union it touches; repeat until nothing changes.
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (unsigned J = 0; J < Count; ++J)
        if (overlaps(Out[J].First, Out[J].Last, U.First, U.Last)) {
          U = {Out[J].First < U.First ? Out[J].First : U.First,
               Out[J].Last > U.Last ? Out[J].Last : U.Last,
               mergedTransfer(Out[J].Transfer, U.Transfer), true};
          Out[J] = Out[--Count];
          Changed = true;
          break;
        }
    }
    Out[Count++] = U;
  }
  return Count;
}

} // namespace ofld::policy

#endif // OFFLOAD_POLICY_RANGES_HPP
