//===- launch/Queues.cpp - queues and stream-ordered launches -------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// CUDA's stream model, derived from the data (issue 15). A launch whose every
// mapped range a region, a launch group or a device buffer keeps on the
// device (data/Residency.cpp) moves nothing and needs nothing back: on a CUDA
// device it is queued on the stream of its ofld::queue with cuLaunchKernel
// and the host goes on. Every other launch goes through libomptarget, which
// waits for it; before it does, the launches of its queue finish, so the
// queue stays in order. Points that need results wait for the device's
// queues: a region's or group's end, update_from, device buffer copies,
// ofld::wait(), queue::wait(), the end of the program.
//
// Queues. Each device has `QueuesPerDevice` of them (0 is its default
// queue). A queue is a CUDA stream (created on its first launch) plus, for
// launches that do not wait but must go through libomptarget (they copy
// data), a worker thread that runs them one after another. While the worker
// has work, the queue's direct launches line up behind it (as prepared
// launches the worker puts on the stream), so one queue is always in order.
// Other devices (the host offload target, AMD GPUs) have the workers only.
//
// Kernels. The program's CUDA images, as registration found them
// (Images.cpp), are loaded again here for these streams, once per device;
// __ofld_enqueue (Enqueue.cpp) decides which launches come here.
//
// Overlap. On sm_90 and later, a launch goes on the stream with
// programmatic stream serialization: its blocks start as the launch before
// it finishes, and its entry waits for that one (griddepcontrol.wait, the
// first thing every entry does there: plugin/CodeGen/LaunchPrologue.h)
// before it touches memory. Dependent launches go 10-11% faster on an H100;
// OFFLOAD_OVERLAP=0 turns it off.
//
// Errors. A direct launch's error shows at the next synchronisation, and
// CUDA's error does not say which of the launches in flight failed. Each
// launch passes its number on the queue and the address of the queue's
// pinned mark word (runtime_abi.def, NumMarkSlots); the entry's first block
// stores the number there as it starts, after the wait, so after a fault the
// word names the launch that was running (a launch that faulted before its
// first block stored would be named as the one before it: the store is that
// block's first instruction after the wait, docs/StreamOrdering.md). Where
// the word names no launch in flight (no pinned memory), the message names
// the call sites of the launches in flight.
// OFFLOAD_LAUNCH_BLOCKING=1 waits after every launch instead;
// OFFLOAD_FAST_LAUNCH=0 sends every launch through libomptarget.
//
//===----------------------------------------------------------------------===//

#include "launch/QueueState.h"

#include "Environment.h"
#include "Runtime.h"
#include "offload/launch.hpp"
#include "tools/Tools.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace ofld::detail;
using namespace ofld::detail::queues;

