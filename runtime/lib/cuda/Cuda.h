//===- cuda/Cuda.h - the CUDA driver and CUPTI ------------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The cuda part's interface: NVIDIA's libraries, opened with dlopen where
// they are installed (CudaDriver.cpp, Cupti.cpp).
//
// The runtime talks to the CUDA driver directly in four places: it sets the
// scheduling of each primary context before libomptarget activates it
// (Runtime.cpp), stages large copies through pinned memory
// (data/Staging.cpp), launches kernels on its own streams
// (launch/Queues.cpp) and asks a device's free memory before mapping
// (data/MapPlan.cpp). All of them work in the
// primary context that libomptarget's CUDA plugin uses. The driver is opened
// with dlopen: a machine without one (CI, the host offload target) pays
// nothing and needs no CUDA headers to build. The types and constants below
// are the driver API's (cuda.h), spelled out.
//
// CUPTI: launches through libomptarget run on streams of its own that the
// runtime cannot reach, so no event can be recorded around them. CUPTI, the
// CUDA toolkit's profiling library (what Nsight uses), records every
// kernel's start and end on the device; the profiler (tools/Profile.cpp)
// tags the launches it wants to time and reads their spans at exit. CUPTI
// is loaded when first needed: without it, nothing changes but those
// launches' clock (docs/Profiling.md).
//
// Include order (runtime/CMakeLists.txt): above Environment.h only.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_CUDA_CUDA_H
#define OFFLOAD_RUNTIME_CUDA_CUDA_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

namespace ofld::detail::cuda {

using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;
using CUdeviceptr = unsigned long long;

constexpr CUresult Success = 0;
constexpr CUresult ErrorNotReady = 600;

constexpr int PointerAttrMemoryType = 2;    // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
constexpr int PointerAttrDeviceOrdinal = 9; // ..._DEVICE_ORDINAL
constexpr unsigned MemoryTypeDevice = 2;    // CU_MEMORYTYPE_DEVICE
constexpr unsigned HostAllocPortable = 1;   // CU_MEMHOSTALLOC_PORTABLE
constexpr unsigned HostAllocDeviceMap = 2;  // CU_MEMHOSTALLOC_DEVICEMAP
constexpr unsigned StreamNonBlocking = 1;   // CU_STREAM_NON_BLOCKING
constexpr unsigned EventDisableTiming = 2;  // CU_EVENT_DISABLE_TIMING
constexpr unsigned SchedAuto = 0;           // CU_CTX_SCHED_AUTO

// CUdevice_attribute
constexpr int AttrMaxThreadsPerBlock = 1;
constexpr int AttrMaxBlockDimX = 2; // Y, Z follow
constexpr int AttrMaxGridDimX = 5;  // Y, Z follow
constexpr int AttrMaxSharedMemoryPerBlock = 8;
constexpr int AttrWarpSize = 10;
constexpr int AttrClockRate = 13; // kHz
constexpr int AttrMultiprocessorCount = 16;
constexpr int AttrComputeMajor = 75;
constexpr int AttrComputeMinor = 76;
constexpr int AttrMaxSharedPerBlock = 8;       // without opting in: 48 KiB
constexpr int AttrMaxSharedPerBlockOptin = 97; // a kernel's most, opted in
// CUfunction_attribute
constexpr int FuncAttrMaxThreadsPerBlock = 0;
constexpr int FuncAttrSharedSizeBytes = 1; // static shared memory
constexpr int FuncAttrPtxVersion = 5;      // the PTX target: 90 for sm_90
constexpr int FuncAttrMaxDynamicSharedBytes = 8;
// CUlaunchAttributeID
constexpr int LaunchAttrProgrammaticStreamSerialization = 6;
/// CUlaunchAttribute: an id, padding, and a 64-byte union of values.
struct LaunchAttribute {
  int Id;
  char Pad[4];
  union {
    char Bytes[64];
    int Int; ///< e.g. programmaticStreamSerializationAllowed
  } Value;
};
static_assert(sizeof(LaunchAttribute) == 72, "cuda.h's CUlaunchAttribute");
/// CUlaunchConfig.
struct LaunchConfig {
  unsigned GridDimX, GridDimY, GridDimZ, BlockDimX, BlockDimY, BlockDimZ;
  unsigned SharedMemBytes;
  CUstream Stream;
  LaunchAttribute *Attrs;
  unsigned NumAttrs;
};
// cuLaunchKernel's `extra`
inline void *const LaunchParamBufferPointer = reinterpret_cast<void *>(1);
inline void *const LaunchParamBufferSize = reinterpret_cast<void *>(2);
inline void *const LaunchParamEnd = nullptr;

/// The entry points, resolved once. Every member not marked optional is
/// set when driver() returns non-null.
struct Driver {
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*PrimaryCtxGetState)(CUdevice, unsigned *, int *);
  CUresult (*PrimaryCtxSetFlags)(CUdevice, unsigned);
  CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*CtxGetCurrent)(CUcontext *);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*PointerGetAttribute)(void *, int, CUdeviceptr);
  CUresult (*MemGetInfo)(std::size_t *, std::size_t *);
  CUresult (*MemHostAlloc)(void **, std::size_t, unsigned);
  CUresult (*MemFreeHost)(void *);
  CUresult (*MemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
  CUresult (*StreamCreate)(CUstream *, unsigned);
  CUresult (*StreamDestroy)(CUstream);
  CUresult (*StreamSynchronize)(CUstream);
  CUresult (*StreamQuery)(CUstream);
  CUresult (*EventCreate)(CUevent *, unsigned);
  CUresult (*EventDestroy)(CUevent);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*EventSynchronize)(CUevent);
  /// Optional (null where the driver lacks them): only OFFLOAD_PROFILE
  /// reads event times (tools/Profile.cpp).
  CUresult (*EventQuery)(CUevent);
  CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, std::size_t, CUstream);
  CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, std::size_t, CUstream);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*FuncGetAttribute)(int *, int, CUfunction);
  CUresult (*FuncSetAttribute)(CUfunction, int, int);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  /// Optional (CUDA 12 and later): launches with attributes, here
  /// programmatic stream serialization (launch/Queues.cpp).
  CUresult (*LaunchKernelEx)(const LaunchConfig *, CUfunction, void **,
                             void **);
  CUresult (*GetErrorString)(CUresult, const char **);
  CUresult (*GetErrorName)(CUresult, const char **);
  /// Optional: ofld::copy and ofld::fill that do not wait, on a queue's
  /// stream (launch/Transfers.cpp); without them they go to its worker.
  CUresult (*MemcpyAsync)(CUdeviceptr, CUdeviceptr, std::size_t, CUstream);
  CUresult (*MemsetD8Async)(CUdeviceptr, unsigned char, std::size_t, CUstream);
  CUresult (*MemsetD16Async)(CUdeviceptr, unsigned short, std::size_t,
                             CUstream);
  CUresult (*MemsetD32Async)(CUdeviceptr, unsigned, std::size_t, CUstream);
  /// Optional: the ways an argument-arena range may reach the device
  /// besides a copy on the queue's stream (OFFLOAD_ARENA_TO, launch/
  /// Enqueue.cpp); without them the copy is used.
  CUresult (*StreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*StreamWriteValue32)(CUstream, CUdeviceptr, unsigned, unsigned);
  /// Optional: ofld::properties (launch/Properties.cpp).
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DeviceTotalMem)(std::size_t *, CUdevice);

  /// Whether `P` is device memory; its CUDA ordinal in `Ordinal`.
  bool deviceOrdinal(const void *P, int &Ordinal) const;
  /// "CUDA_ERROR_X: description" of `R`.
  const char *describe(CUresult R) const;
};

