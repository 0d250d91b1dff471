//===- offload/detail/buffer_address.hpp - a device buffer's host range -*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. An ofld::device_buffer's spans hold host addresses that no
// host access may use (reserved, PROT_NONE) and that the OpenMP runtime
// associates with the device memory, so the launches' maps find the buffer
// present. libofld_rt (lib/data/Residency.cpp) and offload-rewrite's bridge
// (offload/bridge/buffer.hpp) both set buffers up this way: one copy here.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_DETAIL_BUFFER_ADDRESS_HPP
#define OFFLOAD_DETAIL_BUFFER_ADDRESS_HPP

#include <omp.h>

#include <cstddef>
#include <sys/mman.h>
#include <unistd.h>

namespace ofld::detail {

/// Host addresses reserved for a buffer: `host` (null on failure) and the
/// bytes reserved there (whole pages, what munmap takes back).
struct buffer_address {
  void *host = nullptr;
  std::size_t reserved = 0;
};

/// Reserves host addresses for the `bytes` of device memory `dev` on OpenMP
/// device `device` and associates the two; on failure returns no address
/// and leaves `dev` allocated (the caller frees it and reports).
inline buffer_address reserve_buffer_address(void *dev, std::size_t bytes,
                                             int device) {
  std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
  std::size_t reserved = (bytes + page - 1) / page * page;
  void *host = mmap(nullptr, reserved, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (host == MAP_FAILED)
    return {};
  if (omp_target_associate_ptr(host, dev, bytes, 0, device)) {
    munmap(host, reserved);
    return {};
  }
  return {host, reserved};
}

} // namespace ofld::detail

#endif // OFFLOAD_DETAIL_BUFFER_ADDRESS_HPP
