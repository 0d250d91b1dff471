//===- Cupti.h - device times of CUDA kernels from CUPTI --------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Launches through libomptarget run on streams of its own that the runtime
// cannot reach, so no event can be recorded around them. CUPTI, the CUDA
// toolkit's profiling library (what Nsight uses), records every kernel's
// start and end on the device; the profiler (Profile.cpp) tags the launches
// it wants to time and reads their spans at exit. CUPTI is loaded with
// dlopen when first needed: without it, nothing changes but those launches'
// clock (docs/Profiling.md).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_CUPTI_H
#define OFFLOAD_RUNTIME_CUPTI_H

#include <cstdint>
#include <string>
#include <unordered_map>

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

#endif // OFFLOAD_RUNTIME_CUPTI_H
