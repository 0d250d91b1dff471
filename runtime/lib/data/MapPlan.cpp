//===- data/MapPlan.cpp - what a launch maps, decided at run time ---------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The host lowering passes a launch's mapped ranges to __tgt_target_kernel,
// which maps them in order and releases them in reverse. Four things about
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
//    becomes a message naming the kernel and the argument
//    (offload/detail/capacity.hpp decides).
//  * Staging. A large range not yet on the device is mapped here without a
//    transfer and copied through pinned memory (Staging.cpp); the kernel's
//    mapping then finds it present, and __ofld_finish_maps copies it back.
//
//  * Small ranges. A range of at most SmallRangeMaxBytes not yet on the
//    device is copied into the device's argument arena (ArgArena.cpp), and
//    the launch maps that copy instead, already present, with
//    OMP_MAP_ALWAYS; the kernel's pointers into the range follow it, and
//    __ofld_finish_maps copies the bytes back.
//
// The plan lives in thread-local storage: a launch plans, runs and finishes
// on one thread, and must not allocate.
//===----------------------------------------------------------------------===//

#include "data/Data.h"

#include "Libomptarget.h"
#include "cuda/Cuda.h"
#include "tools/Tools.h"

#include "offload/detail/capacity.hpp"
#include "offload/policy/ranges.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

using namespace ofld::detail;

namespace {

// libomptarget's map type bits (runtime_abi.def).
constexpr int64_t MapTo = __ofld_map_to, MapFrom = __ofld_map_from,
                  MapAlways = __ofld_map_always,
                  MapLiteral = __ofld_map_literal;
constexpr int64_t Transfer = MapTo | MapFrom;

/// A small range the launch maps as its copy in the argument arena.
struct MovedRange {
  char *Host;
  char *Copy;
  std::size_t Bytes;
  bool CopyBack;
};

/// A range the plan mapped and copies itself.
struct StagedRange {
  void *Host;
  int64_t Bytes;
  void *Device;
  bool CopyBack;
  /// The argument's map name (may be null) and entry, for the profiler.
  const char *Name = nullptr;
  int32_t Index = -1;
};

} // namespace

/// What __ofld_finish_maps must undo: a launch gets one only when it moved
/// or staged something, or holds the log-mode lock.
struct __ofld_map_plan {
  const __ofld_site *Site = nullptr;
  const __ofld_place *Place = nullptr; ///< a region's, for the profiler
  int64_t Device = -1;
  ofld::detail::ArgChunk Chunk;
  std::vector<MovedRange> Moved;
  std::vector<StagedRange> Staged;
  bool InUse = false;
  /// Holds the log-mode lock (see logSerial) until the launch finishes.
  bool Serialised = false;

  bool empty() const { return !Chunk && Staged.empty() && !Serialised; }
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
        if (Sizes[I] <= 0 || Sizes[J] <= 0 ||
            !ofld::policy::overlaps(Begin(I), End(I), Begin(J), End(J)))
          continue;
        bool Same = Begin(I) == Begin(J) && Sizes[I] == Sizes[J] &&
                    (Types[I] & Transfer) == (Types[J] & Transfer);
        if (Same)
          continue;
        uintptr_t Lo = std::min(Begin(I), Begin(J));
        uintptr_t Hi = std::max(End(I), End(J));
        int64_t T = ofld::policy::mergedTransfer(Types[I], Types[J]);
        for (int32_t K : {I, J}) {
          Ptrs[K] = reinterpret_cast<void *>(Lo);
          Sizes[K] = int64_t(Hi - Lo);
          Types[K] = (Types[K] & ~Transfer) | T;
        }
        Changed = true;
      }
  }
}

bool isPresent(const void *Ptr, int64_t Device) {
  return omp_target_is_present(Ptr, int(Device));
}

/// The spelling of argument `I` for messages.
std::string argName(const char **Names, int32_t I) {
  return mapName(Names ? Names[I] : nullptr);
}

