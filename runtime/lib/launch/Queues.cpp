//===- Streams.cpp - queues and stream-ordered launches -------------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// CUDA's stream model, derived from the data (issue 15). A launch whose every
// mapped range a region, a launch group or a device buffer keeps on the
// device (Residency.cpp) moves nothing and needs nothing back: on a CUDA
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
// Kernels. libomptarget loads the program's images itself and offers no way
// to reach them, so the runtime interposes __tgt_register_lib (the program
// links libofld_rt before libomptarget), keeps the descriptor's CUDA images
// and the region-id -> kernel-name entries, and loads each image once per
// device in the primary context libomptarget uses. Device memory is shared;
// the images have no globals of their own (entries of size 0 only; else the
// fast path stays off).
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

#include "Runtime.h"
#include "cuda/Cuda.h"
#include "data/ArgArena.h"
#include "launch/LaunchSlots.h"
#include "offload/detail/printf_record.hpp"
#include "offload/launch.hpp"
#include "tools/Tools.h"

#include <omp.h>

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <shared_mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

using namespace ofld::detail;
using namespace ofld::detail::cuda;

namespace {

constexpr int QueuesPerDevice = 16;
/// Launches remembered per queue for naming a failure.
constexpr uint32_t RingSize = 4096;
constexpr int64_t MapTo = __ofld_map_to, MapFrom = __ofld_map_from,
                  MapLiteral = __ofld_map_literal;

//===----------------------------------------------------------------------===//
// The program's images (interposed registration)
//===----------------------------------------------------------------------===//

// llvm/Frontend/Offloading/Utility.h and omptarget.h, version 1.
struct EntryTy {
  uint64_t Reserved;
  uint16_t Version;
  uint16_t Kind;
  uint32_t Flags;
  void *Address;
  char *SymbolName;
  uint64_t Size;
  uint64_t Data;
  void *AuxAddr;
};
struct DeviceImageTy {
  void *ImageStart, *ImageEnd;
  EntryTy *EntriesBegin, *EntriesEnd;
};
struct BinDescTy {
  int32_t NumDeviceImages;
  DeviceImageTy *DeviceImages;
  EntryTy *HostEntriesBegin, *HostEntriesEnd;
};

struct Registry {
  std::mutex Lock;
  /// CUDA images (cubins), in registration order.
  std::vector<std::pair<const char *, std::size_t>> Cubins;
  /// Region id -> device kernel name.
  std::unordered_map<const void *, const char *> Kernels;
  /// Some image has entries the fast path cannot share (device globals).
  bool Unsupported = false;
};
Registry &registry() {
  static auto *R = new Registry;
  return *R;
}

/// The inner image of an OffloadBinary (llvm/Object/OffloadBinary.h,
/// version 1) if it is for NVPTX; a bare ELF cubin as it is.
std::pair<const char *, std::size_t> cudaImage(const char *Start,
                                               const char *End) {
  std::size_t Size = std::size_t(End - Start);
  auto Read = [&](std::size_t Off, auto &Out) {
    if (Off + sizeof(Out) > Size)
      return false;
    std::memcpy(&Out, Start + Off, sizeof(Out));
    return true;
  };
  static const unsigned char Magic[4] = {0x10, 0xFF, 0x10, 0xAD};
  if (Size >= 4 && !std::memcmp(Start, Magic, 4)) {
    uint32_t Version;
    uint64_t EntryOffset, StringOffset, NumStrings, ImageOffset, ImageSize;
    if (!Read(4, Version) || Version != 1 || !Read(16, EntryOffset) ||
        !Read(EntryOffset + 8, StringOffset) ||
        !Read(EntryOffset + 16, NumStrings) ||
        !Read(EntryOffset + 24, ImageOffset) ||
        !Read(EntryOffset + 32, ImageSize) || ImageOffset + ImageSize > Size)
      return {nullptr, 0};
    bool Nvptx = false;
    for (uint64_t I = 0; I < NumStrings; ++I) {
      uint64_t Key, Value;
      if (!Read(StringOffset + 16 * I, Key) ||
          !Read(StringOffset + 16 * I + 8, Value) || Key >= Size ||
          Value >= Size)
        return {nullptr, 0};
      if (!std::strncmp(Start + Key, "triple", Size - Key) &&
          !std::strncmp(Start + Value, "nvptx",
                        std::min<std::size_t>(5, Size - Value)))
        Nvptx = true;
    }
    return Nvptx
               ? cudaImage(Start + ImageOffset, Start + ImageOffset + ImageSize)
               : std::pair<const char *, std::size_t>{nullptr, 0};
  }
  // ELF, e_machine EM_CUDA (190).
  uint16_t Machine;
  if (Size >= 20 &&
      !std::memcmp(Start,
                   "\x7f"
                   "ELF",
                   4) &&
      Read(18, Machine) && Machine == 190)
    return {Start, Size};
  return {nullptr, 0};
}

void recordImages(const BinDescTy *Desc) {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  for (int32_t I = 0; I < Desc->NumDeviceImages; ++I) {
    const DeviceImageTy &Img = Desc->DeviceImages[I];
    auto Cubin = cudaImage(static_cast<const char *>(Img.ImageStart),
                           static_cast<const char *>(Img.ImageEnd));
    if (Cubin.first)
      R.Cubins.push_back(Cubin);
  }
  for (const EntryTy *E = Desc->HostEntriesBegin; E != Desc->HostEntriesEnd;
       ++E) {
    // The printf buffer: kernels on the fast path's own copy of the images
    // would write to a copy DevicePrintf.cpp does not read. That happens
    // only with OFFLOAD_BUFFERED_PRINTF (its symbol is the other one), a
    // test mode: the fast path is off then. Otherwise NVIDIA GPUs print
    // with CUDA's vprintf and never touch it.
    if (E->Size && E->SymbolName &&
        registerPrintfBuffer(E->SymbolName, E->Address, E->Size)) {
      if (!std::strcmp(E->SymbolName,
                       ofld::detail::printf_record::symbol_all_devices))
        R.Unsupported = true;
      continue;
    }
    if (E->Reserved || E->Version != 1 || E->Size) {
      R.Unsupported = true;
      continue;
    }
    R.Kernels[E->Address] = E->SymbolName;
  }
  if (environment().LaunchDebug)
    std::fprintf(stderr,
                 "offload: launches: %d images registered, %zu CUDA images "
                 "and %zu kernels known%s\n",
                 Desc->NumDeviceImages, R.Cubins.size(), R.Kernels.size(),
                 R.Unsupported ? "; images with data entries: no fast path"
                               : "");
}

//===----------------------------------------------------------------------===//
// CUDA devices
//===----------------------------------------------------------------------===//

struct Function {
  CUfunction F = nullptr;
  uint64_t MaxThreads = 0;
  const char *Symbol = nullptr; ///< the device entry's name, for logs
  /// Built for sm_90 or later: its entry waits for the launch before it, so
  /// it may overlap that one.
  bool Overlaps = false;
};

struct GpuDevice {
  std::once_flag Init;
  bool Usable = false;
  const Driver *Cu = nullptr;
  int Ordinal = -1;
  CUcontext Ctx = nullptr;
  uint64_t MaxGrid[3] = {}, MaxBlock[3] = {}, MaxThreads = 0;
  /// The queues' mark words (pinned): the number of the launch whose first
  /// block started last.
  uint32_t *Marks = nullptr;
  CUdeviceptr MarksDev = 0;
  std::atomic<bool> Broken{false};