namespace ofld::detail::queues {

/// Never freed (workers run until exit).
DeviceState *deviceState(int64_t Device) {
  static DeviceState *States = [] {
    int N = std::max(numDevices(), 1);
    auto *S = new DeviceState[N];
    for (int D = 0; D < N; ++D)
      for (int Q = 0; Q < QueuesPerDevice; ++Q) {
        S[D].Queues[Q].Device = D;
        S[D].Queues[Q].Index = Q;
        S[D].Queues[Q].Gpu = &S[D].Gpu;
        S[D].Queues[Q].Used = &S[D].Used;
      }
    return S;
  }();
  return Device >= 0 && Device < numDevices() ? &States[Device] : nullptr;
}

namespace {

void initGpu(int64_t Device, GpuDevice &G) {
  const Environment &S = environment();
  int Ordinal = cudaOrdinal(int(Device));
  const Driver *Cu = driver();
  CUdevice Dev;
  if (Ordinal < 0 || !Cu || Cu->DeviceGet(&Dev, Ordinal) ||
      Cu->PrimaryCtxRetain(&G.Ctx, Dev))
    return;
  G.Cu = Cu;
  G.Ordinal = Ordinal;
  int V = 0;
  for (int I = 0; I < 3; ++I) {
    G.MaxBlock[I] =
        Cu->DeviceGetAttribute(&V, AttrMaxBlockDimX + I, Dev) ? 0 : V;
    G.MaxGrid[I] = Cu->DeviceGetAttribute(&V, AttrMaxGridDimX + I, Dev) ? 0 : V;
  }
  G.MaxThreads =
      Cu->DeviceGetAttribute(&V, AttrMaxThreadsPerBlock, Dev) ? 0 : V;
  G.MaxShared = Cu->DeviceGetAttribute(&V, AttrMaxSharedPerBlock, Dev) ? 0 : V;
  G.MaxSharedOptin =
      Cu->DeviceGetAttribute(&V, AttrMaxSharedPerBlockOptin, Dev) ? 0 : V;
  CUcontext Saved;
  void *Words = nullptr;
  if (!makeCurrent(*Cu, G.Ctx, &Saved) &&
      !Cu->MemHostAlloc(&Words, QueuesPerDevice * sizeof(uint32_t),
                        HostAllocPortable | HostAllocDeviceMap) &&
      !Cu->MemHostGetDevicePointer(&G.MarksDev, Words, 0)) {
    G.Marks = static_cast<uint32_t *>(Words);
    std::memset(G.Marks, 0, QueuesPerDevice * sizeof(uint32_t));
  }
  G.Usable = S.FastLaunch && G.MaxThreads;
}

} // namespace

GpuDevice *gpu(int64_t Device) {
  DeviceState *D = deviceState(Device);
  if (!D)
    return nullptr;
  std::call_once(D->Gpu.Init, initGpu, Device, D->Gpu);
  return D->Gpu.Usable && !D->Gpu.Broken.load(std::memory_order_relaxed)
             ? &D->Gpu
             : nullptr;
}

Registry &registry() {
  static auto *R = new Registry;
  return *R;
}

namespace {

/// Loads the kernel of `RegionId` on `G` from the registered images, once
/// per device; function() caches what it finds.
Function lookupFunction(GpuDevice &G, const void *RegionId) {
  {
    std::shared_lock<std::shared_mutex> L(G.FnLock);
    auto It = G.Functions.find(RegionId);
    if (It != G.Functions.end())
      return It->second;
  }
  std::unique_lock<std::shared_mutex> L(G.FnLock);
  Registry &R = registry();
  std::lock_guard<std::mutex> RG(R.Lock);
  Function Fn;
  auto Name = R.Kernels.find(RegionId);
  CUcontext Saved;
  if (!R.Unsupported && Name != R.Kernels.end() &&
      !makeCurrent(*G.Cu, G.Ctx, &Saved)) {
    if (!G.ModulesLoaded) {
      G.ModulesLoaded = true;
      for (auto [Data, Size] : R.Cubins) {
        CUmodule M;
        if (!G.Cu->ModuleLoadData(&M, Data)) // an image for another arch fails
          G.Modules.push_back(M);
      }
    }
    for (CUmodule M : G.Modules)
      if (!G.Cu->ModuleGetFunction(&Fn.F, M, Name->second))
        break;
      else
        Fn.F = nullptr;
    int V = 0;
    Fn.Symbol = Name->second;
    if (Fn.F && !G.Cu->FuncGetAttribute(&V, FuncAttrMaxThreadsPerBlock, Fn.F))
      Fn.MaxThreads = uint64_t(V);
    else
      Fn.F = nullptr;
    if (Fn.F && !G.Cu->FuncGetAttribute(&V, FuncAttrSharedSizeBytes, Fn.F))
      Fn.StaticShared = uint64_t(V);
    Fn.Overlaps = Fn.F && G.Cu->LaunchKernelEx && environment().Overlap &&
                  !G.Cu->FuncGetAttribute(&V, FuncAttrPtxVersion, Fn.F) &&
                  V >= 90;
  }
  if (environment().LaunchDebug)
    std::fprintf(stderr, "offload: launches: kernel %s on CUDA device %d: %s\n",
                 Name != R.Kernels.end() ? Name->second : "(unknown)",
                 G.Ordinal,
                 !Fn.F         ? "not loadable, launched through libomptarget"
                 : Fn.Overlaps ? "loaded, launched on the queues' streams, "
                                 "overlapping the launch before it"
                               : "loaded, launched on the queues' streams");
  G.Functions[RegionId] = Fn;
  return Fn;
}

} // namespace

/// The kernel of region id `RegionId` on `G`, loaded on first use; F is
/// null where the image is not the runtime's to load. A launch asks twice
/// (limits, then the launch): a few recent answers are kept per thread.
Function function(GpuDevice &G, const void *RegionId) {
  struct Recent {
    GpuDevice *G;
    const void *Id;
    Function F;
  };
  constexpr unsigned Ways = 8;
  thread_local Recent Cache[Ways];
  thread_local unsigned Next = 0;
  for (const Recent &R : Cache)
    if (R.Id == RegionId && R.G == &G)
      return R.F;
  Function F = lookupFunction(G, RegionId);
  Cache[Next++ % Ways] = {&G, RegionId, F};
  return F;
}

//===----------------------------------------------------------------------===//
// Launching on a stream
//===----------------------------------------------------------------------===//

namespace {

/// Whether this thread is the worker of `Q`.
bool onWorker(const Queue &Q) {
  return Q.HasWorker && Q.WorkerId == std::this_thread::get_id();
}

/// The message of a launch failure found at `What`: the launch that failed
/// when it is known (`Exact`, or the only one in flight), else the call sites
/// of the launches that were in flight from `Failed` on (the failure is one
/// of them).
std::string launchError(Queue &Q, uint32_t Failed, bool Exact, CUresult R,
                        const char *What) {
  auto SiteOf = [&](uint32_t Seq) -> const __ofld_site * {
    return Q.Issued - Seq < RingSize ? Q.Ring[Seq % RingSize] : nullptr;
  };
  std::string Message;
  char Text[1024];
  const __ofld_site *Site = SiteOf(Failed);
  uint32_t InFlight = Q.Issued - Failed + 1;
  // The failing launch is known: marked, or the only one in flight.
  if ((Exact || InFlight == 1) && Site) {
    std::snprintf(Text, sizeof(Text),
                  "offload: kernel '%s' at %s:%u: launch on device %lld "
                  "failed: %s; found at %s",
                  Site->kernel, Site->file, Site->line, (long long)Q.Device,
                  Q.Gpu->Cu->describe(R), What);
    return Text;
  }
  // Several launches were in flight: CUDA's error does not say which one
  // failed. Name every call site among them, once each, in issue order.
  std::snprintf(Text, sizeof(Text),
                "offload: a launch on device %lld failed: %s; found at %s. "
                "It is one of the %u launches in flight, from ",
                (long long)Q.Device, Q.Gpu->Cu->describe(R), What, InFlight);
  Message = Text;
  std::vector<const __ofld_site *> Seen;
  for (uint32_t Seq = Failed; Seq != Q.Issued + 1 && Seen.size() < 8; ++Seq) {
    const __ofld_site *S = SiteOf(Seq);
    if (!S || std::find(Seen.begin(), Seen.end(), S) != Seen.end())
      continue;
    std::snprintf(Text, sizeof(Text), "%skernel '%s' at %s:%u",
                  Seen.empty() ? "" : ", ", S->kernel, S->file, S->line);
    Message += Text;
    Seen.push_back(S);
  }
  Message += " (OFFLOAD_LAUNCH_BLOCKING=1 names the one that failed)";
  return Message;
}

/// The launch in flight on Q whose first block started last, from Q's mark
/// word; none where the word names no launch in flight (Q.Lock held).
std::optional<uint32_t> markedLaunch(const Queue &Q) {
  if (!Q.Gpu->Marks)
    return std::nullopt;
  uint32_t M = __atomic_load_n(&Q.Gpu->Marks[Q.Index], __ATOMIC_ACQUIRE);
  if (M - Q.Synced - 1 < Q.Issued - Q.Synced) // Synced < M <= Issued
    return M;
  return std::nullopt;
}

} // namespace

/// Waits for the launches on Q's stream; a failure goes to Q.Errors. Called
/// with Q.Lock held (released while waiting).
void syncStream(Queue &Q, std::unique_lock<std::mutex> &L, const char *What) {
  if (!Q.Stream || Q.Issued == Q.Synced)
    return;
  uint32_t Upto = Q.Issued;
  const Driver &Cu = *Q.Gpu->Cu;
  watchdog::Subject Waited;
  Waited.Device = Q.Device;
  Waited.InFlight = Upto - Q.Synced;
  if (Waited.InFlight <= RingSize)
    if (const __ofld_site *Oldest = Q.Ring[(Q.Synced + 1) % RingSize]) {
      Waited.Kernel = Oldest->kernel;
      Waited.File = Oldest->file;
      Waited.Line = Oldest->line;
    }
  if (Q.Gpu->Marks)
    Waited.Mark = &Q.Gpu->Marks[Q.Index];
  Waited.Ring = Q.Ring;
  Waited.RingSize = RingSize;
  Waited.Upto = Upto;
  L.unlock();
  CUresult R;
  {
    watchdog::Watch W(Waited);
    R = Cu.StreamSynchronize(Q.Stream);
  }
  L.lock();
  if (!R) {
    Q.Synced = std::max(Q.Synced, Upto);
    return;
  }
  // The mark names the launch whose first block started last: the one that
  // was running (every launch before it had finished).
  std::optional<uint32_t> Running = markedLaunch(Q);
  Q.Errors.push_back(launchError(Q, Running.value_or(Q.Synced + 1),
                                 Running.has_value(), R, What));
  Q.Synced = Q.Issued;
  // CUDA errors of this kind leave the context unusable: no more launches
  // of the runtime's own there.
  Q.Gpu->Broken.store(true);
}

/// Makes the device's context current and Q's stream exist (Q.Lock held).
bool readyStream(Queue &Q) {
  const Driver &Cu = *Q.Gpu->Cu;
  CUcontext Saved;
  if (makeCurrent(Cu, Q.Gpu->Ctx, &Saved))
    return false;
  if (!Q.Stream && Cu.StreamCreate(&Q.Stream, StreamNonBlocking)) {
    Q.Stream = nullptr;
    return false;
  }
  return true;
}

/// Puts one launch on Q's stream (Q.Lock held). Returns false after
/// reporting to Q.Errors.
bool launchOnStream(Queue &Q, std::unique_lock<std::mutex> &L, Prepared &P) {
  GpuDevice &G = *Q.Gpu;
  const Driver &Cu = *G.Cu;
  if (!readyStream(Q))
    return false;
  // Keep the ring from overwriting launches that may still fail. A launch
  // that started means the ones before it finished.
  if (Q.Issued - Q.Synced >= RingSize - 1) {
    if (std::optional<uint32_t> Running = markedLaunch(Q))
      Q.Synced = *Running - 1;
    if (Q.Issued - Q.Synced >= RingSize - 1)
      syncStream(Q, L, "a full queue");
  }
  Q.markUsed();
  uint32_t Seq = Q.Issued + 1;
  if (G.Marks) {
    uint64_t *Mark = P.Params + P.NumParams - __ofld_num_mark_slots;
    Mark[__ofld_mark_word_slot] = G.MarksDev + Q.Index * sizeof(uint32_t);
    Mark[__ofld_mark_number_slot] = Seq;
  }
  // More dynamic shared memory than a kernel gets without asking: ask for
  // the kernel's most (the same value from every queue, so launches of it
  // on two queues cannot undo each other's; libomptarget does the same for
  // its launches).
  uint32_t Shared = P.Dims[__ofld_shared_bytes_dim];
  if (Shared && Shared + P.Fn.StaticShared > G.MaxShared &&
      G.MaxSharedOptin > P.Fn.StaticShared)
    Cu.FuncSetAttribute(P.Fn.F, FuncAttrMaxDynamicSharedBytes,
                        int(G.MaxSharedOptin - P.Fn.StaticShared));
  std::size_t Bytes = P.NumParams * sizeof(uint64_t);
  void *Extra[] = {LaunchParamBufferPointer, P.Params, LaunchParamBufferSize,
                   &Bytes, LaunchParamEnd};
  profile::StreamSpan Span;
  if (profile::Active)
    Span = profile::beginOnStream(Cu, G.Ctx, Q.Stream, Q.Device, P.Site,
                                  nullptr, false);
  CUresult R;
  if (P.Fn.Overlaps) {
    LaunchAttribute Overlap = {};
    Overlap.Id = LaunchAttrProgrammaticStreamSerialization;
    Overlap.Value.Int = 1;
    LaunchConfig C = {P.Dims[0], P.Dims[1], P.Dims[2], P.Dims[3], P.Dims[4],
                      P.Dims[5], Shared,    Q.Stream,  &Overlap,  1};
    R = Cu.LaunchKernelEx(&C, P.Fn.F, nullptr, Extra);
  } else {
    R = Cu.LaunchKernel(P.Fn.F, P.Dims[0], P.Dims[1], P.Dims[2], P.Dims[3],
                        P.Dims[4], P.Dims[5], Shared, Q.Stream, nullptr, Extra);
  }
  if (profile::Active)
    profile::endOnStream(Span, Cu, G.Ctx, Q.Stream, Q.Device, Q.Index, P.Site,
                         nullptr, false, 0, P.Dims, R == Success);
  if (environment().logsLaunches())
    std::fprintf(stderr,
                 "offload device %lld info: Launching kernel %s with "
                 "[%u,%u,%u] blocks and [%u,%u,%u] threads on queue %d "
                 "(stream-ordered)\n",
                 (long long)Q.Device, P.Fn.Symbol, P.Dims[0], P.Dims[1],
                 P.Dims[2], P.Dims[3], P.Dims[4], P.Dims[5], Q.Index);
  if (R) {
    char Message[1024];
    std::snprintf(Message, sizeof(Message),
                  "offload: kernel '%s' at %s:%u: launch on device %lld "
                  "failed: %s",
                  P.Site->kernel, P.Site->file, P.Site->line,
                  (long long)Q.Device, Cu.describe(R));
    Q.Errors.push_back(Message);
    return false;
  }
  Q.Issued = Seq;
  // The watchdog reads the ring while a thread waits (tools/Watchdog.cpp).
  __atomic_store_n(&Q.Ring[Seq % RingSize], P.Site, __ATOMIC_RELAXED);
  if (environment().LaunchBlocking)
    syncStream(Q, L, "the launch (OFFLOAD_LAUNCH_BLOCKING=1)");
  return true;
}

/// Reports Q's errors collected so far (outside Q.Lock).
void reportErrors(std::vector<std::string> Errors) {
  for (const std::string &E : Errors)
    reportError(E.c_str());
}

//===----------------------------------------------------------------------===//
// Workers: launches through libomptarget that do not wait
//===----------------------------------------------------------------------===//

namespace {

void workerMain(Queue *Q) {
  std::unique_lock<std::mutex> L(Q->Lock);
  for (;;) {
    Q->Changed.wait(L, [&] { return !Q->Jobs.empty(); });
    Job J = std::move(Q->Jobs.front());
    Q->Jobs.pop_front();
    Q->Running = true;
    if (J.IsPrepared) {
      launchOnStream(*Q, L, *J.P);
    } else {
      // libomptarget's launch comes after the stream's.
      syncStream(*Q, L, "a launch that did not wait");
      L.unlock();
      if (profile::Active)
        profile::setSite(J.D.Site, nullptr);
      watchdog::setLaunchSite(J.D.Site, nullptr);
      std::vector<std::string> Errors;
      DeferredErrors = &Errors;
      J.D.Body(static_cast<void **>(J.D.Context), J.D.Dims, Q->Device);
      DeferredErrors = nullptr;
      ::operator delete(J.D.Context, std::align_val_t(16));
      L.lock();
      Q->Errors.insert(Q->Errors.end(), Errors.begin(), Errors.end());
    }
    Q->Running = false;
    if (Q->Jobs.empty())
      Q->Changed.notify_all();
  }
}

} // namespace

/// Adds a job to Q's worker, starting it on first use (Q.Lock held).
void submit(Queue &Q, Job J) {
  Q.markUsed();
  if (!Q.HasWorker) {
    std::thread T(workerMain, &Q);
    Q.WorkerId = T.get_id();
    Q.HasWorker = true;
    T.detach(); // lives as long as the process; its state is never freed
  }
  Q.Jobs.push_back(std::move(J));
  Q.Changed.notify_all();
}

/// Waits until Q's worker has nothing left (unless this is the worker) and
/// its stream is idle; returns the errors found. `What`: for messages.
std::vector<std::string> drainQueue(Queue &Q, const char *What) {
  std::unique_lock<std::mutex> L(Q.Lock);
  if (!onWorker(Q))
    Q.Changed.wait(L, [&] { return Q.Jobs.empty() && !Q.Running; });
  syncStream(Q, L, What);
  std::vector<std::string> Errors;
  Errors.swap(Q.Errors);
  return Errors;
}

Queue *queueOf(int64_t Device, int32_t Index) {
  DeviceState *D = deviceState(Device);
  if (!D)
    return nullptr;
  return &D->Queues[Index >= 0 && Index < QueuesPerDevice ? Index : 0];
}

} // namespace ofld::detail::queues

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

