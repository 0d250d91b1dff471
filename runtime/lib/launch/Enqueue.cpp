//===- launch/Enqueue.cpp - a launch, from the lowered call to a queue ----===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The launch entry points the lowered code calls after choosing a device
// (Runtime.cpp): __ofld_launch_shape checks the shape against the device's
// and kernel's limits, __ofld_enqueue decides whether the launch can go on
// its queue's CUDA stream (Queues.cpp) or must take libomptarget's path,
// and __ofld_launch_failed says whether a failed launch may fall back to
// the CPU. The decision is the data's: a launch whose ranges a holder keeps
// on the device, or whose small ranges fit the argument arena, moves no
// data through libomptarget and needs nothing of it.
//
//===----------------------------------------------------------------------===//

#include "launch/QueueState.h"

#include "Environment.h"
#include "Runtime.h"
#include "data/Data.h"
#include "launch/LaunchSlots.h"
#include "offload/launch.hpp"
#include "offload/offload.hpp"
#include "tools/Tools.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <vector>

using namespace ofld::detail;
using namespace ofld::detail::queues;

namespace {
constexpr int64_t MapTo = __ofld_map_to, MapFrom = __ofld_map_from,
                  MapLiteral = __ofld_map_literal;
} // namespace

extern "C" int32_t __ofld_launch_shape(const __ofld_site *Site,
                                       const ofld::launch *Shape,
                                       const int64_t *Extent, int64_t Device,
                                       const void *RegionId, uint32_t *Dims) {
  if (profile::Active)
    profile::setSite(Site, RegionId);
  watchdog::setLaunchSite(Site, RegionId);
  const long long E[3] = {Extent[0], Extent[1], Extent[2]};
  if (lacks_bound(Shape, E)) {
    char Cause[320];
    __ofld::unbounded_cause(Cause, sizeof(Cause), E);
    fail(Site, "%s", Cause);
    return __ofld_mode_skip;
  }
  std::uint64_t D[6];
  default_dims(Shape, E, D);
  // A zero component (an empty span under the default shape): nothing runs.
  if (is_empty(D))
    return __ofld_mode_skip;
  LaunchLimits Limits = launchLimits(Device, RegionId);
  char Cause[256];
  if (__ofld::limit_cause(Cause, sizeof(Cause), D, Limits.Grid, Limits.Block,
                          Limits.Threads)) {
    int Which = exceeded_limit(D, Limits.Grid, Limits.Block, Limits.Threads);
    char Whose[160] = "";
    if (Which == 6 && Limits.ThreadsFromKernel)
      std::snprintf(Whose, sizeof(Whose),
                    " of this kernel on device %lld (its registers and shared "
                    "memory allow no more)",
                    (long long)Device);
    else if (Limits.FromDevice)
      std::snprintf(Whose, sizeof(Whose), " of device %lld", (long long)Device);
    fail(Site, "%s%s%s", Cause, Whose,
         __ofld::default_grid_hint(Shape, D, Limits.Grid));
    return __ofld_mode_skip;
  }
  std::uint64_t Shared = shared_bytes_of(Shape);
  if (__ofld::shared_cause(Cause, sizeof(Cause), Shared, Limits.SharedBytes)) {
    char Whose[160] = "";
    if (Limits.SharedFromKernel)
      std::snprintf(Whose, sizeof(Whose),
                    " of this kernel on device %lld (the device's, less the "
                    "kernel's static shared memory)",
                    (long long)Device);
    else if (Limits.FromDevice)
      std::snprintf(Whose, sizeof(Whose), " of device %lld", (long long)Device);
    fail(Site, "%s%s", Cause, Whose);
    return __ofld_mode_skip;
  }
  for (int I = 0; I < 6; ++I)
    Dims[I] = std::uint32_t(D[I]);
  Dims[__ofld_shared_bytes_dim] = std::uint32_t(Shared);
  Dims[__ofld_shared_bytes_dim + 1] = 0;
  return Shape && Shape->nowait ? __ofld_mode_async : __ofld_mode_now;
}

