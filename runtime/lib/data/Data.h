//===- Staging.h - big copies through pinned memory -------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A copy from pageable memory runs at a fraction of the pinned-memory rate
// (the driver stages it through its own small pinned buffer, one chunk at a
// time). For large spans the runtime maps the device buffer without a
// transfer and moves the bytes itself with these functions, through pinned
// buffers in chunks whose host-side copies overlap the DMA.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_STAGING_H
#define OFFLOAD_RUNTIME_STAGING_H

#include <cstddef>

namespace ofld::detail {

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

} // namespace ofld::detail

#endif // OFFLOAD_RUNTIME_STAGING_H
