//===- MapPlan.cpp - what a launch maps, decided at run time --------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The host lowering passes a launch's mapped ranges to __tgt_target_kernel,
// which maps them in order and releases them in reverse. Three things about
// those ranges are only known when the program runs:
//
//  * Aliasing. One buffer passed twice (as std::span<const T> and as
//    std::span<T>, or as a sub-span of the other) is two mappings of
//    overlapping host memory. libomptarget maps the first, finds the second
//    present (no copy in if the first had none), releases in reverse (the
//    copy back happens for whichever entry drops the last reference) and
//    refuses outright to extend a mapping. So each group of overlapping
//    ranges becomes one range, their union, in every entry of the group,
//    with the union of the transfers: every order then maps and copies
//    alike. The kernel's own pointers still point into it.
//  * Capacity. A mapping the device cannot hold aborts in libomptarget; it
//    becomes a message naming the kernel and the argument.
//  * Staging. A large range not yet on the device is mapped here without a
//    transfer and copied through pinned memory (Staging.h); the kernel's
//    mapping then finds it present, and __ofld_finish_maps copies it back.
//
//===----------------------------------------------------------------------===//

#include "RuntimeInternal.h"
#include "Staging.h"

#include <omp.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

using namespace ofld::detail;

namespace {

// libomptarget's map type bits (OMPConstants.h, OpenMPOffloadMappingFlags).
constexpr int64_t MapTo = 0x1, MapFrom = 0x2;
constexpr int64_t Transfer = MapTo | MapFrom;

/// A range the plan mapped and copies itself.
struct StagedRange {
  void *Host;
  int64_t Bytes;
  void *Device;
  bool CopyBack;
};

} // namespace

/// What __ofld_finish_maps must undo; only exists when something was staged.
struct __ofld_map_plan {
  const __ofld_site *Site;
  int64_t Device;
  std::vector<StagedRange> Staged;
};

namespace {

/// Gives every group of overlapping ranges among the first `N` entries
/// their union and the union of their transfers. When a group mixes entries
/// that copy back with entries that do not, the union also copies in: the
/// bytes no kernel parameter writes must come back as they went.
void mergeOverlaps(int32_t N, void **Ptrs, int64_t *Sizes, int64_t *Types) {
  auto Begin = [&](int32_t I) { return reinterpret_cast<uintptr_t>(Ptrs[I]); };
  auto End = [&](int32_t I) { return Begin(I) + uintptr_t(Sizes[I]); };
  // A fixpoint over pairs: N is the number of mapped parameters, a handful.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (int32_t I = 0; I < N; ++I)
      for (int32_t J = I + 1; J < N; ++J) {
        if (Sizes[I] <= 0 || Sizes[J] <= 0 || End(I) <= Begin(J) ||
            End(J) <= Begin(I))
          continue;
        bool Same = Begin(I) == Begin(J) && Sizes[I] == Sizes[J] &&
                    (Types[I] & Transfer) == (Types[J] & Transfer);
        if (Same)
          continue;
        uintptr_t Lo = std::min(Begin(I), Begin(J));
        uintptr_t Hi = std::max(End(I), End(J));
        int64_t T = (Types[I] | Types[J]) & Transfer;
        if ((T & MapFrom) && (Types[I] & Transfer) != (Types[J] & Transfer))
          T |= MapTo;
        for (int32_t K : {I, J}) {
          Ptrs[K] = reinterpret_cast<void *>(Lo);
          Sizes[K] = int64_t(Hi - Lo);
          Types[K] = (Types[K] & ~Transfer) | T;
        }
        Changed = true;
      }
  }
}

/// The spelling of argument `I` for messages.
std::string argName(const char **Names, int32_t I) {
  return mapName(Names ? Names[I] : nullptr);
}

/// Reports a mapping of 1 GiB or more that the device cannot hold.
void checkCapacity(const __ofld_site *Site, int64_t Device, int32_t N,
                   void **Ptrs, const int64_t *Sizes, const char **Names) {
  constexpr int64_t Large = int64_t(1) << 30;
  for (int32_t I = 0; I < N; ++I) {
    if (Sizes[I] < Large || omp_target_is_present(Ptrs[I], int(Device)))
      continue;
    // Probe: libomptarget aborts the process when a mapping fails.
    void *Probe = omp_target_alloc(std::size_t(Sizes[I]), int(Device));
    if (Probe) {
      omp_target_free(Probe, int(Device));
      continue;
    }
    fail(Site,
         "cannot map %lld bytes of '%s' on device %lld: out of device memory",
         (long long)Sizes[I], argName(Names, I).c_str(),
         (long long)Device);
  }
}

/// Maps (`Begin`) or releases one range without any transfer.
void mapBare(bool Begin, int64_t Device, void *Ptr, int64_t Bytes) {
  int64_t Size = Bytes, Type = 0;
  (Begin ? __tgt_target_data_begin_mapper : __tgt_target_data_end_mapper)(
      nullptr, Device, 1, &Ptr, &Ptr, &Size, &Type, nullptr, nullptr);
}

