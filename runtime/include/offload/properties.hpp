//===- offload/properties.hpp - what a device is ----------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
//   #include <offload/properties.hpp>
//   ofld::device_properties p = ofld::properties(0);
//   std::printf("%s (%s): %d SMs, %zu bytes free\n", p.name.c_str(),
//               p.arch.c_str(), p.multiprocessors, p.free_memory);
//
// What CUDA programs read from cudaGetDeviceProperties and cudaMemGetInfo,
// for offload's device numbers (launch.hpp: 0 to device_count() - 1, -1 the
// default device). The runtime fills a C record (__ofld_device_info, the
// ABI's) that this header turns into the C++ one: from the CUDA driver for
// NVIDIA GPUs, from the host for the host offload target and for the CPU
// that runs kernels without a device (offload/detail/host_properties.hpp);
// docs/Targets.md says what other devices report. A number that names no
// device is a named error.
//
// Include it where ofld::properties is used (offload.hpp says why it does
// not).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PROPERTIES_HPP
#define OFFLOAD_PROPERTIES_HPP

#include "offload/abi.hpp"
#include "offload/policy/errors.hpp"
#include "offload/region.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <source_location>
#include <string>

#if !defined(_OPENMP)
#include "offload/detail/host_properties.hpp"
#endif

namespace ofld {

/// A device's properties; 0 (or "") where the device cannot tell.
struct device_properties {
  std::string name;              ///< "NVIDIA H200", the CPU's model name
  std::string arch;              ///< "sm_90", "gfx90a", the host's "x86_64"
  int multiprocessors = 0;       ///< SMs, compute units, or the host's cores
  std::size_t global_memory = 0; ///< bytes
  std::size_t free_memory = 0;   ///< bytes, when asked
  int max_threads_per_block = 0;
  std::uint64_t max_grid[3] = {0, 0, 0};
  std::uint64_t max_block[3] = {0, 0, 0};
  std::size_t shared_memory_per_block = 0; ///< bytes, without opt-in
  int warp_size = 0;                       ///< 32 on NVIDIA and the CPU
  int clock_khz = 0;
};

/// The properties of offload device `device` (-1: the device of launches
/// that name none; where kernels run on this CPU, the CPU). A number that
/// names no device is reported (ofld::set_error_handler), and the result
/// is then all zero.
inline device_properties
properties(int device = -1,
           std::source_location where = std::source_location::current()) {
  __ofld_device_info I = {};
#if defined(_OPENMP)
  __ofld_place P = detail::place_of(where);
  if (!__ofld_device_properties(device, &I, &P))
    return {};
#else
  // Without OpenMP there are no devices: kernels run on this CPU.
  if (device != -1) {
    char Cause[128], Message[512];
    ofld::policy::noSuchDeviceCause(Cause, sizeof(Cause), device, 0);
    std::snprintf(Message, sizeof(Message),
                  "offload: ofld::properties at %s:%u: %s", where.file_name(),
                  unsigned(where.line()), Cause);
    __ofld_report_error(Message);
    return {};
  }
  detail::host_device_info(I);
#endif
  device_properties R;
  R.name = I.name;
  R.arch = I.arch;
  R.multiprocessors = int(I.multiprocessors);
  R.global_memory = std::size_t(I.global_memory);
  R.free_memory = std::size_t(I.free_memory);
  R.max_threads_per_block = int(I.max_threads_per_block);
  for (int D = 0; D < 3; ++D) {
    R.max_grid[D] = std::uint64_t(I.max_grid[D]);
    R.max_block[D] = std::uint64_t(I.max_block[D]);
  }
  R.shared_memory_per_block = std::size_t(I.shared_memory_per_block);
  R.warp_size = int(I.warp_size);
  R.clock_khz = int(I.clock_khz);
  return R;
}

} // namespace ofld

#endif // OFFLOAD_PROPERTIES_HPP
