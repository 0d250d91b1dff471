//===- data/Data.h - the data part's interface ------------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The data part's interface: everything about a launch's mapped ranges that
// does not depend on how the kernel is launched. Map plans (MapPlan.cpp)
// merge aliasing ranges, check capacity, stage big ranges through pinned
// memory (Staging.cpp, StagingPipeline.h) and move small ones through the
// argument arena (ArgArena.cpp); the residency table (Residency.cpp) records
// what regions, launch groups and device buffers keep on a device, so a
// launch can tell whether its data is there already (Regions.cpp holds the
// ranges of an ofld::region).
//
// Include order (runtime/CMakeLists.txt): above Runtime.h, cuda/Cuda.h and
// tools/Tools.h, below launch/. Where data must wait for launches (a range
// is released or read back), it calls the hook the launch part sets
// (setLaunchWait), not launch/ itself.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_DATA_DATA_H
#define OFFLOAD_RUNTIME_DATA_DATA_H

#include "Runtime.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ofld::detail {

//===-- Waiting for launches (set by launch/) ----------------------------===//

/// Waits for every launch issued on `Device` and reports the failures of
/// those that failed; `What` names the point that waits, for messages.
using LaunchWait = void (*)(int64_t Device, const char *What);

/// The launch part's wait, set once when the runtime loads.
void setLaunchWait(LaunchWait Wait);

/// Calls the wait set by setLaunchWait (none set: nothing was launched).
void waitForLaunches(int64_t Device, const char *What);

//===-- Map plans and held ranges (MapPlan.cpp) --------------------------===//

/// Whether this thread is between the first and the last launch of a launch
/// group: the device holds the group's data, the host copies are stale.
bool inLaunchGroup();

/// Maps (`Begin`) or releases one range without any transfer; `Name`, a
/// map name ";name;file;line;column;;", is what libomptarget's log shows.
void mapBare(bool Begin, int64_t Device, void *Ptr, int64_t Bytes,
             const char *Name = nullptr);

/// Who keeps a range on a device across launches.
enum class HoldKind : uint8_t { Region, Group, Buffer };

/// Maps `N` ranges that a region or a launch group (`Holder`, an address
/// that stays the same until releaseRanges) keeps on `Device` across
/// launches, as __tgt_target_data_begin_mapper would; large ranges not yet
/// present are copied through pinned memory (Staging.cpp). Returns false,
/// holding nothing, when the device cannot hold them (reported as a failure
/// of the launch at `Site`, else of the ofld::region at `Place`).
bool holdRanges(const void *Holder, HoldKind Kind, const __ofld_site *Site,
                const __ofld_place *Place, int64_t Device, int32_t N,
                void **Ptrs, int64_t *Sizes, int64_t *Types,
                const char **Names);

/// Ends what holdRanges began, as __tgt_target_data_end_mapper would, once
/// the launches issued before have finished.
void releaseRanges(const void *Holder, int64_t Device, int32_t N, void **Ptrs,
                   int64_t *Sizes, int64_t *Types);

/// Copies `Bytes` between host memory `Host` and `DevPtr` on `Device`,
/// through pinned memory where the range is large enough (Staging.cpp), else
/// through libomptarget. Synchronous. Returns false if the copy failed.
bool copyBytes(bool ToDevice, int64_t Device, void *Host, void *DevPtr,
               int64_t Bytes);

/// The free memory of libomptarget device `Device`, asked of the CUDA driver
/// in the device's primary context (libomptarget's), or
/// ofld::policy::capacity::NoAnswer where it is no CUDA device.
uint64_t freeBytes(int64_t Device);

//===-- Resident ranges (Residency.cpp) ----------------------------------===//

/// Records that `Holder` keeps the `Bytes` at `Host` on `Device` (already
/// mapped there) with map type `Type` (OpenMP bits). `Place`: the region's
/// or buffer's source position, for messages (may be null).
void addResident(int64_t Device, const void *Holder, HoldKind Kind, void *Host,
                 int64_t Bytes, int64_t Type, const __ofld_place *Place);

/// Forgets what `Holder` recorded; returns the ranges a launch wrote
/// although the holder maps them to the device only (see markWrites), to be
/// copied back before they are released.
struct WrittenRange {
  void *Host;
  int64_t Bytes;
};
std::vector<WrittenRange> removeResident(int64_t Device, const void *Holder);