/// The first of the `N` ranges that device `Device` cannot hold (the rule of
/// offload/detail/capacity.hpp), or -1.
int32_t firstMisfit(int64_t Device, int32_t N, void *const *Ptrs,
                    const int64_t *Sizes) {
  return capacity::firstMisfitOf(
      unsigned(std::max(N, 0)), [&](unsigned I) { return Ptrs[I]; },
      [&](unsigned I) { return Sizes[I] > 0 ? uint64_t(Sizes[I]) : 0; },
      [&](unsigned I) { return isPresent(Ptrs[I], Device); },
      [&] { return freeBytes(Device); },
      [&](uint64_t Bytes) {
        return omp_target_alloc(std::size_t(Bytes), int(Device));
      },
      [&](void *P) { omp_target_free(P, int(Device)); });
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

/// copyRange of a range the launch at `Site` (or the region at `Place`)
/// stages: timed and named under the profiler.
bool copyStaged(bool ToDevice, int64_t Device, const StagedRange &R,
                const __ofld_site *Site, const __ofld_place *Place) {
  if (!profile::Active)
    return copyRange(ToDevice, Device, R);
  profile::HostSpan Span =
      profile::beginCopy(Site, Place, R.Name, R.Index, ToDevice);
  bool Ok = copyRange(ToDevice, Device, R);
  profile::endCopy(Span, Device, Site, Place, R.Name, R.Index, ToDevice,
                   Ok ? uint64_t(R.Bytes) : 0);
  return Ok;
}

} // namespace

uint64_t ofld::detail::freeBytes(int64_t Device) {
  using namespace cuda;
  const Driver *Cu = driver();
  int Ordinal = Cu ? cudaOrdinal(int(Device)) : -1;
  if (Ordinal < 0)
    return capacity::NoAnswer;
  // The primary contexts, retained once (libomptarget holds them anyway).
  static std::once_flag Once;
  static std::vector<CUcontext> Contexts;
  std::call_once(Once, [&] {
    int N = 0;
    if (Cu->DeviceGetCount(&N))
      return;
    Contexts.assign(std::size_t(N), nullptr);
    for (int I = 0; I < N; ++I) {
      CUdevice Dev;
      if (Cu->DeviceGet(&Dev, I) || Cu->PrimaryCtxRetain(&Contexts[I], Dev))
        Contexts[I] = nullptr;
    }
  });
  if (std::size_t(Ordinal) >= Contexts.size() || !Contexts[Ordinal])
    return capacity::NoAnswer;
  CUcontext Saved;
  if (makeCurrent(*Cu, Contexts[Ordinal], &Saved))
    return capacity::NoAnswer;
  std::size_t Free = 0, Total = 0;
  bool Ok = !Cu->MemGetInfo(&Free, &Total);
  if (Saved != Contexts[Ordinal])
    (void)Cu->CtxSetCurrent(Saved);
  return Ok ? uint64_t(Free) : capacity::NoAnswer;
}

bool ofld::detail::copyBytes(bool ToDevice, int64_t Device, void *Host,
                             void *DevPtr, int64_t Bytes) {
  if (Bytes <= 0)
    return true;
  std::size_t Threshold = stagingThreshold(int(Device));
  if (Threshold && std::size_t(Bytes) >= Threshold)
    return copyRange(ToDevice, Device, StagedRange{Host, Bytes, DevPtr, false});
  int Dev = int(Device), HostDev = omp_get_initial_device();
  return ToDevice ? !omp_target_memcpy(DevPtr, Host, std::size_t(Bytes), 0, 0,
                                       Dev, HostDev)
                  : !omp_target_memcpy(Host, DevPtr, std::size_t(Bytes), 0, 0,
                                       HostDev, Dev);
}

