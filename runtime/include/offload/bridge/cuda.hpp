//===- offload/bridge/cuda.hpp - free device memory -------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. The free memory of a device, asked of the CUDA driver
// where the OpenMP runtime put one there, for the capacity rule
// (offload/policy/capacity.hpp) and, with the device's attributes, for
// ofld::properties (offload/bridge/transfer.hpp). The driver is looked up,
// never loaded: a program without a GPU needs no CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_CUDA_HPP
#define OFFLOAD_BRIDGE_CUDA_HPP

#include "offload/bridge/devices.hpp"
#include "offload/policy/capacity.hpp"

#include <type_traits>

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
namespace ofld::bridge {
namespace detail {

namespace capacity = ofld::policy::capacity;

/// The CUDA driver's entry points that ask a device's free memory, and
/// (optional) those that describe it for ofld::properties.
struct cuda_api {
  int (*CtxGetCurrent)(void **) = nullptr;
  int (*CtxSetCurrent)(void *) = nullptr;
  int (*MemGetInfo)(std::size_t *, std::size_t *) = nullptr;
  int (*PointerGetAttribute)(void *, int, unsigned long long) = nullptr;
  int (*CtxGetDevice)(int *) = nullptr;
  int (*DeviceGetAttribute)(int *, int, int) = nullptr;
  int (*DeviceGetName)(char *, int, int) = nullptr;
  int (*DeviceTotalMem)(std::size_t *, int) = nullptr;
};

/// The free memory of OpenMP device `D`, or capacity::NoAnswer where it is
/// no CUDA device. Both OpenMP runtimes (libomptarget, libgomp's nvptx
/// plugin) load the CUDA driver and allocate in a context of their own
/// making; the context of a byte allocated once is the one to ask in. The
/// driver is only looked up, never loaded, here.
/// `Describe`, when given, is called in the device's context with the driver
/// and the context's CUDA device (ofld::properties).
template <class F = std::nullptr_t>
inline std::uint64_t freeBytes(int D, F Describe = nullptr) {
  struct device_memory {
    std::mutex lock;
    cuda_api api;
    std::vector<signed char> known; // per device: -1 not asked
    std::vector<void *> context;    // null: no answer there
  };
  static device_memory M;
  void *Ctx = nullptr;
  {
    std::lock_guard<std::mutex> Guard(M.lock);
    if (M.known.empty()) {
      const int N = omp_get_num_devices();
      M.known.assign(std::size_t(N > 0 ? N : 0), -1);
      M.context.assign(M.known.size(), nullptr);
    }
    if (D < 0 || std::size_t(D) >= M.known.size())
      return capacity::NoAnswer;
    if (M.known[D] < 0) {
      M.known[D] = 0;
      void *Probe = isHostTargetDevice(D) ? nullptr : omp_target_alloc(1, D);
      if (Probe && !M.api.MemGetInfo)
        if (void *Lib =
                dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
          cuda_api A;
          A.CtxGetCurrent = reinterpret_cast<decltype(A.CtxGetCurrent)>(
              dlsym(Lib, "cuCtxGetCurrent"));
          A.CtxSetCurrent = reinterpret_cast<decltype(A.CtxSetCurrent)>(
              dlsym(Lib, "cuCtxSetCurrent"));
          A.MemGetInfo = reinterpret_cast<decltype(A.MemGetInfo)>(
              dlsym(Lib, "cuMemGetInfo_v2"));
          A.PointerGetAttribute =
              reinterpret_cast<decltype(A.PointerGetAttribute)>(
                  dlsym(Lib, "cuPointerGetAttribute"));
          A.CtxGetDevice = reinterpret_cast<decltype(A.CtxGetDevice)>(
              dlsym(Lib, "cuCtxGetDevice"));
          A.DeviceGetAttribute =
              reinterpret_cast<decltype(A.DeviceGetAttribute)>(
                  dlsym(Lib, "cuDeviceGetAttribute"));
          A.DeviceGetName = reinterpret_cast<decltype(A.DeviceGetName)>(
              dlsym(Lib, "cuDeviceGetName"));
          A.DeviceTotalMem = reinterpret_cast<decltype(A.DeviceTotalMem)>(
              dlsym(Lib, "cuDeviceTotalMem_v2"));
          if (A.CtxGetCurrent && A.CtxSetCurrent && A.MemGetInfo &&
              A.PointerGetAttribute)
            M.api = A;
        }
      // CU_POINTER_ATTRIBUTE_CONTEXT (1): fails for memory that is not
      // CUDA's.
      void *Owner = nullptr;
      if (Probe && M.api.MemGetInfo &&
          !M.api.PointerGetAttribute(&Owner, 1, std::uintptr_t(Probe)) &&
          Owner) {
        M.context[D] = Owner;
        M.known[D] = 1;
      }
      if (Probe)
        omp_target_free(Probe, D);
    }
    Ctx = M.context[D];
  }
  if (!Ctx)
    return capacity::NoAnswer;
  void *Saved = nullptr;
  if (M.api.CtxGetCurrent(&Saved) || (Saved != Ctx && M.api.CtxSetCurrent(Ctx)))
    return capacity::NoAnswer;
  std::size_t Free = 0, Total = 0;
  const bool Ok = !M.api.MemGetInfo(&Free, &Total);
  if constexpr (!std::is_same_v<F, std::nullptr_t>) {
    int Dev = 0;
    if (Ok && M.api.CtxGetDevice && !M.api.CtxGetDevice(&Dev))
      Describe(M.api, Dev);
  }
  if (Saved != Ctx)
    (void)M.api.CtxSetCurrent(Saved);
  return Ok ? std::uint64_t(Free) : capacity::NoAnswer;
}

} // namespace detail
} // namespace ofld::bridge
#endif

#endif // OFFLOAD_BRIDGE_CUDA_HPP