LaunchLimits ofld::detail::launchLimits(int64_t Device, const void *RegionId) {
  LaunchLimits L{
      {portable_max_grid[0], portable_max_grid[1], portable_max_grid[2]},
      {portable_max_block[0], portable_max_block[1], portable_max_block[2]},
      portable_max_threads,
      portable_max_shared_bytes};
  DeviceState *D = Device >= 0 ? deviceState(Device) : nullptr;
  if (!D)
    return L;
  std::call_once(D->Gpu.Init, initGpu, Device, D->Gpu);
  GpuDevice &G = D->Gpu;
  if (!G.MaxThreads)
    return L;
  for (int I = 0; I < 3; ++I) {
    L.Grid[I] = G.MaxGrid[I];
    L.Block[I] = G.MaxBlock[I];
  }
  L.Threads = G.MaxThreads;
  if (G.MaxSharedOptin)
    L.SharedBytes = G.MaxSharedOptin;
  L.FromDevice = true;
  if (RegionId && G.Usable) {
    Function F = function(G, RegionId);
    if (F.F && F.MaxThreads && F.MaxThreads < L.Threads) {
      L.Threads = F.MaxThreads;
      L.ThreadsFromKernel = true;
    }
    if (F.F && F.StaticShared && G.MaxSharedOptin) {
      L.SharedBytes = G.MaxSharedOptin > F.StaticShared
                          ? G.MaxSharedOptin - F.StaticShared
                          : 0;
      L.SharedFromKernel = true;
    }
  }
  return L;
}

