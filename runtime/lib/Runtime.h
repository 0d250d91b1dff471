//===- RuntimeInternal.h - shared state of the host runtime -----*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What Runtime.cpp shares with the other files of libofld_rt (MapPlan.cpp,
// Staging.cpp). Not installed.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_RUNTIMEINTERNAL_H
#define OFFLOAD_RUNTIME_RUNTIMEINTERNAL_H

#include "Environment.h"
#include "offload/runtime.h"

#include "offload/region.hpp"

#include <cstdint>
#include <string>
#include <vector>

// libomptarget's mapping entry points (the ABI clang's OpenMP code uses).
extern "C" {
void __tgt_target_data_begin_mapper(void *Loc, int64_t DeviceId, int32_t N,
                                    void **Bases, void **Ptrs, int64_t *Sizes,
                                    int64_t *Types, void **Names,
                                    void **Mappers);
void __tgt_target_data_end_mapper(void *Loc, int64_t DeviceId, int32_t N,
                                  void **Bases, void **Ptrs, int64_t *Sizes,
                                  int64_t *Types, void **Names, void **Mappers);
}

namespace ofld::detail {

/// OMP_TARGET_OFFLOAD (Environment.h).
inline Policy offloadPolicy() { return environment().Offload; }

/// libomptarget's device count, asked once.
int numDevices();

/// Whether libomptarget device `Device` belongs to a host-target plugin (its
/// "device" memory is host memory).
bool isHostTargetDevice(int Device);

/// The CUDA ordinal of libomptarget device `Device`, or -1 if it is no CUDA
/// device (or there is no driver). Found once per device.
int cudaOrdinal(int Device);

/// Reports a failure of the launch at `Site`: "offload: kernel '<name>' at
/// <file>:<line>: <cause>" (or "offload: ofld::region: <cause>" when `Site`
/// is null) to the error handler, or on stderr and exit(1).
[[gnu::format(printf, 2, 3)]] void fail(const __ofld_site *Site,
                                        const char *Format, ...);

/// Where reportError puts messages on this thread instead of reporting them
/// (a worker running launches that did not wait), or null.
extern thread_local std::vector<std::string> *DeferredErrors;

/// The largest grid and block a launch of the kernel `RegionId` may have on
/// `Device` (-1: this CPU): the device's and kernel's own where the runtime
/// can ask the driver (CUDA), else the portable ones (launch.hpp).
struct LaunchLimits {
  uint64_t Grid[3], Block[3], Threads;
  /// Whose they are, for messages: the device's, or (for Threads) the
  /// kernel's own on the device; else the portable ones.
  bool FromDevice = false, ThreadsFromKernel = false;
};
LaunchLimits launchLimits(int64_t Device, const void *RegionId);

/// Failures reported on this thread so far (fail()): a launch whose
/// preparation reported one does not go on.
extern thread_local unsigned Failures;

/// Reports a failure of `What` ("ofld::region", "ofld::device_buffer")
/// at `Place` (may be null): "offload: <What> at <file>:<line>: <cause>".
[[gnu::format(printf, 3, 4)]] void
failAt(const __ofld_place *Place, const char *What, const char *Format, ...);

/// The libomptarget device that data of offload's device `Requested` (-1:
/// the default device) lives on, or -1 when kernels run on this CPU; a
/// number that names no device is reported as a failure of `What`.
int64_t dataDevice(int Requested, const __ofld_place *Place, const char *What);

/// Reports a failure that has no launch site (a whole "offload: ..." line)
/// the same way. Returns only when an error handler is set.
void reportError(const char *Message);

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
/// present are copied through pinned memory (Staging.h). Returns false,
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
/// through pinned memory where the range is large enough (Staging.h), else
/// through libomptarget. Synchronous. Returns false if the copy failed.
bool copyBytes(bool ToDevice, int64_t Device, void *Host, void *DevPtr,
               int64_t Bytes);

/// The expression of a map name ";name;file;line;column;;".
std::string mapName(const char *Name);

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

//===-- Reductions (Reductions.cpp)
//----------------------------------------===//

/// Whether `Address` is device scratch that __ofld_reduction_scratch gave
/// this thread: a launch's literal slot of that value follows the slot of a
/// reduction's variable (LaunchABI.h, SlotShape::Reduction).
bool isReductionScratch(uint64_t Address);

//===-- Queues and stream-ordered launches (Streams.cpp) -----------------===//

/// Waits for every launch issued on `Device` (all its queues: their worker
/// threads and streams) and reports the errors of those that failed; `What`
/// names the point that waits, for messages.
void drainDevice(int64_t Device, const char *What);

/// Waits for every launch on every device.
void drainAll(const char *What);

//===-- Buffered device printf (DevicePrintf.cpp) ------------------------===//

/// Whether the offload entry `Symbol` is a printf buffer (at `Host`, `Size`
/// bytes); it is then known to the runtime.
bool registerPrintfBuffer(const char *Symbol, void *Host, uint64_t Size);

/// Held around a launch through libomptarget: where the device's printf is
/// buffered, the last launch to finish there prints the buffer.
class PrintfLaunch {
public:
  explicit PrintfLaunch(int64_t Device);
  ~PrintfLaunch();
  PrintfLaunch(const PrintfLaunch &) = delete;
  PrintfLaunch &operator=(const PrintfLaunch &) = delete;

private:
  void *State = nullptr;
  int64_t Device = -1;
};

} // namespace ofld::detail

#endif // OFFLOAD_RUNTIME_RUNTIMEINTERNAL_H