namespace {

/// Whether libomptarget logs (LIBOMPTARGET_INFO is set and not 0).
bool logging() { return environment().OmptargetInfo != 0; }

/// With LIBOMPTARGET_INFO set, libomptarget 22 can deadlock: a thread inside
/// omp_target_is_present holds its device list and waits for a mapping
/// table that a launch on another thread holds while its logging asks for
/// the device list (tests/lit/e2e/small_args.test hung about one run in
/// seven with 40 launches in flight). In that mode, launches that plan run
/// one at a time, from their plan to their finish, as do the holds of
/// regions and launch groups; their logs no longer interleave either.
std::mutex &logSerial() {
  static std::mutex M;
  return M;
}

/// The plan of the launch running on this thread; its vectors keep their
/// capacity from launch to launch.
thread_local __ofld_map_plan ThreadPlan;

/// Moves every small range that is not on the device yet (a region or a
/// launch group did not map it) into a chunk of the device's argument arena,
/// and points the launch's entries at the copy: its range entries, and the
/// kernel's pointer slots (entries `N` to `Total`) into the range.
void moveSmallRanges(__ofld_map_plan &Plan, int32_t N, int32_t Total,
                     void **Ptrs, int64_t *Sizes, int64_t *Types) {
  std::size_t Used = 0;
  for (int32_t I = 0; I < N; ++I) {
    if (Sizes[I] <= 0 || std::size_t(Sizes[I]) > SmallRangeMaxBytes)
      continue;
    auto *Host = static_cast<char *>(Ptrs[I]);
    std::size_t Bytes = std::size_t(Sizes[I]);
    // Merged entries share one range; the first of them moved it already.
    if (Plan.Chunk && Host >= Plan.Chunk.Base &&
        Host < Plan.Chunk.Base + ArgChunkBytes)
      continue;
    // Both ends: a range that reaches into resident data keeps libomptarget's
    // own handling (and its error) rather than a silent second copy.
    if (isPresent(Host, Plan.Device) ||
        isPresent(Host + Bytes - 1, Plan.Device))
      continue;
    if (!Plan.Chunk && !(Plan.Chunk = acquireArgChunk(int(Plan.Device))))
      return;
    // The same address modulo 256 keeps the alignment of any type in it.
    constexpr std::size_t Align = 256;
    std::size_t Offset = (Used + Align - 1) / Align * Align +
                         reinterpret_cast<uintptr_t>(Host) % Align;
    if (Offset + Bytes > ArgChunkBytes)
      continue;
    Used = Offset + Bytes;
    char *Copy = Plan.Chunk.Base + Offset;
    if (Types[I] & MapTo)
      std::memcpy(Copy, Host, Bytes);
    Plan.Moved.push_back({Host, Copy, Bytes, (Types[I] & MapFrom) != 0});
    for (int32_t J = I; J < Total; ++J) {
      if (J < N) {
        if (Ptrs[J] != Host || Sizes[J] != Sizes[I])
          continue;
        Ptrs[J] = Copy;
        // The arena is present: only ALWAYS makes libomptarget copy, and
        // one entry of a merged range is enough to copy it.
        Types[J] = J == I ? Types[J] | MapAlways : Types[J] & ~Transfer;
      } else if (!(Types[J] & MapLiteral)) {
        auto *Ptr = static_cast<char *>(Ptrs[J]);
        if (Ptr >= Host && Ptr < Host + Bytes)
          Ptrs[J] = Copy + (Ptr - Host);
      }
    }
  }
}

/// Maps every large range that is not on the device yet without a transfer
/// and copies it through pinned memory (Staging.cpp).
void stageLargeRanges(__ofld_map_plan &Plan, int32_t N, void **Ptrs,
                      const int64_t *Sizes, const int64_t *Types,
                      const char **Names) {
  std::size_t Threshold = stagingThreshold(int(Plan.Device));
  if (!Threshold)
    return;
  for (int32_t I = 0; I < N; ++I) {
    if (Sizes[I] <= 0 || std::size_t(Sizes[I]) < Threshold)
      continue;
    // Merged entries share one range: stage it once.
    bool Seen = false;
    for (int32_t J = 0; J < I && !Seen; ++J)
      Seen = Ptrs[J] == Ptrs[I] && Sizes[J] == Sizes[I];
    if (Seen || isPresent(Ptrs[I], Plan.Device))
      continue;
    mapBare(/*Begin=*/true, Plan.Device, Ptrs[I], Sizes[I]);
    StagedRange R{Ptrs[I],
                  Sizes[I],
                  omp_get_mapped_ptr(Ptrs[I], int(Plan.Device)),
                  (Types[I] & MapFrom) != 0,
                  Names ? Names[I] : nullptr,
                  I};
    if (!R.Device) {
      fail(Plan.Site, "cannot map %lld bytes of '%s' on device %lld",
           (long long)Sizes[I], argName(Names, I).c_str(),
           (long long)Plan.Device);
      continue;
    }
    Plan.Staged.push_back(R);
    if ((Types[I] & MapTo) &&
        !copyStaged(/*ToDevice=*/true, Plan.Device, R, Plan.Site, Plan.Place))
      fail(Plan.Site, "copying %lld bytes of '%s' to device %lld failed",
           (long long)R.Bytes, argName(Names, I).c_str(),
           (long long)Plan.Device);
  }
}

} // namespace

