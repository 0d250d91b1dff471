//===- launch/Reductions.cpp - device scratch of reduction parameters -----===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A kernel with an `ofld::sum<T>&` (min, max) parameter writes one partial
// per block into device scratch, and its last block combines them
// (offload/reduction.hpp). The scratch is the runtime's: a buffer per host
// thread, device, queue and reduction of the kernel, allocated on first use
// with its arrival counter zeroed, grown when a grid needs more, and never
// freed while the program runs. That makes it safe without a lock on the
// launch path: launches that share a buffer are on one queue of one host
// thread, and a queue runs its launches one after another; launches through
// libomptarget (which waits for them) use a buffer of their own per thread.
// A buffer that grows is retired, not freed: a launch still queued may use
// it.
//
//===----------------------------------------------------------------------===//

#include "launch/Launch.h"

#include "Runtime.h"
#include "offload/launch.hpp"
#include "offload/reduction.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace ofld::detail;

namespace {

/// The largest scratch one reduction of one launch may take: 8 bytes a
/// block, so a grid of up to 2^27 blocks (grid-stride loops need far fewer).
constexpr uint64_t MaxScratchBytes = uint64_t(1) << 30;

struct Scratch {
  int64_t Device;
  int32_t Queue, Index;
  void *Ptr;
  uint64_t Bytes;
};

/// This thread's buffers; a handful at most, looked up linearly.
thread_local std::vector<Scratch> Buffers;

} // namespace

bool ofld::detail::isReductionScratch(uint64_t Address) {
  for (const Scratch &B : Buffers)
    if (reinterpret_cast<uint64_t>(B.Ptr) == Address)
      return true;
  return false;
}

//===-- Entry points (plugin <-> runtime ABI) -----------------------------===//

extern "C" uint64_t
__ofld_reduction_scratch(const __ofld_site *Site, int64_t Device,
                         const ofld::launch *Shape, int32_t OnStream,
                         const uint32_t *Dims, int32_t Index) {
  // CPU grids combine into the variable itself.
  if (Device < 0 || isHostTargetDevice(int(Device)))
    return 0;
  uint64_t Blocks = uint64_t(Dims[0]) * Dims[1] * Dims[2];
  uint64_t Bytes = __ofld::reduce::partials_offset + Blocks * 8;
  if (Bytes > MaxScratchBytes) {
    fail(Site,
         "a reduction over %llu blocks needs %llu bytes of device scratch, "
         "more than the %llu allowed; launch fewer blocks (a grid-stride "
         "loop); the variable keeps its value",
         (unsigned long long)Blocks, (unsigned long long)Bytes,
         (unsigned long long)MaxScratchBytes);
    return 0;
  }
  int32_t Queue = OnStream ? (Shape ? Shape->queue.index_ : 0) : -1;
  Scratch *S = nullptr;
  for (Scratch &B : Buffers)
    if (B.Device == Device && B.Queue == Queue && B.Index == Index)
      S = &B;
  if (S && S->Bytes >= Bytes)
    return reinterpret_cast<uint64_t>(S->Ptr);

  uint64_t Want = std::max<uint64_t>(Bytes, 64 * 1024);
  if (S)
    Want = std::min(std::max(Want, 2 * S->Bytes), MaxScratchBytes);
  void *Ptr = omp_target_alloc(Want, int(Device));
  // The arrival counter starts at 0; every launch leaves it at 0.
  static const char Zeros[__ofld::reduce::partials_offset] = {};
  if (!Ptr || omp_target_memcpy(Ptr, Zeros, sizeof(Zeros), 0, 0, int(Device),
                                omp_get_initial_device())) {
    fail(Site,
         "cannot allocate %llu bytes of device scratch for a reduction on "
         "device %lld; the variable keeps its value",
         (unsigned long long)Want, (long long)Device);
    if (Ptr)
      omp_target_free(Ptr, int(Device));
    return 0;
  }
  if (S) {
    S->Ptr = Ptr; // the old buffer is retired (see the top of this file)
    S->Bytes = Want;
  } else {
    Buffers.push_back({Device, Queue, Index, Ptr, Want});
  }
  return reinterpret_cast<uint64_t>(Ptr);
}