namespace {

/// A launch's small ranges that no holder keeps, copied through a chunk of
/// the device's argument arena (data/ArgArena.cpp) on the queue's own stream:
/// in before the kernel, back after it, then one synchronisation. CUDA's own
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
    bool InPlace; ///< the kernel uses Copy itself
    bool Logged;  ///< InPlace for a small range (usedInPlace), logged as such
  };
  Range Ranges[8];
  int Count = 0;
};

/// OFFLOAD_ARENA_TO=mapped: the largest range the kernel uses in place, in
/// pinned host memory, instead of a copy each way. Small, because every
/// access of the kernel then crosses the bus.
constexpr std::size_t ArenaMappedMaxBytes = 64;

/// Whether the kernel uses an arena range of `Bytes` with map bits `Type`
/// in the pinned chunk itself. By default a small range the kernel may
/// write (a `bool&` flag, a counter): no copy before or after the kernel,
/// which on an H200 made bfs's level loop 0.60x CUDA's instead of 1.22x
/// (bench/apps/README.md). Small read-only ranges keep their copy: a kernel
/// may read them in a loop, and each read would cross the bus.
bool usedInPlace(int64_t Bytes, int64_t Type) {
  using ArenaTo = Environment::ArenaTo;
  const ArenaTo How = environment().ArenaToDevice;
  if (std::size_t(Bytes) > ArenaMappedMaxBytes)
    return false;
  return How == ArenaTo::Mapped || (How == ArenaTo::Auto && (Type & MapFrom));
}

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
    bool Reduction =
        std::find(InPlace.begin(), InPlace.end(), Host) != InPlace.end();
    bool Small = !Reduction && usedInPlace(Sizes[I], Types[I]);
    S.Ranges[S.Count++] = {Host,
                           nullptr,
                           std::size_t(Sizes[I]),
                           Types[I],
                           Names ? Names[I] : nullptr,
                           Reduction || Small,
                           Small};
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

/// Logs a copy the way libomptarget does, so that its log accounts for it;
/// `How` names a way other than a copy on the queue's stream.
void logCopy(int64_t Device, bool ToDevice, const SmallCopies::Range &R,
             int Queue, const char *How = "") {
  std::fprintf(stderr,
               "offload device %lld info: Copying data from %s on queue %d "
               "through the argument arena%s, HstPtr=%p, Size=%zu, Name=%s\n",
               (long long)Device,
               ToDevice ? "host to device" : "device to host", Queue, How,
               static_cast<void *>(R.Host), R.Bytes, mapName(R.Name).c_str());
}

} // namespace

namespace {

/// A launch's mapped ranges (the first N) and kernel slots (N to Total), as
/// __ofld_enqueue receives them.
struct LaunchArgs {
  const __ofld_site *Site;
  int64_t Device;
  int32_t N, Total;
  void **Ptrs;
  const int64_t *Sizes, *Types;
  const char **Names;
  const char *name(int32_t I) const { return Names ? Names[I] : nullptr; }
};

/// A device buffer's address stands for device memory: it cannot reach a
/// kernel on the host or on another device. Reports range `I` if it is such
/// an address.
bool wrongBuffer(const LaunchArgs &A, int32_t I) {
  int64_t Owner;
  if (!inDeviceBuffer(A.Ptrs[I], Owner) || Owner == A.Device)
    return false;
  if (A.Device < 0)
    fail(A.Site,
         "'%s' is an ofld::device_buffer on device %lld, but the "
         "kernel runs on the host",
         mapName(A.name(I)).c_str(), (long long)Owner);
  else
    fail(A.Site,
         "'%s' is an ofld::device_buffer on device %lld, but the "
         "launch runs on device %lld",
         mapName(A.name(I)).c_str(), (long long)Owner, (long long)A.Device);
  return true;
}

/// Step 1, for a kernel on this CPU: no device buffer may reach it. Returns
/// __ofld_enqueue's answer.
int32_t checkCpuLaunch(const LaunchArgs &A) {
  for (int32_t I = 0; I < A.N; ++I)
    if (wrongBuffer(A, I))
      return 1;
  if (profile::Active)
    profile::cpuLaunch(A.Site);
  return 0;
}

/// The device address of each mapped range (0: none yet) and whether a
/// holder keeps only part of it; small launches stay on the stack.
struct DeviceAddresses {
  static constexpr int32_t Inline = 32;
  uintptr_t AddrBuf[Inline];
  bool PartlyBuf[Inline];
  std::unique_ptr<uintptr_t[]> AddrHeap;
  std::unique_ptr<bool[]> PartlyHeap;
  uintptr_t *Addr = AddrBuf;
  bool *Partly = PartlyBuf;
  /// Every range with bytes is on the device already.
  bool Held = true;
  /// A range needed markWrites (done once per launch, never memoised).
  bool Marked = false;