void ofld::detail::drainDevice(int64_t Device, const char *What) {
  DeviceState *D = deviceState(Device);
  if (!D)
    return;
  std::vector<std::string> Errors;
  for (uint32_t Used = D->Used.load(); Used; Used &= Used - 1) {
    std::vector<std::string> E =
        drainQueue(D->Queues[__builtin_ctz(Used)], What);
    Errors.insert(Errors.end(), E.begin(), E.end());
  }
  reportErrors(std::move(Errors));
}

void ofld::detail::drainAll(const char *What) {
  for (int64_t D = 0; D < numDevices(); ++D)
    drainDevice(D, What);
}

void ofld::wait() { drainAll("ofld::wait()"); }

ofld::queue::queue(int Device) : device_(Device) {
  // Round robin over the device's queues other than its default one.
  static std::atomic<unsigned> Next{0};
  index_ = int32_t(1 + Next.fetch_add(1) % (QueuesPerDevice - 1));
}

void ofld::queue::wait() const {
  // A queue of "the launch's device" (-1) has that index on every device.
  if (device_ < 0) {
    for (int64_t D = 0; D < numDevices(); ++D)
      if (Queue *Q = queueOf(D, index_))
        reportErrors(drainQueue(*Q, "ofld::queue::wait()"));
    return;
  }
  int64_t Device = dataDevice(device_, nullptr, "ofld::queue::wait");
  if (Queue *Q = queueOf(Device, index_))
    reportErrors(drainQueue(*Q, "ofld::queue::wait()"));
}

