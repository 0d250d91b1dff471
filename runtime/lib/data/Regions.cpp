//===- data/Regions.cpp - ofld::region: data kept across launches ---------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// An ofld::region maps its entries on the default device when it begins and
// releases them when it ends; launches in between find them present
// (Residency.cpp) and move nothing. Regions hold their ranges the way launch
// groups do (holdRanges, MapPlan.cpp), so the two share capacity checks,
// staging and profiling.
//
//===----------------------------------------------------------------------===//

#include "data/Data.h"

#include "offload/region.hpp"
#include "offload/runtime.h"

#include <cstdint>
#include <memory>

using namespace ofld::detail;

namespace {
/// Holds (`Begin`) or releases region entries, through the same path as
/// launch groups (holdRanges); small regions stay on the stack. Returns
/// false where the device cannot hold them (reported; nothing is held).
bool mapEntries(bool Begin, const ofld::detail::region_entry *Entries,
                int32_t N, int64_t Device, const __ofld_place *Place) {
  constexpr int32_t Inline = 16;
  void *PtrBuf[Inline];
  int64_t SizeBuf[Inline], TypeBuf[Inline];
  std::unique_ptr<void *[]> PtrHeap;
  std::unique_ptr<int64_t[]> SizeHeap, TypeHeap;
  void **Ptrs = PtrBuf;
  int64_t *Sizes = SizeBuf, *Types = TypeBuf;
  if (N > Inline) {
    PtrHeap.reset(new void *[N]);
    SizeHeap.reset(new int64_t[N]);
    TypeHeap.reset(new int64_t[N]);
    Ptrs = PtrHeap.get();
    Sizes = SizeHeap.get();
    Types = TypeHeap.get();
  }
  for (int32_t I = 0; I < N; ++I) {
    Ptrs[I] = Entries[I].ptr;
    Sizes[I] = Entries[I].bytes;
    Types[I] = Entries[I].type;
  }
  // The entries live in the region object until it ends: they name it.
  if (Begin)
    return holdRanges(Entries, HoldKind::Region, nullptr, Place, Device, N,
                      Ptrs, Sizes, Types, nullptr);
  releaseRanges(Entries, Device, N, Ptrs, Sizes, Types);
  return true;
}
} // namespace

extern "C" int64_t __ofld_region_begin(const ofld::detail::region_entry *E,
                                       int32_t N, const __ofld_place *Place) {
  if (offloadPolicy() == Policy::Disabled)
    return -1;
  int Device = defaultDevice().Device;
  if (Device < 0)
    return -1; // kernels will run on the host, where the data already is
  deviceInUse(Device);
  // A region the device cannot hold holds nothing (reported): its launches
  // map their own data, as outside a region.
  if (!mapEntries(/*Begin=*/true, E, N, Device, Place))
    return -1;
  return Device;
}

extern "C" void __ofld_region_end(int64_t Device,
                                  const ofld::detail::region_entry *E,
                                  int32_t N) {
  if (Device >= 0)
    mapEntries(/*Begin=*/false, E, N, Device, nullptr);
}