extern "C" __ofld_map_plan *__ofld_plan_maps(const __ofld_site *Site,
                                             int64_t Device, int32_t N,
                                             int32_t Total, void **Ptrs,
                                             int64_t *Sizes, int64_t *Types,
                                             const char **Names) {
  // One plan per thread is open at a time; anything else gets its own.
  __ofld_map_plan *Plan = ThreadPlan.InUse ? new __ofld_map_plan : &ThreadPlan;
  Plan->InUse = true;
  Plan->Site = Site;
  Plan->Device = Device;
  if (logging()) {
    logSerial().lock();
    Plan->Serialised = true;
  }
  unsigned FailuresBefore = Failures;
  if (N >= 2)
    mergeOverlaps(N, Ptrs, Sizes, Types);
  if (int32_t M = firstMisfit(Device, N, Ptrs, Sizes); M >= 0)
    fail(Site, capacity::ArgumentCause, (unsigned long long)Sizes[M],
         argName(Names, M).c_str(), (long long)Device);
  if (Failures == FailuresBefore)
    moveSmallRanges(*Plan, N, Total, Ptrs, Sizes, Types);
  if (Failures == FailuresBefore)
    stageLargeRanges(*Plan, N, Ptrs, Sizes, Types, Names);
  // A failure was reported (to a handler that returned, or to be reported
  // at the next wait): the launch must not go on to libomptarget, which
  // would abort the process on the same problem.
  if (Failures != FailuresBefore) {
    __ofld_finish_maps(Plan, /*Launched=*/0);
    return &__ofld_abandoned_plan;
  }
  if (!Plan->empty())
    return Plan;
  __ofld_finish_maps(Plan, /*Launched=*/0);
  return nullptr;
}

__ofld_map_plan __ofld_abandoned_plan;

namespace {
/// Copies the staged ranges of `Plan` back if `CopyBack` and they are to,
/// and releases them.
void finishStaged(const __ofld_map_plan &Plan, bool CopyBack) {
  for (const StagedRange &R : Plan.Staged) {
    if (CopyBack && R.CopyBack &&
        !copyStaged(/*ToDevice=*/false, Plan.Device, R, Plan.Site, Plan.Place))
      fail(Plan.Site, "copying %lld bytes back from device %lld failed",
           (long long)R.Bytes, (long long)Plan.Device);
    mapBare(/*Begin=*/false, Plan.Device, R.Host, R.Bytes);
  }
}
} // namespace

