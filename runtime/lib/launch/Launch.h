//===- launch/Launch.h - the launch part: kernels onto devices --*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The launch part's interface. It knows the program's kernels (Images.cpp:
// the images libomptarget is given, loaded again for the runtime's own
// streams), decides a launch's shape against the device's limits and puts
// launches whose data the device holds on a queue's CUDA stream
// (Enqueue.cpp, Queues.cpp); other launches go through libomptarget, in
// order with the queue. Reductions.cpp gives reductions their scratch and
// CpuGrid.cpp runs grids on this CPU. Transfers.cpp puts ofld::copy and
// ofld::fill in order with the launches; Properties.cpp answers
// ofld::properties. The lowered code calls the part's
// entry points (runtime_abi.def); the rest of the runtime calls what is
// declared here.
//
// Include order (runtime/CMakeLists.txt): above data/Data.h and everything
// under it; only Interpose.cpp is above it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_LAUNCH_LAUNCH_H
#define OFFLOAD_RUNTIME_LAUNCH_LAUNCH_H

#include "Libomptarget.h"
#include "data/Data.h"

#include <cstdint>

namespace ofld::detail {

/// The largest grid, block and dynamic shared memory a launch of the kernel
/// `RegionId` may have on `Device` (-1: this CPU): the device's and kernel's
/// own where the runtime can ask the driver (CUDA), else the portable ones
/// (launch.hpp).
struct LaunchLimits {
  uint64_t Grid[3], Block[3], Threads, SharedBytes;
  /// Whose they are, for messages: the device's, or (for Threads and
  /// SharedBytes) the kernel's own on the device; else the portable ones.
  bool FromDevice = false, ThreadsFromKernel = false, SharedFromKernel = false;
};
LaunchLimits launchLimits(int64_t Device, const void *RegionId);

/// Whether `Address` is device scratch that __ofld_reduction_scratch gave
/// this thread: a launch's literal slot of that value follows the slot of a
/// reduction's variable (LaunchABI.h, SlotShape::Reduction).
bool isReductionScratch(uint64_t Address);

/// Waits for every launch issued on `Device` (all its queues: their worker
/// threads and streams) and reports the errors of those that failed; `What`
/// names the point that waits, for messages.
void drainDevice(int64_t Device, const char *What);

/// Waits for every launch on every device.
void drainAll(const char *What);

/// Records the CUDA images and region-id -> kernel entries of an image
/// descriptor that the program registers with libomptarget (its printf
/// buffers go to tools/); returns whether the descriptor has a printf
/// buffer.
bool registerImages(const omptarget::BinDesc *Desc);

/// The program ends: waits for every queued launch on every device. A
/// launch that failed ends the process here with its message (exit() is
/// already running).
void finishLaunches();

} // namespace ofld::detail

#endif // OFFLOAD_RUNTIME_LAUNCH_LAUNCH_H
