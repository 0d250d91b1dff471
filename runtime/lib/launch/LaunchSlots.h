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

#include <cstdint>

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

} // namespace ofld::detail

#endif // OFFLOAD_RUNTIME_LAUNCH_LAUNCHSLOTS_H