extern "C" void __ofld_finish_maps(__ofld_map_plan *Plan, int32_t Launched) {
  if (!Plan || Plan == &__ofld_abandoned_plan)
    return;
  finishStaged(*Plan, Launched != 0);
  // __tgt_target_kernel has copied the arena back and synchronised.
  for (const MovedRange &R : Plan->Moved)
    if (Launched && R.CopyBack)
      std::memcpy(R.Host, R.Copy, R.Bytes);
  releaseArgChunk(Plan->Chunk);
  Plan->Chunk = {};
  Plan->Moved.clear();
  Plan->Staged.clear();
  Plan->InUse = false;
  if (Plan->Serialised) {
    Plan->Serialised = false;
    logSerial().unlock();
  }
  if (Plan != &ThreadPlan)
    delete Plan;
}

namespace {
/// The launch part's wait (setLaunchWait); null until it is set.
std::atomic<LaunchWait> Wait{nullptr};
} // namespace

void ofld::detail::setLaunchWait(LaunchWait W) { Wait.store(W); }

void ofld::detail::waitForLaunches(int64_t Device, const char *What) {
  if (LaunchWait W = Wait.load(std::memory_order_acquire))
    W(Device, What);
}

//===----------------------------------------------------------------------===//
// Ranges held across launches: launch groups and ofld::region
//===----------------------------------------------------------------------===//

namespace {

/// Large ranges a region or a launch group staged at its beginning, by
/// holder, until its end copies them back and releases them.
struct HeldStaging {
  std::mutex Lock;
  std::unordered_map<const void *, __ofld_map_plan> ByHolder;
};

HeldStaging &heldStaging() {
  static HeldStaging H;
  return H;
}

} // namespace

bool ofld::detail::holdRanges(const void *Holder, HoldKind Kind,
                              const __ofld_site *Site,
                              const __ofld_place *Place, int64_t Device,
                              int32_t N, void **Ptrs, int64_t *Sizes,
                              int64_t *Types, const char **Names) {
  std::unique_lock<std::mutex> Serial(logSerial(), std::defer_lock);
  if (logging())
    Serial.lock();
  // What the device cannot hold is reported; nothing is held then, and
  // the launches map (and check) their own data.
  if (int32_t M = firstMisfit(Device, N, Ptrs, Sizes); M >= 0) {
    if (Site)
      fail(Site, capacity::ArgumentCause, (unsigned long long)Sizes[M],
           argName(Names, M).c_str(), (long long)Device);
    else
      failAt(Place, "ofld::region", capacity::EntryCause,
             (unsigned long long)Sizes[M], int(M) + 1, (long long)Device);
    return false;
  }
  // Large ranges first, mapped without a transfer and staged: the mapping
  // below then finds them present and only counts a reference.
  __ofld_map_plan Plan;
  Plan.Site = Site;
  Plan.Place = Place;
  Plan.Device = Device;
  stageLargeRanges(Plan, N, Ptrs, Sizes, Types, Names);
  if (profile::Active)
    profile::mapHeld(/*Begin=*/true, Holder, Site, Place, Device, N, Ptrs,
                     Sizes, Types, Names);
  else
    __tgt_target_data_begin_mapper(
        nullptr, Device, N, Ptrs, Ptrs, Sizes, Types,
        reinterpret_cast<void **>(const_cast<char **>(Names)), nullptr);
  // Launches that find every range held go straight to the device's queue.
  for (int32_t I = 0; I < N; ++I)
    addResident(Device, Holder, Kind, Ptrs[I], Sizes[I], Types[I], Place);
  if (Plan.Staged.empty())
    return true;
  HeldStaging &H = heldStaging();
  std::lock_guard<std::mutex> Guard(H.Lock);
  H.ByHolder[Holder] = std::move(Plan);
  return true;
}

