//===- offload/bridge/transfer.hpp - copies, fills, properties --*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. ofld::copy, ofld::fill (offload/transfer.hpp) and
// ofld::properties (offload/properties.hpp) without libofld_rt. An end of a
// transfer is a device_buffer's memory (bridge/buffer.hpp), the device copy
// of a range the OpenMP runtime holds (a region), or host memory; copies
// are omp_target_memcpy, fills copies of a host pattern. Every rewritten
// launch has finished when its statement's block ends, so the transfers run
// at once, in order with them; `nowait` changes nothing here. Properties:
// the CPU's (offload/detail/host_properties.hpp) where kernels run on it;
// elsewhere what OpenMP can tell (docs/Targets.md).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_TRANSFER_HPP
#define OFFLOAD_BRIDGE_TRANSFER_HPP

#include "offload/bridge/buffer.hpp"
#include "offload/bridge/cuda.hpp"
#include "offload/bridge/host_api.hpp"
#include "offload/detail/host_properties.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
namespace ofld::bridge::detail {

/// Where one end of a transfer is: OpenMP device `device` (-1: host
/// memory) at `ptr`.
struct transfer_end {
  int device = -1;
  void *ptr = nullptr;
};

/// The device address of `P`, which OpenMP device `D` holds.
inline void *mappedAddress(void *P, int D) {
#if defined(__clang__)
  return omp_get_mapped_ptr(P, D);
#else
  // libgomp 12 has no omp_get_mapped_ptr: the data region translates it.
  char *Q = static_cast<char *>(P);
#pragma omp target data use_device_ptr(Q) device(D)
  {
    P = Q;
  }
  return P;
#endif
}

/// Finds the `Bytes` at `P` (`Role`: "destination" or "source"); false,
/// having reported it, where only part of them is on a device.
inline bool locate(const void *P, std::int64_t Bytes, const char *Role,
                   const char *What, const __ofld_place *Place,
                   transfer_end &Out) {
  Out = {-1, const_cast<void *>(P)};
  const auto A = std::uintptr_t(P);
  buffer B;
  if (findBuffer(P, B)) {
    if (A + std::uintptr_t(Bytes) > B.last) {
      failAt(Place, What,
             "the %s (%lld bytes) runs past the end of the "
             "device_buffer it starts in",
             Role, (long long)Bytes);
      return false;
    }
    Out = {B.device, static_cast<char *>(B.device_ptr) + (A - B.first)};
    return true;
  }
  const device_table &T = devices();
  for (int D = 0; D < T.count; ++D) {
    if (!omp_target_is_present(P, D))
      continue;
    char *First = static_cast<char *>(const_cast<void *>(P));
    char *Last = First + Bytes - 1;
    void *Dev = mappedAddress(First, D);
    if (!Dev || !omp_target_is_present(Last, D) ||
        mappedAddress(Last, D) != static_cast<char *>(Dev) + (Bytes - 1)) {
      failAt(Place, What,
             "only part of the %s (%lld bytes) is on device %d (a "
             "region holds it): transfer the part it holds and the rest "
             "separately",
             Role, (long long)Bytes, D);
      return false;
    }
    Out = {D, Dev};
    return true;
  }
  return true;
}

/// The OpenMP number of an end's memory for omp_target_memcpy.
inline int memcpyDevice(const transfer_end &E) {
  return E.device < 0 ? omp_get_initial_device() : E.device;
}

} // namespace ofld::bridge::detail

extern "C" inline void __ofld_copy(void *Dst, const void *Src,
                                   std::int64_t Bytes, std::int32_t,
                                   std::int32_t, const char *What,
                                   const __ofld_place *P) {
  namespace d = ofld::bridge::detail;
  d::transfer_end To, From;
  if (Bytes <= 0 || !d::locate(Dst, Bytes, "destination", What, P, To) ||
      !d::locate(Src, Bytes, "source", What, P, From))
    return;
  if (To.device < 0 && From.device < 0) {
    std::memmove(To.ptr, From.ptr, std::size_t(Bytes));
    return;
  }
  if (omp_target_memcpy(To.ptr, From.ptr, std::size_t(Bytes), 0, 0,
                        d::memcpyDevice(To), d::memcpyDevice(From)))
    d::failAt(P, What, "copying %lld bytes failed", (long long)Bytes);
}

