//===- Runtime.h - errors and device numbering ------------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What every part of libofld_rt needs and no part owns: how a failure is
// reported (naming the kernel and call site, or deferred to the next wait),
// libomptarget's device numbering, which of its devices offload uses, and
// the OMP_TARGET_OFFLOAD policy. Runtime.cpp defines them, with the entry
// points that choose a launch's device. Not installed.
//
// Include order (runtime/CMakeLists.txt): Environment.h, Libomptarget.h,
// cuda/Cuda.h, then this; tools/, data/ and launch/ come above it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_RUNTIME_H
#define OFFLOAD_RUNTIME_RUNTIME_H

#include "Environment.h"
#include "offload/policy/devices.hpp"
#include "offload/runtime.h"

#include "offload/region.hpp"

#include <cstdint>
#include <string>
#include <vector>

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

/// The expression of a map name ";name;file;line;column;;".
std::string mapName(const char *Name);

/// The device of launches (and regions) that name none
/// (offload/policy/devices.hpp decides it from what Runtime.cpp knows).
using DefaultDevice = ofld::policy::DefaultDevice;
DefaultDevice defaultDevice();

/// What the launch part sets up on a device before its first launch
/// (launch/Queues.cpp: images loaded, kernels found, the default queue's
/// stream), run once per device by deviceInUse.
using DeviceWarmUp = void (*)(int64_t Device);
void setDeviceWarmUp(DeviceWarmUp WarmUp);

/// The program uses libomptarget device `Device` (a region, a buffer, a
/// launch; -1: the host, nothing to do): the first time, the launch part's
/// warm-up runs, so that no launch pays for it (issue 29). One load after.
void deviceInUse(int64_t Device);

} // namespace ofld::detail

#endif // OFFLOAD_RUNTIME_RUNTIME_H
