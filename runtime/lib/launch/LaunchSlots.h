//===- launch/LaunchSlots.h - a parameter's device address ------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A stream-ordered launch (Queues.cpp, Enqueue.cpp) fills the kernel's
// parameter slots itself: each parameter's host pointer lies in one of the
// launch's mapped ranges, whose device addresses the runtime knows. A header so
// the unit tests check the rule (tests/unit/LaunchSlotsTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_LAUNCH_LAUNCHSLOTS_H
#define OFFLOAD_RUNTIME_LAUNCH_LAUNCHSLOTS_H

#include "offload/runtime.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ofld::detail {

/// The device address of the parameter object [Ptr, Ptr + Bytes): in the
/// first of the N mapped ranges [Ptrs[I], Ptrs[I] + Sizes[I]) with a device
/// address (Addr[I] != 0) that holds all of it; 0 if none does. The whole
/// object must fit, not just its first byte: objects on the stack lie next
/// to each other, and an object that starts where a mapped neighbour ends
/// is not in that neighbour (a one-past-the-end pointer is in a range only
/// for an empty object, such as an empty span at the end of its data).
inline std::uintptr_t parameterAddress(std::uintptr_t Ptr, std::int64_t Bytes,
                                       std::int32_t N, void *const *Ptrs,
                                       const std::int64_t *Sizes,
                                       const std::uintptr_t *Addr) {
  std::uintptr_t Len = Bytes > 0 ? std::uintptr_t(Bytes) : 0;
  for (std::int32_t I = 0; I < N; ++I) {
    auto B = reinterpret_cast<std::uintptr_t>(Ptrs[I]);
    std::uintptr_t Size = Sizes[I] > 0 ? std::uintptr_t(Sizes[I]) : 0;
    if (Addr[I] && B <= Ptr && Ptr - B <= Size && Len <= Size - (Ptr - B))
      return Addr[I] + (Ptr - B);
  }
  return 0;
}

/// What a launch whose data was all on the device found of it (steps 2 and
/// 4 of Enqueue.cpp: each range's device address, each pointer slot's), kept
/// per thread and call site for the next launch from there. A struct of 20
/// resident spans maps 20 ranges, each a look through the residency table
/// under its lock, and each of its 20 pointer slots is then found among
/// them: about 2 us a launch on an H200 host, where one span costs one look.
/// The memo holds while the residency table is unchanged (`Generation`) and
/// the launch has the same ranges, slot types and pointer slots; literal
/// slots (scalars, a struct's words) may differ. `Literal`: the map bit of
/// a literal slot. Ranges 0..N are mapped, N..Total the kernel's slots;
/// `Params[0]` is the kernel's dynamic pointer, `Params[1 + J - N]` slot J.
class LaunchMemo {
public:
  bool recall(const void *Site, std::int64_t Device, std::uint64_t Generation,
              std::int32_t N, std::int32_t Total, void *const *Ptrs,
              const std::int64_t *Sizes, const std::int64_t *Types,
              std::uintptr_t *Addr, std::uint64_t *Params) const {
    if (Site != this->Site || Device != this->Device ||
        Generation != this->Generation || N != this->N ||
        Total != this->Total ||
        !std::equal(this->Types.begin(), this->Types.end(), Types))
      return false;
    for (std::int32_t J = 0; J < Total; ++J)
      if (!(Types[J] & Literal) &&
          (Ptrs[J] != this->Ptrs[J] || Sizes[J] != this->Sizes[J]))
        return false;
    std::copy(this->Addr.begin(), this->Addr.end(), Addr);
    Params[0] = 0;
    for (std::int32_t J = N; J < Total; ++J)
      Params[1 + J - N] = Types[J] & Literal
                              ? reinterpret_cast<std::uintptr_t>(Ptrs[J])
                              : Slots[J - N];
    return true;
  }

  void keep(const void *Site, std::int64_t Device, std::uint64_t Generation,
            std::int32_t N, std::int32_t Total, void *const *Ptrs,
            const std::int64_t *Sizes, const std::int64_t *Types,
            const std::uintptr_t *Addr, const std::uint64_t *Params) {
    this->Site = Site;
    this->Device = Device;
    this->Generation = Generation;
    this->N = N;
    this->Total = Total;
    this->Types.assign(Types, Types + Total);
    this->Ptrs.assign(Ptrs, Ptrs + Total);
    this->Sizes.assign(Sizes, Sizes + Total);
    this->Addr.assign(Addr, Addr + N);
    Slots.assign(Params + 1, Params + 1 + (Total - N));
  }

private:
  static constexpr std::int64_t Literal = __ofld_map_literal;
  const void *Site = nullptr;
  std::int64_t Device = -1;
  std::uint64_t Generation = 0;
  std::int32_t N = 0, Total = 0;
  std::vector<std::int64_t> Types, Sizes;
  std::vector<void *> Ptrs;
  std::vector<std::uintptr_t> Addr;
  std::vector<std::uint64_t> Slots;
};

} // namespace ofld::detail

#endif // OFFLOAD_RUNTIME_LAUNCH_LAUNCHSLOTS_H