/// The device address of the `Bytes` at `Host` if a holder keeps all of them
/// on `Device`; null otherwise (also for a range of 0 bytes outside any).
void *residentAddress(int64_t Device, const void *Host, int64_t Bytes);

/// Changes whenever a holder adds or removes a range (any device): what a
/// launch found of its ranges stays true while this is the same.
uint64_t residencyGeneration();

/// What a launch needs to know of one of its ranges, in one look.
struct RangeLookup {
  void *Address = nullptr; ///< residentAddress
  /// A holder keeps part of it (not all): it cannot be copied on its own.
  bool Partly = false;
  /// The launch writes it (`Writes`) and only regions that map it to the
  /// device only hold it: call markWrites.
  bool WritesConstEntry = false;
};
RangeLookup lookupRange(int64_t Device, const void *Host, int64_t Bytes,
                        bool Writes);

/// Whether `Host` lies in a device_buffer of some device (its address
/// stands for device memory; the host must not touch it). `Device` gets the
/// buffer's device.
bool inDeviceBuffer(const void *Host, int64_t &Device);

/// A launch at `Site` writes (map type `Type` has from) the range at `Host`:
/// if every holder that keeps it maps it to the device only, mark it to be
/// copied back when the holder ends and warn once per call site. `Name` is
/// the argument's map name.
void markWrites(const __ofld_site *Site, int64_t Device, void *Host,
                int64_t Bytes, const char *Name);

//===-- Staging through pinned memory (Staging.cpp) ----------------------===//
//
// A copy from pageable memory runs at a fraction of the pinned-memory rate
// (the driver stages it through its own small pinned buffer, one chunk at a
// time). For large spans the runtime maps the device buffer without a
// transfer and moves the bytes itself with these functions, through pinned
// buffers in chunks whose host-side copies overlap the DMA.

/// Smallest mapping (bytes) worth staging on OpenMP device `Device`: 0 when
/// staging is off there (a host offload target, OFFLOAD_STAGING=0, no pinned
/// memory). Cheap to call on every launch.
std::size_t stagingThreshold(int Device);

/// Copies `Bytes` from host memory `Host` to `DevPtr` (a device address of
/// OpenMP device `Device`). Returns false, having copied nothing, when
/// staging is not possible; the caller then copies through libomptarget.
/// Synchronous, on queues of its own: device work that uses `DevPtr` must
/// have completed. A failure after bytes moved is reported through the
/// runtime's error path (ofld::set_error_handler); if the handler returns,
/// so does this, with false, and the caller's full copy overwrites them.
bool stageToDevice(int Device, void *DevPtr, const void *Host,
                   std::size_t Bytes);

/// The reverse copy, device to host; same contract.
bool stageFromDevice(int Device, void *Host, const void *DevPtr,
                     std::size_t Bytes);

//===-- The argument arena (ArgArena.cpp) --------------------------------===//
//
// A small mapped range (a 1 KB span, a struct, a short array) costs a launch
// more in libomptarget's bookkeeping and in pageable copies than in bytes.
// The arena is one block of pinned host memory per device whose device copy
// exists for the life of the process (omp_target_associate_ptr): a launch
// copies each small range into a chunk of it and maps the chunk instead.

/// Largest range (bytes) that goes through the arena.
constexpr std::size_t SmallRangeMaxBytes = std::size_t(16) << 10;

/// What one launch may place in the arena, all its small ranges together:
/// three of the largest, each at its own address modulo 256 (and a fourth
/// never). A multiple of 256, so that every chunk starts 256-aligned.
constexpr std::size_t ArgChunkBytes = 3 * (SmallRangeMaxBytes + 512);

/// A chunk of the arena of one device, held by one launch at a time.
struct ArgChunk {
  char *Base = nullptr;       ///< host address; null: no chunk
  char *DeviceBase = nullptr; ///< the device's copy of it
  int Device = -1;
  int Index = -1;
  explicit operator bool() const { return Base != nullptr; }
};

/// Takes a free chunk of OpenMP device `Device`'s arena, creating the arena
/// on first use. Returns an empty chunk when there is none: the arena is
/// off (OFFLOAD_SMALL_ARGS=0), the device could not provide it, or every
/// chunk is in use by concurrent launches. The caller then maps as usual.
ArgChunk acquireArgChunk(int Device);

/// Gives a chunk back once the launch that took it has finished.
void releaseArgChunk(const ArgChunk &Chunk);

} // namespace ofld::detail

#endif // OFFLOAD_RUNTIME_DATA_DATA_H
