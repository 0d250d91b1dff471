//===- cuda/CudaDriver.cpp - the CUDA driver, loaded when there is one ----===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//

#include "cuda/Cuda.h"

#include <dlfcn.h>

#include <cstdio>
#include <initializer_list>
#include <type_traits>

using namespace ofld::detail::cuda;

const Driver *ofld::detail::cuda::driver() {
  static const Driver *Api = []() -> const Driver * {
    void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!Lib)
      Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!Lib)
      return nullptr;
    static Driver D;
    bool Ok = true;
    // The first name the driver exports: versioned entry points (_v2) are
    // the ones cuda.h maps the plain names to.
    auto Get = [&](auto &Fn, std::initializer_list<const char *> Names) {
      Fn = nullptr;
      for (const char *Name : Names)
        if (!Fn)
          Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
              dlsym(Lib, Name));
      Ok = Ok && Fn;
    };
    Get(D.Init, {"cuInit"});
    Get(D.DeviceGetCount, {"cuDeviceGetCount"});
    Get(D.DeviceGet, {"cuDeviceGet"});
    Get(D.DeviceGetAttribute, {"cuDeviceGetAttribute"});
    Get(D.PrimaryCtxGetState, {"cuDevicePrimaryCtxGetState"});
    Get(D.PrimaryCtxSetFlags, {"cuDevicePrimaryCtxSetFlags_v2"});
    Get(D.PrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
    Get(D.CtxGetCurrent, {"cuCtxGetCurrent"});
    Get(D.CtxSetCurrent, {"cuCtxSetCurrent"});
    Get(D.PointerGetAttribute, {"cuPointerGetAttribute"});
    Get(D.MemGetInfo, {"cuMemGetInfo_v2"});
    Get(D.MemHostAlloc, {"cuMemHostAlloc"});
    Get(D.MemFreeHost, {"cuMemFreeHost"});
    Get(D.MemHostGetDevicePointer,
        {"cuMemHostGetDevicePointer_v2", "cuMemHostGetDevicePointer"});
    Get(D.StreamCreate, {"cuStreamCreate"});
    Get(D.StreamDestroy, {"cuStreamDestroy_v2", "cuStreamDestroy"});
    Get(D.StreamSynchronize, {"cuStreamSynchronize"});
    Get(D.StreamQuery, {"cuStreamQuery"});
    Get(D.EventCreate, {"cuEventCreate"});
    Get(D.EventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
    Get(D.EventRecord, {"cuEventRecord"});
    Get(D.EventSynchronize, {"cuEventSynchronize"});
    Get(D.MemcpyHtoDAsync, {"cuMemcpyHtoDAsync_v2"});
    Get(D.MemcpyDtoHAsync, {"cuMemcpyDtoHAsync_v2"});
    Get(D.ModuleLoadData, {"cuModuleLoadData"});
    Get(D.ModuleGetFunction, {"cuModuleGetFunction"});
    Get(D.FuncGetAttribute, {"cuFuncGetAttribute"});
    Get(D.FuncSetAttribute, {"cuFuncSetAttribute"});
    Get(D.LaunchKernel, {"cuLaunchKernel"});
    Get(D.GetErrorString, {"cuGetErrorString"});
    Get(D.GetErrorName, {"cuGetErrorName"});
    if (!Ok || D.Init(0))
      return nullptr;
    // Optional: launches that overlap the one before them.
    D.LaunchKernelEx = reinterpret_cast<decltype(D.LaunchKernelEx)>(
        dlsym(Lib, "cuLaunchKernelEx"));
    // Optional: transfers on the queues' streams, device properties.
    auto Optional = [&](auto &Fn, const char *Name) {
      Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
          dlsym(Lib, Name));
    };
    Optional(D.MemcpyAsync, "cuMemcpyAsync");
    Optional(D.MemsetD8Async, "cuMemsetD8Async");
    Optional(D.MemsetD16Async, "cuMemsetD16Async");
    Optional(D.MemsetD32Async, "cuMemsetD32Async");
    Optional(D.StreamWaitEvent, "cuStreamWaitEvent");
    Optional(D.StreamWriteValue32, "cuStreamWriteValue32_v2");
    if (!D.StreamWriteValue32)
      Optional(D.StreamWriteValue32, "cuStreamWriteValue32");
    Optional(D.DeviceGetName, "cuDeviceGetName");
    Optional(D.DeviceTotalMem, "cuDeviceTotalMem_v2");
    // Optional: only the profiler reads event times.
    D.EventQuery =
        reinterpret_cast<decltype(D.EventQuery)>(dlsym(Lib, "cuEventQuery"));
    D.EventElapsedTime = reinterpret_cast<decltype(D.EventElapsedTime)>(
        dlsym(Lib, "cuEventElapsedTime_v2"));
    if (!D.EventElapsedTime)
      D.EventElapsedTime = reinterpret_cast<decltype(D.EventElapsedTime)>(
          dlsym(Lib, "cuEventElapsedTime"));
    return &D;
  }();
  return Api;
}

bool Driver::deviceOrdinal(const void *P, int &Ordinal) const {
  unsigned Type = 0;
  CUdeviceptr Ptr = CUdeviceptr(reinterpret_cast<std::uintptr_t>(P));
  return !PointerGetAttribute(&Type, PointerAttrMemoryType, Ptr) &&
         Type == MemoryTypeDevice &&
         !PointerGetAttribute(&Ordinal, PointerAttrDeviceOrdinal, Ptr);
}

const char *Driver::describe(CUresult R) const {
  thread_local char Text[256];
  const char *Name = nullptr, *What = nullptr;
  if (GetErrorName(R, &Name) || !Name)
    Name = "CUDA error";
  if (GetErrorString(R, &What) || !What)
    What = "unknown";
  std::snprintf(Text, sizeof(Text), "%s (%s)", What, Name);
  return Text;
}