extern "C" inline void __ofld_fill(void *Dst, std::int64_t Bytes,
                                   const void *Value, std::int64_t ValueBytes,
                                   std::int32_t, std::int32_t, const char *What,
                                   const __ofld_place *P) {
  namespace d = ofld::bridge::detail;
  d::transfer_end To;
  if (Bytes <= 0 || ValueBytes <= 0 ||
      !d::locate(Dst, Bytes, "destination", What, P, To))
    return;
  // The pattern, up to 1 MiB of it (all of it for host memory).
  const std::int64_t Per =
      To.device < 0 ? Bytes / ValueBytes
                    : std::max<std::int64_t>(1, (1 << 20) / ValueBytes);
  const std::int64_t Chunk = std::min(Bytes, Per * ValueBytes);
  char *Pattern = To.device < 0 ? static_cast<char *>(To.ptr)
                                : static_cast<char *>(std::malloc(Chunk));
  if (!Pattern) {
    d::failAt(P, What, "cannot allocate %lld bytes on the host",
              (long long)Chunk);
    return;
  }
  for (std::int64_t Off = 0; Off < Chunk; Off += ValueBytes)
    std::memcpy(Pattern + Off, Value, std::size_t(ValueBytes));
  if (To.device < 0)
    return;
  bool Failed = false;
  for (std::int64_t Off = 0; Off < Bytes && !Failed; Off += Chunk)
    Failed = omp_target_memcpy(static_cast<char *>(To.ptr) + Off, Pattern,
                               std::size_t(std::min(Chunk, Bytes - Off)), 0, 0,
                               To.device, omp_get_initial_device());
  std::free(Pattern);
  if (Failed)
    d::failAt(P, What, "filling %lld bytes on device %d failed",
              (long long)Bytes, To.device);
}

extern "C" inline std::int32_t __ofld_device_properties(std::int32_t Requested,
                                                        __ofld_device_info *Out,
                                                        const __ofld_place *P) {
  namespace d = ofld::bridge::detail;
  std::memset(Out, 0, sizeof(*Out));
  const char *What = "ofld::properties";
  // libofld_rt's rule: a device that does not exist is an error.
  const int Count = ofld::device_count();
  if (Requested < -1 || Requested >= Count) {
    char Cause[256];
    ofld::policy::noSuchDeviceCause(Cause, sizeof(Cause), Requested, Count);
    d::failAt(P, What, "%s", Cause);
    return 0;
  }
  const int D = d::dataDevice(P, What, Requested);
  if (D == -2)
    return 0;
  if (d::runsOnCpu(D)) {
    ofld::detail::host_device_info(*Out);
    return 1;
  }
  // A GPU: OpenMP tells its number, the portable limits hold; where the
  // OpenMP runtime put it on the CUDA driver, the driver tells the rest (the
  // attributes libofld_rt reads, launch/Properties.cpp).
  std::snprintf(Out->name, sizeof(Out->name), "OpenMP device %d", D);
  Out->max_threads_per_block = std::int64_t(ofld::policy::PortableMaxThreads);
  for (int I = 0; I < 3; ++I) {
    Out->max_grid[I] = std::int64_t(ofld::policy::PortableMaxGrid[I]);
    Out->max_block[I] = std::int64_t(ofld::policy::PortableMaxBlock[I]);
  }
  const std::uint64_t Free = d::freeBytes(D, [Out](const d::cuda_api &A,
                                                   int Dev) {
    if (!A.DeviceGetAttribute || !A.DeviceGetName || !A.DeviceTotalMem)
      return;
    auto Attr = [&](int Which) {
      int V = 0;
      return A.DeviceGetAttribute(&V, Which, Dev) ? 0 : V;
    };
    // CU_DEVICE_ATTRIBUTE_*: threads per block 1, block 2-4, grid 5-7,
    // shared memory per block 8, warp 10, clock 13, SMs 16, compute
    // capability 75 and 76.
    (void)A.DeviceGetName(Out->name, int(sizeof(Out->name)), Dev);
    std::snprintf(Out->arch, sizeof(Out->arch), "sm_%d%d", Attr(75), Attr(76));
    std::size_t Total = 0;
    if (!A.DeviceTotalMem(&Total, Dev))
      Out->global_memory = std::int64_t(Total);
    Out->max_threads_per_block = Attr(1);
    for (int I = 0; I < 3; ++I) {
      Out->max_block[I] = Attr(2 + I);
      Out->max_grid[I] = Attr(5 + I);
    }
    Out->shared_memory_per_block = Attr(8);
    Out->warp_size = Attr(10);
    Out->clock_khz = Attr(13);
    Out->multiprocessors = Attr(16);
  });
  if (Free != d::capacity::NoAnswer)
    Out->free_memory = std::int64_t(Free);
  return 1;
}
#endif

#endif // OFFLOAD_BRIDGE_TRANSFER_HPP