/// The driver, or null where there is none (no GPU, no libcuda.so.1, or
/// cuInit fails).
const Driver *driver();

/// Makes `Ctx` current on this thread if it is not; the previous context in
/// `Saved` (restore with CtxSetCurrent). Cheap when it already is.
/// Inline: every stream-ordered launch calls it.
inline CUresult makeCurrent(const Driver &Cu, CUcontext Ctx, CUcontext *Saved) {
  CUcontext Cur = nullptr;
  if (CUresult R = Cu.CtxGetCurrent(&Cur))
    return R;
  if (Saved)
    *Saved = Cur;
  return Cur == Ctx ? Success : Cu.CtxSetCurrent(Ctx);
}

} // namespace ofld::detail::cuda

namespace ofld::detail::cupti {

/// Starts recording kernels (the first call loads CUPTI); `HostNowNs` is
/// the caller's clock, on which spans are returned. False where CUPTI is
/// off, missing or refuses: the reason is in `why()`.
bool start(uint64_t (*HostNowNs)());
/// Why start() failed ("" before it is called, or if it succeeded).
const std::string &why();

/// The kernels this thread launches between `beginTag(Tag)` and `endTag()`
/// are recorded under `Tag` (not 0).
void beginTag(uint64_t Tag);
void endTag();

/// A kernel's time on the device, on the caller's clock (ns).
struct Span {
  uint64_t StartNs = 0, EndNs = 0;
};
/// Waits for CUPTI's records so far and returns the spans of tagged
/// launches (a tag with several kernels: from the first start to the last
/// end); the next call returns only newer ones. Stops recording if `Stop`.
std::unordered_map<uint64_t, Span> collect(bool Stop);

} // namespace ofld::detail::cupti

#endif // OFFLOAD_RUNTIME_CUDA_CUDA_H
