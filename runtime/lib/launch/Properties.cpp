//===- launch/Properties.cpp - ofld::properties ---------------------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What cudaGetDeviceProperties and cudaMemGetInfo tell, for offload's device
// numbers (offload/properties.hpp). NVIDIA GPUs answer through the CUDA
// driver (the runtime's dlopen'ed copy, cuda/Cuda.h); the CPU, where kernels
// run there or on the host offload target, through the host description
// that the OpenMP bridge shares (offload/detail/host_properties.hpp). Other
// devices (AMD GPUs) have no driver the runtime loads: their name is
// libomptarget's UID of them and their limits the portable ones the runtime
// applies there (docs/Targets.md).
//
//===----------------------------------------------------------------------===//

#include "offload/properties.hpp"
#include "Runtime.h"
#include "cuda/Cuda.h"
#include "data/Data.h"
#include "offload/detail/capacity.hpp"
#include "offload/detail/host_properties.hpp"
#include "offload/launch.hpp"
#include "offload/policy/errors.hpp"

#include <omp.h>

#include <cstdio>

using namespace ofld::detail;

namespace {

/// Fills `I` from the CUDA driver for CUDA device `Ordinal` (libomptarget's
/// `Device`).
void cudaInfo(const cuda::Driver &Cu, int Ordinal, int64_t Device,
              __ofld_device_info &I) {
  cuda::CUdevice Dev;
  if (Cu.DeviceGet(&Dev, Ordinal))
    return;
  auto Attr = [&](int A) -> int64_t {
    int V = 0;
    return Cu.DeviceGetAttribute(&V, A, Dev) ? 0 : V;
  };
  if (!Cu.DeviceGetName || Cu.DeviceGetName(I.name, int(sizeof(I.name)), Dev))
    std::snprintf(I.name, sizeof(I.name), "CUDA device %d", Ordinal);
  std::snprintf(I.arch, sizeof(I.arch), "sm_%lld%lld",
                (long long)Attr(cuda::AttrComputeMajor),
                (long long)Attr(cuda::AttrComputeMinor));
  I.multiprocessors = Attr(cuda::AttrMultiprocessorCount);
  std::size_t Total = 0;
  if (Cu.DeviceTotalMem && !Cu.DeviceTotalMem(&Total, Dev))
    I.global_memory = int64_t(Total);
  uint64_t Free = freeBytes(Device);
  I.free_memory = Free == capacity::NoAnswer ? 0 : int64_t(Free);
  I.max_threads_per_block = Attr(cuda::AttrMaxThreadsPerBlock);
  for (int D = 0; D < 3; ++D) {
    I.max_grid[D] = Attr(cuda::AttrMaxGridDimX + D);
    I.max_block[D] = Attr(cuda::AttrMaxBlockDimX + D);
  }
  I.shared_memory_per_block = Attr(cuda::AttrMaxSharedMemoryPerBlock);
  I.warp_size = Attr(cuda::AttrWarpSize);
  I.clock_khz = Attr(cuda::AttrClockRate);
}

} // namespace

extern "C" int32_t __ofld_device_properties(int32_t Requested,
                                            __ofld_device_info *Out,
                                            const __ofld_place *Place) {
  *Out = {};
  const char *What = "ofld::properties";
  // It asks about a device: one that does not exist is an error, whatever
  // OMP_TARGET_OFFLOAD lets launches do with its number.
  int Count = ofld::device_count();
  if (Requested < -1 || Requested >= Count) {
    char Cause[256];
    ofld::policy::noSuchDeviceCause(Cause, sizeof(Cause), Requested, Count);
    failAt(Place, What, "%s", Cause);
    return 0;
  }
  int64_t Device = dataDevice(Requested, Place, What);
  if (Device < 0 || isHostTargetDevice(int(Device))) {
    host_device_info(*Out);
    return 1;
  }
  const cuda::Driver *Cu = cuda::driver();
  int Ordinal = cudaOrdinal(int(Device));
  if (Cu && Ordinal >= 0) {
    cudaInfo(*Cu, Ordinal, Device, *Out);
    return 1;
  }
  const char *Uid = omp_get_uid_from_device(int(Device));
  std::snprintf(Out->name, sizeof(Out->name), "OpenMP device %lld (%s)",
                (long long)Device, Uid ? Uid : "no UID");
  Out->max_threads_per_block = int64_t(portable_max_threads);
  for (int D = 0; D < 3; ++D) {
    Out->max_grid[D] = int64_t(portable_max_grid[D]);
    Out->max_block[D] = int64_t(portable_max_block[D]);
  }
  return 1;
}