/// Copies one staged range, through pinned memory if the staging engine
/// can, else through libomptarget (the same bytes, at the pageable rate).
bool copyRange(bool ToDevice, int64_t Device, const StagedRange &R) {
  int Dev = int(Device);
  if (ToDevice ? stageToDevice(Dev, R.Device, R.Host, std::size_t(R.Bytes))
               : stageFromDevice(Dev, R.Host, R.Device, std::size_t(R.Bytes)))
    return true;
  int Host = omp_get_initial_device();
  return ToDevice ? !omp_target_memcpy(R.Device, R.Host, std::size_t(R.Bytes),
                                       0, 0, Dev, Host)
                  : !omp_target_memcpy(R.Host, R.Device, std::size_t(R.Bytes),
                                       0, 0, Host, Dev);
}

} // namespace

extern "C" __ofld_map_plan *__ofld_plan_maps(const __ofld_site *Site,
                                             int64_t Device, int32_t N,
                                             void **Ptrs, int64_t *Sizes,
                                             int64_t *Types,
                                             const char **Names) {
  if (N >= 2)
    mergeOverlaps(N, Ptrs, Sizes, Types);
  checkCapacity(Site, Device, N, Ptrs, Sizes, Names);

  std::size_t Threshold = stagingThreshold(int(Device));
  if (!Threshold)
    return nullptr;
  std::unique_ptr<__ofld_map_plan> Plan;
  for (int32_t I = 0; I < N; ++I) {
    if (Sizes[I] <= 0 || std::size_t(Sizes[I]) < Threshold)
      continue;
    // Merged entries share one range: stage it once.
    bool Seen = false;
    for (int32_t J = 0; J < I && !Seen; ++J)
      Seen = Ptrs[J] == Ptrs[I] && Sizes[J] == Sizes[I];
    if (Seen || omp_target_is_present(Ptrs[I], int(Device)))
      continue;
    if (!Plan)
      Plan.reset(new __ofld_map_plan{Site, Device, {}});
    mapBare(/*Begin=*/true, Device, Ptrs[I], Sizes[I]);
    StagedRange R{Ptrs[I], Sizes[I], omp_get_mapped_ptr(Ptrs[I], int(Device)),
                  (Types[I] & MapFrom) != 0};
    if (!R.Device) {
      fail(Site, "cannot map %lld bytes of '%s' on device %lld",
           (long long)Sizes[I], argName(Names, I).c_str(),
           (long long)Device);
      continue;
    }
    Plan->Staged.push_back(R);
    if ((Types[I] & MapTo) && !copyRange(/*ToDevice=*/true, Device, R))
      fail(Site, "copying %lld bytes of '%s' to device %lld failed",
           (long long)R.Bytes, argName(Names, I).c_str(),
           (long long)Device);
  }
  return Plan.release();
}

extern "C" void __ofld_finish_maps(__ofld_map_plan *Plan, int32_t Launched) {
  if (!Plan)
    return;
  std::unique_ptr<__ofld_map_plan> Owned(Plan);
  for (const StagedRange &R : Plan->Staged) {
    if (Launched && R.CopyBack && !copyRange(/*ToDevice=*/false, Plan->Device, R))
      fail(Plan->Site, "copying %lld bytes back from device %lld failed",
           (long long)R.Bytes, (long long)Plan->Device);
    mapBare(/*Begin=*/false, Plan->Device, R.Host, R.Bytes);
  }
}

//===----------------------------------------------------------------------===//
// Launch groups
//===----------------------------------------------------------------------===//

namespace {
/// Launch groups open on this thread; a launch inside one must not fall
/// back to the CPU silently (see inLaunchGroup).
thread_local int OpenGroups = 0;
} // namespace

bool ofld::detail::inLaunchGroup() { return OpenGroups > 0; }

extern "C" int64_t __ofld_group_begin(const __ofld_site *Site, int32_t N,
                                      void **Ptrs, int64_t *Sizes,
                                      int64_t *Types, const char **Names) {
  // The device every launch of the group selects: none of them has a launch
  // configuration, and no host code runs in between.
  int64_t Device = __ofld_select_device(Site, nullptr);
  if (Device < 0)
    return -1;
  checkCapacity(Site, Device, N, Ptrs, Sizes, Names);
  __tgt_target_data_begin_mapper(nullptr, Device, N, Ptrs, Ptrs, Sizes, Types,
                                 reinterpret_cast<void **>(const_cast<char **>(Names)), nullptr);
  ++OpenGroups;
  return Device;
}

extern "C" void __ofld_group_end(int64_t Device, int32_t N, void **Ptrs,
                                 int64_t *Sizes, int64_t *Types) {
  if (Device < 0)
    return;
  --OpenGroups;
  __tgt_target_data_end_mapper(nullptr, Device, N, Ptrs, Ptrs, Sizes, Types,
                               nullptr, nullptr);
}
