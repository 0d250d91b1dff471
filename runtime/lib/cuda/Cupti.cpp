//===- cuda/Cupti.cpp - device times of CUDA kernels from CUPTI -----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Two CUPTI interfaces together (declared here from cupti_activity.h and
// cupti_callbacks.h of CUDA 13; the parts used are stable since CUDA 11):
//  * a driver-API callback on the kernel launch functions, which runs on
//    the launching thread and gives the launch's correlation id: the tag of
//    the thread's current launch is stored under it;
//  * activity records of kind CONCURRENT_KERNEL (they do not serialise
//    kernels), which carry the correlation id and the device's start and
//    end timestamps.
// Records arrive in buffers CUPTI fills and hands back from a thread of its
// own, or when flushed.
//
//===----------------------------------------------------------------------===//

#include "cuda/Cuda.h"

#include "Environment.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <type_traits>

using namespace ofld::detail;

namespace {

using Result = int;
using CallbackFn = void (*)(void *, int, uint32_t, const void *);
using RequestFn = void (*)(uint8_t **, std::size_t *, std::size_t *);
using CompleteFn = void (*)(void *, uint32_t, uint8_t *, std::size_t,
                            std::size_t);

/// CUpti_CallbackData.
struct CallbackData {
  int Site; ///< CUPTI_API_ENTER (0) or CUPTI_API_EXIT
  const char *Function;
  const void *Params;
  void *Return;
  const char *Symbol;
  void *Context;
  uint32_t ContextUid;
  uint64_t *CorrelationData;
  uint32_t CorrelationId;
};

/// The first fields of CUpti_ActivityKernel4 to 10 (the same in all).
struct KernelRecord {
  uint32_t Kind;
  uint8_t CacheConfig, SharedMemoryConfig;
  uint16_t Registers;
  uint32_t CacheRequested, CacheExecuted;
  uint64_t Start, End, Completed;
  uint32_t DeviceId, ContextId, StreamId;
  int32_t Grid[3], Block[3], StaticShared, DynamicShared;
  uint32_t LocalPerThread, LocalTotal, CorrelationId;
};
static_assert(offsetof(KernelRecord, Start) == 16 &&
                  offsetof(KernelRecord, CorrelationId) == 92,
              "CUpti_ActivityKernel's layout");

constexpr uint32_t KindConcurrentKernel = 10;
constexpr int DomainDriverApi = 1, ApiEnter = 0;
/// cuLaunchKernel, its _ptsz, cuLaunchCooperativeKernel (+ _ptsz),
/// cuLaunchKernelEx (+ _ptsz): cupti_driver_cbid.h.
constexpr uint32_t LaunchCallbacks[] = {307, 442, 477, 478, 652, 653};
constexpr Result ErrorMaxLimitReached = 12;
constexpr uint32_t FlushForced = 1;
constexpr std::size_t BufferBytes = std::size_t(1) << 20;

struct Api {
  Result (*Subscribe)(void **, CallbackFn, void *);
  Result (*Unsubscribe)(void *);
  Result (*EnableCallback)(uint32_t, void *, int, uint32_t);
  Result (*RegisterCallbacks)(RequestFn, CompleteFn);
  Result (*Enable)(uint32_t);
  Result (*GetNextRecord)(uint8_t *, std::size_t, void **);
  Result (*FlushAll)(uint32_t);
  Result (*GetTimestamp)(uint64_t *);
};

struct Recorder {
  std::mutex Lock;
  bool Tried = false, Running = false;
  std::string Why;
  Api A = {};
  void *Subscriber = nullptr;
  /// CUPTI's clock minus the caller's.
  int64_t OffsetNs = 0;
  /// Correlation id -> tag, until its kernel's record arrives.
  std::unordered_map<uint32_t, uint64_t> TagOf;
  std::unordered_map<uint64_t, cupti::Span> Spans;
};

Recorder &recorder() {
  static auto *R = new Recorder; // CUPTI's thread may call in at exit
  return *R;
}

thread_local uint64_t CurrentTag = 0;

void onApi(void *, int Domain, uint32_t, const void *Data) {
  const auto *D = static_cast<const CallbackData *>(Data);
  if (Domain != DomainDriverApi || D->Site != ApiEnter || !CurrentTag)
    return;
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  R.TagOf[D->CorrelationId] = CurrentTag;
}

void onRequest(uint8_t **Buffer, std::size_t *Size, std::size_t *MaxRecords) {
  // Records are 8-byte aligned (ACTIVITY_RECORD_ALIGNMENT).
  *Buffer = static_cast<uint8_t *>(std::aligned_alloc(8, BufferBytes));
  *Size = *Buffer ? BufferBytes : 0;
  *MaxRecords = 0;
}

void onComplete(void *, uint32_t, uint8_t *Buffer, std::size_t,
                std::size_t Valid) {
  Recorder &R = recorder();
  void *Record = nullptr;
  while (R.A.GetNextRecord(Buffer, Valid, &Record) == 0) {
    const auto *K = static_cast<const KernelRecord *>(Record);
    if (K->Kind != KindConcurrentKernel)
      continue;
    std::lock_guard<std::mutex> G(R.Lock);
    auto It = R.TagOf.find(K->CorrelationId);
    if (It == R.TagOf.end())
      continue; // not a tagged launch (e.g. the runtime's own stream)
    uint64_t S = uint64_t(int64_t(K->Start) - R.OffsetNs),
             E = uint64_t(int64_t(K->End) - R.OffsetNs);
    auto [Span, New] = R.Spans.try_emplace(It->second, cupti::Span{S, E});
    if (!New) {
      Span->second.StartNs = std::min(Span->second.StartNs, S);
      Span->second.EndNs = std::max(Span->second.EndNs, E);
    }
    R.TagOf.erase(It);
  }
  std::free(Buffer);
}

/// Loads CUPTI and starts recording (R.Lock held); false with R.Why set.
bool load(Recorder &R, uint64_t (*HostNowNs)()) {
  const Environment &E = environment();
  if (!E.Cupti) {
    R.Why = "OFFLOAD_CUPTI=0";
    return false;
  }
  void *Lib = nullptr;
  if (!E.CuptiPath.empty()) {
    Lib = dlopen(E.CuptiPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  } else {
    for (const char *Name : {"libcupti.so", "libcupti.so.13", "libcupti.so.12"})
      if ((Lib = dlopen(Name, RTLD_NOW | RTLD_LOCAL)))
        break;
  }
  if (!Lib) {
    R.Why = E.CuptiPath.empty()
                ? "CUPTI (libcupti.so) not found on the library path"
                : "cannot load OFFLOAD_CUPTI=" + E.CuptiPath;
    return false;
  }
  Api &A = R.A;
  bool Found = true;
  auto Get = [&](auto &Fn, const char *Name) {
    Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
        dlsym(Lib, Name));
    Found = Found && Fn;
  };
  Get(A.Subscribe, "cuptiSubscribe");
  Get(A.Unsubscribe, "cuptiUnsubscribe");
  Get(A.EnableCallback, "cuptiEnableCallback");
  Get(A.RegisterCallbacks, "cuptiActivityRegisterCallbacks");
  Get(A.Enable, "cuptiActivityEnable");
  Get(A.GetNextRecord, "cuptiActivityGetNextRecord");
  Get(A.FlushAll, "cuptiActivityFlushAll");
  Get(A.GetTimestamp, "cuptiGetTimestamp");
  if (!Found) {
    R.Why = "CUPTI lacks the functions used";
    return false;
  }
  Result Rc = A.Subscribe(&R.Subscriber, onApi, nullptr);
  for (uint32_t Cbid : LaunchCallbacks)
    if (!Rc)
      Rc = A.EnableCallback(1, R.Subscriber, DomainDriverApi, Cbid);
  if (!Rc)
    Rc = A.RegisterCallbacks(onRequest, onComplete);
  if (!Rc)
    Rc = A.Enable(KindConcurrentKernel);
  // Both clocks read together, after loading (which takes a while).
  uint64_t Now = 0, HostNow = HostNowNs();
  if (!Rc)
    Rc = A.GetTimestamp(&Now);
  if (Rc) {
    R.Why = "CUPTI refused to record (error " + std::to_string(Rc) +
            "; another profiler attached?)";
    if (R.Subscriber)
      A.Unsubscribe(R.Subscriber);
    return false;
  }
  R.OffsetNs = int64_t(Now) - int64_t(HostNow);
  return true;
}

} // namespace

bool cupti::start(uint64_t (*HostNowNs)()) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  if (!R.Tried) {
    R.Tried = true;
    R.Running = load(R, HostNowNs);
  }
  return R.Running;
}

const std::string &cupti::why() { return recorder().Why; }

void cupti::beginTag(uint64_t Tag) { CurrentTag = Tag; }
void cupti::endTag() { CurrentTag = 0; }

std::unordered_map<uint64_t, cupti::Span> cupti::collect(bool Stop) {
  Recorder &R = recorder();
  {
    std::lock_guard<std::mutex> G(R.Lock);
    if (!R.Running)
      return {};
    // Stopping only ignores later launches: CUPTI stays subscribed and
    // enabled (disabling and unsubscribing after the flush crashed the
    // program on an H100 with CUPTI 13.0 and driver 580).
    R.Running = !Stop;
  }
  // Delivers the buffers through onComplete, on this thread.
  R.A.FlushAll(FlushForced);
  std::lock_guard<std::mutex> G(R.Lock);
  std::unordered_map<uint64_t, Span> Out;
  Out.swap(R.Spans);
  return Out;
}
