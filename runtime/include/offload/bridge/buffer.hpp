//===- offload/bridge/buffer.hpp - ofld::device_buffer ----------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. ofld::device_buffer without libofld_rt: device memory
// from omp_target_alloc, associated with host address space that stands
// for it (never touched), so that the launches' maps find it present. The
// device is chosen by libofld_rt's rule (offload/policy/devices.hpp).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_BUFFER_HPP
#define OFFLOAD_BRIDGE_BUFFER_HPP

#include "offload/bridge/launch.hpp"

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
namespace ofld::bridge::detail {
/// A device_buffer: host address space that stands for it (never touched),
/// associated with the device memory.
struct buffer {
  std::uintptr_t first, last;
  int device;
  void *device_ptr;
  std::size_t reserved;
};
inline std::mutex &buffersLock() {
  static std::mutex M;
  return M;
}
inline std::vector<buffer> &buffers() {
  static std::vector<buffer> B;
  return B;
}
/// The buffer that holds `P`, if any.
inline bool findBuffer(const void *P, buffer &Out) {
  auto A = std::uintptr_t(P);
  std::lock_guard<std::mutex> Guard(buffersLock());
  for (const buffer &B : buffers())
    if (B.first <= A && A < B.last) {
      Out = B;
      return true;
    }
  return false;
}
} // namespace ofld::bridge::detail

extern "C" inline void __ofld_region_update(std::int64_t D, void *Ptr,
                                            std::int64_t Bytes,
                                            std::int32_t ToDevice,
                                            const __ofld_place *P) {
  namespace d = ofld::bridge::detail;
  const char *What =
      ToDevice ? "ofld::region::update_to" : "ofld::region::update_from";
  if (D < 0 || Bytes <= 0)
    return; // kernels run on the host: its memory is the device's
  d::buffer B;
  if (d::findBuffer(Ptr, B)) {
    d::failAt(P, What,
              "the range is a device_buffer's, which has no host copy; use its "
              "copy_from and copy_to");
    return;
  }
  if (!omp_target_is_present(Ptr, int(D)) ||
      !omp_target_is_present(static_cast<char *>(Ptr) + Bytes - 1, int(D))) {
    d::failAt(P, What,
              "the %lld bytes at %p are not on device %lld (a region, launch "
              "group or device_buffer must hold all of them)",
              (long long)Bytes, Ptr, (long long)D);
    return;
  }
  d::updateRange(!ToDevice, int(D), Ptr, std::size_t(Bytes));
}

extern "C" inline void *__ofld_buffer_alloc(std::int64_t Bytes,
                                            std::int32_t Requested,
                                            std::int64_t *OmpDevice,
                                            const __ofld_place *P) {
  namespace d = ofld::bridge::detail;
  const char *What = "ofld::device_buffer";
  *OmpDevice = -1;
  if (Bytes <= 0)
    return nullptr;
  const int D = d::dataDevice(P, What, Requested);
  if (D == -2)
    return nullptr;
  if (D == omp_get_initial_device()) { // kernels run here: host memory it is
    void *Host = std::malloc(std::size_t(Bytes));
    if (!Host)
      d::failAt(P, What, "cannot allocate %lld bytes on the host",
                (long long)Bytes);
    return Host;
  }
  void *Dev = omp_target_alloc(std::size_t(Bytes), D);
  if (!Dev) {
    d::failAt(P, What,
              "cannot allocate %lld bytes on device %d: out of device memory",
              (long long)Bytes, D);
    return nullptr;
  }
  // Address space that no host access may use: a span of the buffer holds
  // these addresses, and the launches' maps find them present (associated).
  std::size_t Page = std::size_t(sysconf(_SC_PAGESIZE));
  std::size_t Reserved = (std::size_t(Bytes) + Page - 1) / Page * Page;
  void *Host = mmap(nullptr, Reserved, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Host == MAP_FAILED ||
      omp_target_associate_ptr(Host, Dev, std::size_t(Bytes), 0, D)) {
    if (Host != MAP_FAILED)
      munmap(Host, Reserved);
    omp_target_free(Dev, D);
    d::failAt(P, What, "cannot set up %lld bytes on device %d",
              (long long)Bytes, D);
    return nullptr;
  }
  {
    std::lock_guard<std::mutex> Guard(d::buffersLock());
    auto A = std::uintptr_t(Host);
    d::buffers().push_back({A, A + std::uintptr_t(Bytes), D, Dev, Reserved});
  }
  *OmpDevice = D;
  return Host;
}

extern "C" inline void __ofld_buffer_free(void *Host, std::int64_t,
                                          std::int64_t D) {
  namespace d = ofld::bridge::detail;
  if (D < 0) {
    std::free(Host);
    return;
  }
  d::buffer B;
  {
    std::lock_guard<std::mutex> Guard(d::buffersLock());
    auto &All = d::buffers();
    auto It = All.begin();
    while (It != All.end() && It->first != std::uintptr_t(Host))
      ++It;
    if (It == All.end())
      return;
    B = *It;
    All.erase(It);
  }
  omp_target_disassociate_ptr(Host, int(D));
  omp_target_free(B.device_ptr, int(D));
  munmap(Host, B.reserved);
}

#endif

#endif // OFFLOAD_BRIDGE_BUFFER_HPP