void ofld::detail::releaseRanges(const void *Holder, int64_t Device, int32_t N,
                                 void **Ptrs, int64_t *Sizes, int64_t *Types) {
  // The launches issued before may still use the ranges.
  waitForLaunches(Device, "the end of an ofld::region or launch group");
  std::unique_lock<std::mutex> Serial(logSerial(), std::defer_lock);
  if (logging())
    Serial.lock();
  // What launches wrote into ranges held for the device only comes back
  // (markWrites): every path then ends with the host seeing the writes.
  for (const WrittenRange &W : removeResident(Device, Holder)) {
    StagedRange R{W.Host, W.Bytes, omp_get_mapped_ptr(W.Host, int(Device)),
                  true};
    if (R.Device && !copyRange(/*ToDevice=*/false, Device, R))
      fail(nullptr, "copying %lld bytes back from device %lld failed",
           (long long)R.Bytes, (long long)Device);
  }
  if (profile::Active)
    profile::mapHeld(/*Begin=*/false, Holder, nullptr, nullptr, Device, N, Ptrs,
                     Sizes, Types, nullptr);
  else
    __tgt_target_data_end_mapper(nullptr, Device, N, Ptrs, Ptrs, Sizes, Types,
                                 nullptr, nullptr);
  if (!stagingThreshold(int(Device)))
    return;
  __ofld_map_plan Plan;
  {
    HeldStaging &H = heldStaging();
    std::lock_guard<std::mutex> Guard(H.Lock);
    auto It = H.ByHolder.find(Holder);
    if (It == H.ByHolder.end())
      return;
    Plan = std::move(It->second);
    H.ByHolder.erase(It);
  }
  finishStaged(Plan, /*CopyBack=*/true);
}

namespace {
/// Launch groups open on this thread; a launch inside one must not fall
/// back to the CPU silently (see inLaunchGroup).
thread_local int OpenGroups = 0;
} // namespace

bool ofld::detail::inLaunchGroup() { return OpenGroups > 0; }

extern "C" int64_t __ofld_group_begin(const __ofld_site *Site, int32_t N,
                                      void **Ptrs, int64_t *Sizes,
                                      int64_t *Types, const char **Names) {
  // The device every launch of the group selects: none of them names a
  // device or a queue (LaunchGroups.cpp), and no host code runs in between.
  int64_t Device = __ofld_select_device(Site, nullptr);
  if (Device < 0)
    return -1;
  // Every range held already (by a region, a device buffer or a loop around
  // the group): the group would add only the wait at its end, which stalls
  // launches that otherwise return once queued (a region's loop of shaped
  // launches). Its launches find the ranges as they would find its own.
  bool Held = true;
  for (int32_t I = 0; I < N && Held; ++I)
    Held = Sizes[I] <= 0 || residentAddress(Device, Ptrs[I], Sizes[I]);
  if (Held)
    return -1;
  // The pointer array lives in the caller's frame until __ofld_group_end.
  // A group whose data the device cannot hold holds nothing: its launches
  // map their own.
  if (!holdRanges(Ptrs, HoldKind::Group, Site, nullptr, Device, N, Ptrs, Sizes,
                  Types, Names))
    return -1;
  ++OpenGroups;
  return Device;
}

extern "C" void __ofld_group_end(int64_t Device, int32_t N, void **Ptrs,
                                 int64_t *Sizes, int64_t *Types) {
  if (Device < 0)
    return;
  --OpenGroups;
  releaseRanges(Ptrs, Device, N, Ptrs, Sizes, Types);
}

void ofld::detail::mapBare(bool Begin, int64_t Device, void *Ptr, int64_t Bytes,
                           const char *Name) {
  int64_t Size = Bytes, Type = 0;
  (Begin ? __tgt_target_data_begin_mapper : __tgt_target_data_end_mapper)(
      nullptr, Device, 1, &Ptr, &Ptr, &Size, &Type,
      Name ? reinterpret_cast<void **>(const_cast<char **>(&Name)) : nullptr,
      nullptr);
}