  std::shared_mutex FnLock;
  bool ModulesLoaded = false;
  std::vector<CUmodule> Modules;
  std::unordered_map<const void *, Function> Functions;
};

/// A launch ready for cuLaunchKernel: what a worker puts on the stream.
struct Prepared {
  Function Fn; ///< the kernel, its name, whether it may overlap
  uint32_t Dims[__ofld_num_dims];
  /// The kernel's argument slots: inline for every launch but the largest.
  static constexpr unsigned Inline = 30;
  uint64_t InlineParams[Inline];
  std::vector<uint64_t> HeapParams;
  uint64_t *Params = InlineParams;
  unsigned NumParams = 0;
  const __ofld_site *Site;

  Prepared(const Function &F, const uint32_t *D, unsigned N,
           const __ofld_site *S)
      : Fn(F), NumParams(N), Site(S) {
    std::copy(D, D + __ofld_num_dims, Dims);
    if (N > Inline) {
      HeapParams.resize(N);
      Params = HeapParams.data();
    }
  }
  Prepared(const Prepared &O) : Prepared(O.Fn, O.Dims, O.NumParams, O.Site) {
    std::copy(O.Params, O.Params + O.NumParams, Params);
  }
  Prepared &operator=(const Prepared &) = delete;
};

/// A launch through libomptarget that does not wait: the emitted body.
struct Deferred {
  __ofld_launch_body Body;
  void *Context;
  uint32_t *Dims;
  const __ofld_site *Site; ///< for the profiler (Profile.h)
};

struct Job {
  bool IsPrepared;
  std::optional<Prepared> P;
  Deferred D;
};

struct Queue {
  int64_t Device = -1;
  int Index = 0;
  GpuDevice *Gpu = nullptr;
  std::atomic<uint32_t> *Used = nullptr; ///< the device's DeviceState::Used

