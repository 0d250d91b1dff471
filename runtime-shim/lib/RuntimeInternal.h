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

#include "offload/runtime.h"

#include <cstdint>
#include <string>

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

/// OMP_TARGET_OFFLOAD.
enum class Policy { Default, Mandatory, Disabled };

/// Read once: every launch asks, and getenv is a linear scan.
Policy offloadPolicy();

/// libomptarget's device count, asked once.
int numDevices();

/// Reports a failure of the launch at `Site`: "offload: kernel '<name>' at
/// <file>:<line>: <cause>" (or "offload: ofld::region: <cause>" when `Site`
/// is null) to the error handler, or on stderr and exit(1).
[[gnu::format(printf, 2, 3)]] void fail(const __ofld_site *Site,
                                        const char *Format, ...);

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

/// Maps `N` ranges that a region or a launch group (`Holder`, an address
/// that stays the same until releaseRanges) keeps on `Device` across
/// launches, as __tgt_target_data_begin_mapper would; large ranges not yet
/// present are copied through pinned memory (Staging.h).
void holdRanges(const void *Holder, const __ofld_site *Site, int64_t Device,
                int32_t N, void **Ptrs, int64_t *Sizes, int64_t *Types,
                const char **Names);

/// Ends what holdRanges began, as __tgt_target_data_end_mapper would.
void releaseRanges(const void *Holder, int64_t Device, int32_t N, void **Ptrs,
                   int64_t *Sizes, int64_t *Types);

/// The expression of a map name ";name;file;line;column;;".
std::string mapName(const char *Name);

} // namespace ofld::detail

#endif // OFFLOAD_RUNTIME_RUNTIMEINTERNAL_H