void ofld::detail::finishLaunches() {
  // The program ends: launches still queued finish, and their errors are
  // reported, before libomptarget tears the devices down. exit() is running,
  // so a failure ends the process here.
  std::vector<std::string> Errors;
  for (int64_t D = 0; D < numDevices(); ++D)
    if (DeviceState *S = deviceState(D))
      for (Queue &Q : S->Queues) {
        std::vector<std::string> E = drainQueue(Q, "the end of the program");
        Errors.insert(Errors.end(), E.begin(), E.end());
      }
  if (!Errors.empty()) {
    std::fflush(stdout);
    for (const std::string &E : Errors)
      std::fprintf(stderr, "%s\n", E.c_str());
    std::_Exit(EXIT_FAILURE);
  }
}

namespace {
/// The first launch on a CUDA device would load the program's images (again:
/// libomptarget keeps its own copy out of reach), find and load its kernel
/// (CUDA loads kernels lazily by default), allocate the pinned mark words
/// and create the queue's stream: 1.2-1.8 ms on an H200, where CUDA's own
/// first launch takes 0.2 ms (lazy) or 0.06 ms (eager). Done here, when
/// the program first uses the device, as CUDA_MODULE_LOADING=EAGER does at
/// context creation; every kernel of the images is loaded, as there.
void warmUp(int64_t Device) {
  GpuDevice *G = gpu(Device);
  if (!G)
    return;
  std::vector<const void *> Ids;
  {
    Registry &R = registry();
    std::lock_guard<std::mutex> L(R.Lock);
    for (const auto &[Id, Name] : R.Kernels)
      Ids.push_back(Id);
  }
  for (const void *Id : Ids)
    lookupFunction(*G, Id);
  Queue *Q = queueOf(Device, 0);
  std::lock_guard<std::mutex> L(Q->Lock);
  readyStream(*Q);
}

/// The data part waits for launches through this hook (data/Data.h), and
/// the base warms a device up through the other (Runtime.h): both sit below
/// launch/ and cannot call it themselves.
[[gnu::constructor]] void connectLowerParts() {
  setLaunchWait(drainDevice);
  setDeviceWarmUp(warmUp);
}
} // namespace