  void markUsed() {
    uint32_t Bit = uint32_t(1) << Index;
    if (!(Used->load(std::memory_order_relaxed) & Bit))
      Used->fetch_or(Bit);
  }

  std::mutex Lock;
  std::condition_variable Changed;
  std::deque<Job> Jobs;
  bool Running = false; ///< the worker runs a job
  bool HasWorker = false;
  std::thread::id WorkerId;
  /// Messages of failed launches, reported at the next wait.
  std::vector<std::string> Errors;

  CUstream Stream = nullptr;
  /// Launches put on the stream, and how many are known to have finished.
  uint32_t Issued = 0, Synced = 0;
  const __ofld_site *Ring[RingSize];
};

struct DeviceState {
  Queue Queues[QueuesPerDevice];
  GpuDevice Gpu;
  /// One bit per queue that ever had work: the ones a wait must look at.
  std::atomic<uint32_t> Used{0};
};

/// Per libomptarget device; never freed (workers run until exit).
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

/// The CUDA state of `Device`, or null if launches there cannot go to a
/// stream directly (no CUDA device, fast path off, an earlier failure).
GpuDevice *gpu(int64_t Device) {
  DeviceState *D = deviceState(Device);
  if (!D)
    return nullptr;
  std::call_once(D->Gpu.Init, initGpu, Device, D->Gpu);
  return D->Gpu.Usable && !D->Gpu.Broken.load(std::memory_order_relaxed)
             ? &D->Gpu
             : nullptr;
}

Function lookupFunction(GpuDevice &G, const void *RegionId);

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

//===----------------------------------------------------------------------===//
// Launching on a stream
//===----------------------------------------------------------------------===//

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

/// Waits for the launches on Q's stream; a failure goes to Q.Errors. Called
/// with Q.Lock held (released while waiting).
void syncStream(Queue &Q, std::unique_lock<std::mutex> &L, const char *What) {
  if (!Q.Stream || Q.Issued == Q.Synced)
    return;
  uint32_t Upto = Q.Issued;
  const Driver &Cu = *Q.Gpu->Cu;
  L.unlock();
  CUresult R = Cu.StreamSynchronize(Q.Stream);
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
                      P.Dims[5], 0,         Q.Stream,  &Overlap,  1};
    R = Cu.LaunchKernelEx(&C, P.Fn.F, nullptr, Extra);
  } else {
    R = Cu.LaunchKernel(P.Fn.F, P.Dims[0], P.Dims[1], P.Dims[2], P.Dims[3],
                        P.Dims[4], P.Dims[5], 0, Q.Stream, nullptr, Extra);
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
  Q.Ring[Seq % RingSize] = P.Site;
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

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

LaunchLimits ofld::detail::launchLimits(int64_t Device, const void *RegionId) {
  LaunchLimits L{
      {portable_max_grid[0], portable_max_grid[1], portable_max_grid[2]},
      {portable_max_block[0], portable_max_block[1], portable_max_block[2]},
      portable_max_threads};
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
  L.FromDevice = true;
  if (RegionId && G.Usable) {
    Function F = function(G, RegionId);
    if (F.F && F.MaxThreads && F.MaxThreads < L.Threads) {
      L.Threads = F.MaxThreads;
      L.ThreadsFromKernel = true;
    }
  }
  return L;
}

namespace {

/// A launch's small ranges that no holder keeps, copied through a chunk of
/// the device's argument arena (ArgArena.h) on the queue's own stream: in
/// before the kernel, back after it, then one synchronisation. CUDA's own
/// sequence for such a launch (memcpy in, kernel, memcpy out), from pinned
/// memory. A reduction's variable is not copied at all: the kernel reads and
/// writes its pinned copy in place (one thread, once each: the last block's
/// fold), which saves a copy each way.
struct SmallCopies {
  ArgChunk Chunk;
  std::size_t Used = 0;
  struct Range {
    char *Host, *Copy;
    std::size_t Bytes;
    int64_t Types;
    const char *Name;
    bool InPlace; ///< a reduction's variable: the kernel uses Copy itself
  };
  Range Ranges[8];
  int Count = 0;
};

/// Whether the launch's unheld ranges (Addr[I] == 0) can go through the
/// arena: few, small, apart from each other and from held data. Places
/// them in a chunk and sets their device addresses in `Addr`.
bool placeSmall(int64_t Device, int32_t N, void **Ptrs, const int64_t *Sizes,
                const int64_t *Types, const char **Names, const bool *Partly,
                const std::vector<const void *> &InPlace, uintptr_t *Addr,
                SmallCopies &S) {
  for (int32_t I = 0; I < N; ++I) {
    if (Addr[I] || Sizes[I] <= 0)
      continue;
    if (Partly[I] || std::size_t(Sizes[I]) > SmallRangeMaxBytes ||
        S.Count == int(std::size(S.Ranges)))
      return false;
    auto *Host = static_cast<char *>(Ptrs[I]);
    // One buffer passed twice needs libomptarget's merged mapping (MapPlan).
    for (int K = 0; K < S.Count; ++K)
      if (Host < S.Ranges[K].Host + S.Ranges[K].Bytes &&
          S.Ranges[K].Host < Host + Sizes[I])
        return false;
    bool Direct =
        std::find(InPlace.begin(), InPlace.end(), Host) != InPlace.end();
    S.Ranges[S.Count++] = {Host,
                           nullptr,
                           std::size_t(Sizes[I]),
                           Types[I],
                           Names ? Names[I] : nullptr,
                           Direct};
  }
  if (!S.Count || !(S.Chunk = acquireArgChunk(int(Device))))
    return false;
  if (!S.Chunk.DeviceBase) {
    releaseArgChunk(S.Chunk);
    return false;
  }
  for (int K = 0; K < S.Count; ++K) {
    SmallCopies::Range &R = S.Ranges[K];
    // The same address modulo 256 keeps the alignment of any type in it.
    constexpr std::size_t Align = 256;
    std::size_t Offset = (S.Used + Align - 1) / Align * Align +
                         reinterpret_cast<uintptr_t>(R.Host) % Align;
    if (Offset + R.Bytes > ArgChunkBytes) {
      releaseArgChunk(S.Chunk);
      return false;
    }
    S.Used = Offset + R.Bytes;
    R.Copy = S.Chunk.Base + Offset;
  }
  // Pinned memory is the device's too at its host address (unified
  // addressing): a range used in place passes that.
  for (int32_t I = 0, K = 0; I < N; ++I)
    if (!Addr[I] && Sizes[I] > 0) {
      const SmallCopies::Range &R = S.Ranges[K++];
      Addr[I] = R.InPlace ? reinterpret_cast<uintptr_t>(R.Copy)
                          : reinterpret_cast<uintptr_t>(S.Chunk.DeviceBase) +
                                uintptr_t(R.Copy - S.Chunk.Base);
    }
  return true;
}

/// Logs a copy the way libomptarget does, so that its log accounts for it.
void logCopy(int64_t Device, bool ToDevice, const SmallCopies::Range &R,
             int Queue) {
  std::fprintf(stderr,
               "offload device %lld info: Copying data from %s on queue %d "
               "through the argument arena, HstPtr=%p, Size=%zu, Name=%s\n",
               (long long)Device,
               ToDevice ? "host to device" : "device to host", Queue,
               static_cast<void *>(R.Host), R.Bytes, mapName(R.Name).c_str());
}

} // namespace

extern "C" int32_t
__ofld_enqueue(const __ofld_site *Site, const ofld::launch *Shape,
               const void *RegionId, int64_t Device, const uint32_t *Dims,
               int32_t Mode, int32_t N, int32_t Total, void **Ptrs,
               const int64_t *Sizes, const int64_t *Types, const char **Names) {
  // A device buffer's address stands for device memory: it cannot reach a
  // kernel on the host or on another device.
  auto WrongBuffer = [&](int32_t I) {
    int64_t Owner;
    if (!inDeviceBuffer(Ptrs[I], Owner) || Owner == Device)
      return false;
    if (Device < 0)
      fail(Site,
           "'%s' is an ofld::device_buffer on device %lld, but the "
           "kernel runs on the host",
           mapName(Names ? Names[I] : nullptr).c_str(), (long long)Owner);
    else
      fail(Site,
           "'%s' is an ofld::device_buffer on device %lld, but the "
           "launch runs on device %lld",
           mapName(Names ? Names[I] : nullptr).c_str(), (long long)Owner,
           (long long)Device);
    return true;
  };
  if (Device < 0) {
    for (int32_t I = 0; I < N; ++I)
      if (WrongBuffer(I))
        return 1;
    if (profile::Active)
      profile::cpuLaunch(Site);
    return 0;
  }
  Queue *Q = queueOf(Device, Shape ? Shape->queue.index_ : 0);
  if (!Q)
    return 0;

  // Is all of the launch's data on the device already?
  constexpr int32_t Inline = 32;
  uintptr_t AddrBuf[Inline];
  bool PartlyBuf[Inline];
  std::unique_ptr<uintptr_t[]> AddrHeap;
  std::unique_ptr<bool[]> PartlyHeap;
  uintptr_t *Addr = AddrBuf;
  bool *Partly = PartlyBuf;
  if (N > Inline) {
    AddrHeap.reset(new uintptr_t[N]);
    PartlyHeap.reset(new bool[N]);
    Addr = AddrHeap.get();
    Partly = PartlyHeap.get();
  }
  bool Held = true;
  for (int32_t I = 0; I < N; ++I) {
    RangeLookup R =
        lookupRange(Device, Ptrs[I], Sizes[I], (Types[I] & MapFrom) != 0);
    Addr[I] = reinterpret_cast<uintptr_t>(R.Address);
    Partly[I] = R.Partly;
    if (R.WritesConstEntry)
      markWrites(Site, Device, Ptrs[I], Sizes[I], Names ? Names[I] : nullptr);
    if (Addr[I] || Sizes[I] <= 0)
      continue;
    if (WrongBuffer(I))
      return 1;
    Held = false;
  }

  // A launch that waits and moves only small ranges can still use the
  // stream, through the argument arena.
  GpuDevice *G = gpu(Device);
  Function F = G ? function(*G, RegionId) : Function{};
  SmallCopies Small;
  bool ViaArena = false;
  if (F.F && !Held && Mode == __ofld_mode_now) {
    // Reductions' variables: the pointer slot before a scratch literal.
    std::vector<const void *> InPlace;
    for (int32_t J = N; J + 1 < Total; ++J)
      if (!(Types[J] & MapLiteral) && (Types[J + 1] & MapLiteral) &&
          isReductionScratch(reinterpret_cast<uint64_t>(Ptrs[J + 1])))
        InPlace.push_back(Ptrs[J]);
    std::lock_guard<std::mutex> L(Q->Lock);
    ViaArena = Q->Jobs.empty() && !Q->Running &&
               placeSmall(Device, N, Ptrs, Sizes, Types, Names, Partly, InPlace,
                          Addr, Small);
  }
  if (!F.F || (!Held && !ViaArena)) {
    // libomptarget's path. A launch that waits first lets its queue finish;
    // one that does not goes to the queue's worker, which does the same.
    if (Mode != __ofld_mode_async)
      reportErrors(drainQueue(*Q, "a launch that waits"));
    return 0;
  }

  Prepared P(F, Dims, unsigned(1 + Total - N), Site);
  P.Params[0] = 0; // the implicit dynamic-memory pointer, unused
  for (int32_t J = N; J < Total; ++J) {
    uint64_t &Slot = P.Params[1 + J - N];
    auto Ptr = reinterpret_cast<uintptr_t>(Ptrs[J]);
    if (Types[J] & MapLiteral) {
      Slot = Ptr;
      continue;
    }
    Slot = ofld::detail::parameterAddress(Ptr, Sizes[J], N, Ptrs, Sizes, Addr);
  }
  std::vector<std::string> Errors;
  {
    std::unique_lock<std::mutex> L(Q->Lock);
    if (ViaArena) {
      const Driver &Cu = *G->Cu;
      auto Dev = [&](char *Copy) {
        return CUdeviceptr(reinterpret_cast<uintptr_t>(Small.Chunk.DeviceBase) +
                           (Copy - Small.Chunk.Base));
      };
      bool Ok = readyStream(*Q);
      for (int K = 0; K < Small.Count && Ok; ++K) {
        SmallCopies::Range &R = Small.Ranges[K];
        if (!(R.Types & MapTo))
          continue;
        std::memcpy(R.Copy, R.Host, R.Bytes);
        if (R.InPlace)
          continue;
        profile::StreamSpan Span;
        if (profile::Active)
          Span = profile::beginOnStream(Cu, G->Ctx, Q->Stream, Device, Site,
                                        R.Name ? R.Name : "", true);
        Ok = !Cu.MemcpyHtoDAsync(Dev(R.Copy), R.Copy, R.Bytes, Q->Stream);
        if (profile::Active)
          profile::endOnStream(Span, Cu, G->Ctx, Q->Stream, Device, Q->Index,
                               Site, R.Name ? R.Name : "", true, R.Bytes,
                               nullptr, Ok);
        if (environment().logsCopies())
          logCopy(Device, true, R, Q->Index);
      }
      bool Launched = Ok && launchOnStream(*Q, L, P);
      Ok = Launched;
      for (int K = 0; K < Small.Count && Ok; ++K) {
        SmallCopies::Range &R = Small.Ranges[K];
        if (!(R.Types & MapFrom) || R.InPlace)
          continue;
        profile::StreamSpan Span;
        if (profile::Active)
          Span = profile::beginOnStream(Cu, G->Ctx, Q->Stream, Device, Site,
                                        R.Name ? R.Name : "", false);
        Ok = !Cu.MemcpyDtoHAsync(R.Copy, Dev(R.Copy), R.Bytes, Q->Stream);
        if (profile::Active)
          profile::endOnStream(Span, Cu, G->Ctx, Q->Stream, Device, Q->Index,
                               Site, R.Name ? R.Name : "", false, R.Bytes,
                               nullptr, Ok);
        if (environment().logsCopies())
          logCopy(Device, false, R, Q->Index);
      }
      // The launch waits: its results come back, and the chunk is free
      // only once the stream is done with it.
      if (Launched)
        syncStream(*Q, L, "a launch that copies data back");
      else if (Q->Stream)
        (void)Cu.StreamSynchronize(Q->Stream);
      Ok = Ok && Q->Errors.empty();
      for (int K = 0; K < Small.Count && Ok; ++K)
        if (Small.Ranges[K].Types & MapFrom)
          std::memcpy(Small.Ranges[K].Host, Small.Ranges[K].Copy,
                      Small.Ranges[K].Bytes);
      releaseArgChunk(Small.Chunk);
      if (!Launched && Q->Errors.empty()) {
        // Nothing ran (no stream, a copy failed): libomptarget's path.
        L.unlock();
        return 0;
      }
      Errors.swap(Q->Errors);
    } else if (!Q->Jobs.empty() || Q->Running) {
      submit(*Q, Job{true, P, {}}); // behind the worker's launches
    } else if (!launchOnStream(*Q, L, P) || environment().LaunchBlocking) {
      Errors.swap(Q->Errors);
    }
  }
  reportErrors(std::move(Errors));
  return 1;
}

extern "C" void *__ofld_async_alloc(int64_t Bytes) {
  return ::operator new(std::size_t(Bytes), std::align_val_t(16));
}

extern "C" void __ofld_async_submit(const __ofld_site *Site,
                                    const ofld::launch *Shape,
                                    void (*Body)(void **, uint32_t *, int64_t),
                                    void *Context, uint32_t *Dims,
                                    int64_t Device) {
  Queue *Q = queueOf(Device, Shape ? Shape->queue.index_ : 0);
  if (!Q) {
    // Kernels on this CPU: synchronously, which keeps them in order too.
    Body(static_cast<void **>(Context), Dims, Device);
    ::operator delete(Context, std::align_val_t(16));
    return;
  }
  std::lock_guard<std::mutex> L(Q->Lock);
  submit(*Q, Job{false, std::nullopt, {Body, Context, Dims, Site}});
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

//===----------------------------------------------------------------------===//
// Registration, interposed
//===----------------------------------------------------------------------===//

extern "C" void __tgt_register_lib(BinDescTy *Desc) {
  using Fn = void (*)(BinDescTy *);
  static const Fn Next =
      reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "__tgt_register_lib"));
  recordImages(Desc);
  if (Next)
    Next(Desc);
}

extern "C" void __tgt_unregister_lib(BinDescTy *Desc) {
  using Fn = void (*)(BinDescTy *);
  static const Fn Next =
      reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "__tgt_unregister_lib"));
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
  // Every launch has finished: the profile is complete.
  if (profile::Active)
    profile::finish();
  if (Next)
    Next(Desc);
}