  explicit DeviceAddresses(int32_t N) {
    if (N <= Inline)
      return;
    AddrHeap.reset(new uintptr_t[N]);
    PartlyHeap.reset(new bool[N]);
    Addr = AddrHeap.get();
    Partly = PartlyHeap.get();
  }
  DeviceAddresses(const DeviceAddresses &) = delete;
  DeviceAddresses &operator=(const DeviceAddresses &) = delete;
};

/// Step 2: is all of the launch's data on the device already? Fills `D`;
/// false after reporting a device buffer of another device.
bool findOnDevice(const LaunchArgs &A, DeviceAddresses &D) {
  for (int32_t I = 0; I < A.N; ++I) {
    RangeLookup R = lookupRange(A.Device, A.Ptrs[I], A.Sizes[I],
                                (A.Types[I] & MapFrom) != 0);
    D.Addr[I] = reinterpret_cast<uintptr_t>(R.Address);
    D.Partly[I] = R.Partly;
    if (R.WritesConstEntry) {
      markWrites(A.Site, A.Device, A.Ptrs[I], A.Sizes[I], A.name(I));
      D.Marked = true;
    }
    if (D.Addr[I] || A.Sizes[I] <= 0)
      continue;
    if (wrongBuffer(A, I))
      return false;
    D.Held = false;
  }
  return true;
}

/// Step 3: a launch that waits and moves only small ranges can still use
/// the stream, through the argument arena, if its queue is idle. Places
/// the ranges in `Small` and their addresses in `D`.
bool placeInArena(const LaunchArgs &A, Queue &Q, DeviceAddresses &D,
                  SmallCopies &Small) {
  // Reductions' variables: the pointer slot before a scratch literal.
  std::vector<const void *> InPlace;
  for (int32_t J = A.N; J + 1 < A.Total; ++J)
    if (!(A.Types[J] & MapLiteral) && (A.Types[J + 1] & MapLiteral) &&
        isReductionScratch(reinterpret_cast<uint64_t>(A.Ptrs[J + 1])))
      InPlace.push_back(A.Ptrs[J]);
  std::lock_guard<std::mutex> L(Q.Lock);
  return Q.Jobs.empty() && !Q.Running &&
         placeSmall(A.Device, A.N, A.Ptrs, A.Sizes, A.Types, A.Names, D.Partly,
                    InPlace, D.Addr, Small);
}

/// Step 4: the kernel's parameter slots: literals as they are, pointers
/// moved into the device copy of the range that holds them.
void fillParams(Prepared &P, const LaunchArgs &A, const uintptr_t *Addr) {
  P.Params[0] = 0; // the implicit dynamic-memory pointer, unused
  for (int32_t J = A.N; J < A.Total; ++J) {
    uint64_t &Slot = P.Params[1 + J - A.N];
    auto Ptr = reinterpret_cast<uintptr_t>(A.Ptrs[J]);
    if (A.Types[J] & MapLiteral) {
      Slot = Ptr;
      continue;
    }
    Slot = ofld::detail::parameterAddress(Ptr, A.Sizes[J], A.N, A.Ptrs, A.Sizes,
                                          Addr);
  }
}

/// The device address of arena range `R`'s copy.
CUdeviceptr deviceCopy(const SmallCopies &S, const SmallCopies::Range &R) {
  return CUdeviceptr(reinterpret_cast<uintptr_t>(S.Chunk.DeviceBase) +
                     (R.Copy - S.Chunk.Base));
}

/// Queues the copy of arena range `R` (to the device or back) on `Stream`
/// (Q's own or its copy stream), profiled and logged as libomptarget's
/// copies are.
bool queueArenaCopy(Queue &Q, CUstream Stream, const SmallCopies &S,
                    const SmallCopies::Range &R, bool ToDevice,
                    const __ofld_site *Site, const char *How = "") {
  const Driver &Cu = *Q.Gpu->Cu;
  CUdeviceptr Dev = deviceCopy(S, R);
  const char *Arg = R.Name ? R.Name : "";
  profile::StreamSpan Span;
  if (profile::Active)
    Span = profile::beginOnStream(Cu, Q.Gpu->Ctx, Stream, Q.Device, Site, Arg,
                                  ToDevice);
  bool Ok = !(ToDevice ? Cu.MemcpyHtoDAsync(Dev, R.Copy, R.Bytes, Stream)
                       : Cu.MemcpyDtoHAsync(R.Copy, Dev, R.Bytes, Stream));
  if (profile::Active)
    profile::endOnStream(Span, Cu, Q.Gpu->Ctx, Stream, Q.Device, Q.Index, Site,
                         Arg, ToDevice, R.Bytes, nullptr, Ok);
  if (environment().logsCopies())
    logCopy(Q.Device, ToDevice, R, Q.Index, How);
  return Ok;
}

/// OFFLOAD_ARENA_TO=write: range `R` (at most 4 bytes within one aligned
/// word of the chunk) written by a stream memory operation on Q's stream,
/// which needs no copy engine. The word's other bytes are padding of R's
/// own slot (each range starts a new 256-byte slot). False where it does
/// not fit a word or the driver cannot: the caller copies instead.
bool queueArenaWrite(Queue &Q, const SmallCopies &S,
                     const SmallCopies::Range &R) {
  const Driver &Cu = *Q.Gpu->Cu;
  auto Offset = std::size_t(R.Copy - S.Chunk.Base);
  std::size_t Word = Offset & ~std::size_t(3);
  if (!Cu.StreamWriteValue32 || Offset + R.Bytes > Word + 4)
    return false;
  uint32_t Value;
  std::memcpy(&Value, S.Chunk.Base + Word, sizeof(Value));
  CUdeviceptr Dev =
      CUdeviceptr(reinterpret_cast<uintptr_t>(S.Chunk.DeviceBase) + Word);
  if (Cu.StreamWriteValue32(Q.Stream, Dev, Value, /*flags=*/0))
    return false;
  if (environment().logsCopies())
    logCopy(Q.Device, /*ToDevice=*/true, R, Q.Index, " (stream write)");
  return true;
}

/// OFFLOAD_ARENA_TO=stream: Q's copy stream and its event, made on first
/// use (Q.Lock held). False where the driver cannot: the caller copies on
/// Q's stream instead.
bool readyCopyStream(Queue &Q) {
  const Driver &Cu = *Q.Gpu->Cu;
  if (!Cu.StreamWaitEvent)
    return false;
  if (!Q.CopyStream && Cu.StreamCreate(&Q.CopyStream, StreamNonBlocking)) {
    Q.CopyStream = nullptr;
    return false;
  }
  if (!Q.CopyDone && Cu.EventCreate(&Q.CopyDone, EventDisableTiming)) {
    Q.CopyDone = nullptr;
    return false;
  }
  return true;
}

/// Step 5's copies in, in the way OFFLOAD_ARENA_TO chooses: each to-device
/// range's bytes go to its pinned copy now (the value the host has at the
/// call), then to the device copy before the kernel starts on Q's stream.
bool queueArenaIn(Queue &Q, SmallCopies &Small, const __ofld_site *Site) {
  using ArenaTo = Environment::ArenaTo;
  const ArenaTo How = environment().ArenaToDevice;
  const bool OnCopyStream = How == ArenaTo::Stream && readyCopyStream(Q);
  bool Ok = true, Copied = false;
  for (int K = 0; K < Small.Count && Ok; ++K) {
    SmallCopies::Range &R = Small.Ranges[K];
    if (R.Logged && environment().logsCopies())
      std::fprintf(stderr,
                   "offload device %lld info: Using data in place in pinned "
                   "host memory on queue %d through the argument arena, "
                   "HstPtr=%p, Size=%zu, Name=%s\n",
                   (long long)Q.Device, Q.Index, static_cast<void *>(R.Host),
                   R.Bytes, mapName(R.Name).c_str());
    if (!(R.Types & MapTo))
      continue;
    std::memcpy(R.Copy, R.Host, R.Bytes);
    if (R.InPlace)
      continue;
    if (How == ArenaTo::Write && queueArenaWrite(Q, Small, R))
      continue;
    Ok = OnCopyStream
             ? queueArenaCopy(Q, Q.CopyStream, Small, R,
                              /*ToDevice=*/true, Site, " (copy stream)")
             : queueArenaCopy(Q, Q.Stream, Small, R,
                              /*ToDevice=*/true, Site);
    Copied = true;
  }
  // The kernel waits for the copy stream's copies, and only for them.
  if (Ok && OnCopyStream && Copied) {
    const Driver &Cu = *Q.Gpu->Cu;
    Ok = !Cu.EventRecord(Q.CopyDone, Q.CopyStream) &&
         !Cu.StreamWaitEvent(Q.Stream, Q.CopyDone, 0);
  }
  return Ok;
}

/// Step 5, through the arena: copies in, the launch, copies back, one wait,
/// then the bytes back to the host (Q.Lock held). False where nothing ran
/// and nothing failed (no stream, a copy failed): libomptarget's path then
/// runs the launch.
bool launchViaArena(Queue &Q, std::unique_lock<std::mutex> &L,
                    SmallCopies &Small, Prepared &P) {
  bool Ok = readyStream(Q) && queueArenaIn(Q, Small, P.Site);
  bool Launched = Ok && launchOnStream(Q, L, P);
  Ok = Launched;
  for (int K = 0; K < Small.Count && Ok; ++K) {
    const SmallCopies::Range &R = Small.Ranges[K];
    if ((R.Types & MapFrom) && !R.InPlace)
      Ok = queueArenaCopy(Q, Q.Stream, Small, R, /*ToDevice=*/false, P.Site);
  }
  // The launch waits: its results come back, and the chunk is free only
  // once the stream is done with it.
  if (Launched)
    syncStream(Q, L, "a launch that copies data back");
  else if (Q.Stream)
    (void)Q.Gpu->Cu->StreamSynchronize(Q.Stream);
  // A copy stream's copies that no launch waited for still use the chunk.
  if (!Launched && Q.CopyStream)
    (void)Q.Gpu->Cu->StreamSynchronize(Q.CopyStream);
  Ok = Ok && Q.Errors.empty();
  for (int K = 0; K < Small.Count && Ok; ++K)
    if (Small.Ranges[K].Types & MapFrom)
      std::memcpy(Small.Ranges[K].Host, Small.Ranges[K].Copy,
                  Small.Ranges[K].Bytes);
  releaseArgChunk(Small.Chunk);
  return Launched || !Q.Errors.empty();
}

/// The memo of `Site`'s launches on this thread (a few sites share one).
LaunchMemo &memoOf(const __ofld_site *Site) {
  constexpr std::size_t Ways = 8;
  thread_local LaunchMemo Memos[Ways];
  return Memos[(reinterpret_cast<uintptr_t>(Site) >> 4) % Ways];
}

/// Step 5 for a launch whose data is all on the device: on the stream,
/// behind the worker's launches if it has any. Returns 1.
int32_t launchHeld(Queue &Q, Prepared &P) {
  std::vector<std::string> Errors;
  {
    std::unique_lock<std::mutex> L(Q.Lock);
    if (!Q.Jobs.empty() || Q.Running)
      submit(Q, Job{true, P, {}}); // behind the worker's launches
    else if (!launchOnStream(Q, L, P) || environment().LaunchBlocking)
      Errors.swap(Q.Errors);
  }
  reportErrors(std::move(Errors));
  return 1;
}

} // namespace

/// Whether the launch goes on its queue's stream (returns 1: done, or
/// queued) or through libomptarget (0), in five steps: a kernel on this CPU
/// is only checked (1); the ranges' device addresses are found (2); a
/// launch with unheld ranges tries the argument arena (3); the kernel's
/// slots are filled (4); the launch is put on the stream, behind the
/// queue's worker, or through the arena (5).
extern "C" int32_t
__ofld_enqueue(const __ofld_site *Site, const ofld::launch *Shape,
               const void *RegionId, int64_t Device, const uint32_t *Dims,
               int32_t Mode, int32_t N, int32_t Total, void **Ptrs,
               const int64_t *Sizes, const int64_t *Types, const char **Names) {
  const LaunchArgs A{Site, Device, N, Total, Ptrs, Sizes, Types, Names};
  if (Device < 0)
    return checkCpuLaunch(A);
  Queue *Q = queueOf(Device, Shape ? Shape->queue.index_ : 0);
  if (!Q)
    return 0;
  DeviceAddresses D(N);
  GpuDevice *G = gpu(Device);
  Function F = G ? function(*G, RegionId) : Function{};
  // Read before the table is: a change during the look is a miss next time.
  const uint64_t Gen = residencyGeneration();
  LaunchMemo &Memo = memoOf(Site);
  if (F.F) {
    Prepared P(F, Dims, unsigned(1 + Total - N), Site);
    if (Memo.recall(Site, Device, Gen, N, Total, Ptrs, Sizes, Types, D.Addr,
                    P.Params))
      return launchHeld(*Q, P);
  }
  if (!findOnDevice(A, D))
    return 1;
  SmallCopies Small;
  bool ViaArena = F.F && !D.Held && Mode == __ofld_mode_now &&
                  placeInArena(A, *Q, D, Small);
  if (!F.F || (!D.Held && !ViaArena)) {
    // libomptarget's path. A launch that waits first lets its queue finish;
    // one that does not goes to the queue's worker, which does the same.
    if (Mode != __ofld_mode_async)
      reportErrors(drainQueue(*Q, "a launch that waits"));
    return 0;
  }
  Prepared P(F, Dims, unsigned(1 + Total - N), Site);
  fillParams(P, A, D.Addr);
  if (!ViaArena) {
    if (!D.Marked)
      Memo.keep(Site, Device, Gen, N, Total, Ptrs, Sizes, Types, D.Addr,
                P.Params);
    return launchHeld(*Q, P);
  }
  std::vector<std::string> Errors;
  {
    std::unique_lock<std::mutex> L(Q->Lock);
    if (!launchViaArena(*Q, L, Small, P))
      return 0;
    Errors.swap(Q->Errors);
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

extern "C" void __ofld_launch_failed(const __ofld_site *Site, int64_t Device,
                                     int32_t Rc, int32_t N, void **Ptrs,
                                     int64_t *Sizes) {
  // Where the device holds data whose host copy is stale (a launch group,
  // a region, a device_buffer), the CPU cannot take over.
  bool Held = inLaunchGroup();
  for (int32_t I = 0; I < N && !Held; ++I) {
    int64_t BufferDevice;
    Held = residentAddress(Device, Ptrs[I], Sizes[I]) ||
           inDeviceBuffer(Ptrs[I], BufferDevice);
  }
  if (Held)
    fail(Site,
         "launch on device %lld failed (libomptarget returned %d) on "
         "data the device keeps (a region, a launch group or a "
         "device_buffer); the host copies are stale, so it cannot run "
         "on the CPU",
         (long long)Device, Rc);
  else if (offloadPolicy() == Policy::Mandatory)
    fail(Site,
         "launch on device %lld failed (libomptarget returned %d; "
         "LIBOMPTARGET_INFO=-1 shows why)",
         (long long)Device, Rc);
}
