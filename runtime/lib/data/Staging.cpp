//===- data/Staging.cpp - big copies through pinned memory ----------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The device side of the staging pipeline (StagingPipeline.h): which devices
// stage, and the copy engines that move pieces between pinned slots and the
// device.
//
// CUDA devices use the driver directly (cuda/Cuda.h): one stream per worker
// and one event per slot, in the primary context that libomptarget's CUDA
// plugin uses too. The CUDA ordinal of an OpenMP device is read off a pointer
// the device allocated (cuPointerGetAttribute), so libomptarget's numbering
// across plugins (host target devices may come first) does not matter. The
// OpenMP engine (llvm_omp_target_alloc_host + omp_target_memcpy, any plugin) is
// about 10% slower on an H200, each piece's copy being synchronous; it is used
// only where OFFLOAD_STAGING_ENGINE=omp asks for it, on every device
// (host-target devices too, which lets CI run this file). Otherwise
// host-target devices never stage: their "device" memory is host memory.
//
// Environment (read once):
//   OFFLOAD_STAGING=0             no staging
//   OFFLOAD_STAGING_MIN=<bytes>   smallest staged mapping (K/M/G suffixes)
//   OFFLOAD_STAGING_THREADS=<n>   copy workers, the calling thread included
//   OFFLOAD_STAGING_PIECE=<bytes> largest piece; OFFLOAD_STAGING_SLOTS=<n>
//   OFFLOAD_STAGING_ENGINE=omp    the OpenMP engine on every device
//   OFFLOAD_STAGING_DEBUG=1       says per device what it decided
//
//===----------------------------------------------------------------------===//

#include "data/Data.h"

#include "Libomptarget.h"
#include "cuda/Cuda.h"
#include "data/StagingPipeline.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

using namespace ofld::detail;
using namespace ofld::detail::staging;

namespace {

constexpr std::size_t KiB = 1024, MiB = 1024 * KiB;

//===----------------------------------------------------------------------===//
// Settings
//===----------------------------------------------------------------------===//

struct Settings {
  bool Enabled = true;
  bool Debug = false;
  bool OmpEngine = false;
  /// LIBOMPTARGET_INFO asks for data transfers (OMP_INFOTYPE_DATA_TRANSFER):
  /// staged copies bypass libomptarget, so they are logged here, alike.
  bool LogTransfers = false;
  /// 0: the engine's default.
  std::size_t Min = 0;
  Config Pipe;
};

const Settings &settings() {
  static const Settings S = [] {
    Settings S;
    const Environment &E = environment();
    S.Enabled = E.Staging;
    S.Debug = E.StagingDebug;
    S.OmpEngine = E.StagingOmpEngine;
    S.Min = E.StagingMin.value_or(0);
    S.LogTransfers = E.logsCopies();
    // One memcpy thread moves about 13 GB/s, the pinned DMA rate is 55:
    // on an H200 host 6 workers reach 49 GB/s at 256 MiB, as 8, 12 or 16
    // do, and 4 reach as much only on single copies (bench/staging). Leave
    // at least half of the cores to the program.
    unsigned Cores = std::max(1u, std::thread::hardware_concurrency());
    S.Pipe.Workers =
        unsigned(E.StagingThreads.value_or(std::clamp(Cores / 2, 1u, 6u)));
    S.Pipe.Workers = std::clamp(S.Pipe.Workers, 1u, 64u);
    S.Pipe.Piece = std::clamp<std::size_t>(E.StagingPiece.value_or(4 * MiB),
                                           64 * KiB, 256 * MiB);
    S.Pipe.Slots = unsigned(std::clamp<std::size_t>(E.StagingSlots.value_or(2),
                                                    1, Pipeline::MaxSlots));
    return S;
  }();
  return S;
}

//===----------------------------------------------------------------------===//
// The CUDA driver (cuda/Cuda.h)
//===----------------------------------------------------------------------===//

using namespace ofld::detail::cuda;

/// Copies on one stream per worker, in the device's primary context.
class CudaEngine final : public CopyEngine {
public:
  CudaEngine(const Driver &Api, CUcontext Ctx) : Cu(Api), Ctx(Ctx) {}

  ~CudaEngine() override {
    CUcontext Saved = nullptr;
    Cu.CtxGetCurrent(&Saved);
    Cu.CtxSetCurrent(Ctx);
    for (CUevent E : Events)
      if (E)
        Cu.EventDestroy(E);
    for (CUstream S : Streams)
      if (S)
        Cu.StreamDestroy(S);
    Cu.CtxSetCurrent(Saved);
  }

  void *allocPinned(std::size_t Bytes) override {
    void *P = nullptr;
    CUcontext Saved = nullptr;
    Cu.CtxGetCurrent(&Saved);
    Cu.CtxSetCurrent(Ctx);
    // Portable: valid whichever context a later caller has current.
    if (Cu.MemHostAlloc(&P, Bytes, HostAllocPortable))
      P = nullptr;
    Cu.CtxSetCurrent(Saved);
    return P;
  }
  void freePinned(void *P) override { Cu.MemFreeHost(P); }

  int createQueues(unsigned Queues, unsigned SlotsPerQueue) override {
    Slots = SlotsPerQueue;
    Streams.assign(Queues, nullptr);
    Events.assign(std::size_t(Queues) * Slots, nullptr);
    Saved.assign(Queues, nullptr);
    CUcontext Prev = nullptr;
    Cu.CtxGetCurrent(&Prev);
    CUresult R = Cu.CtxSetCurrent(Ctx);
    for (CUstream &S : Streams)
      if (!R)
        R = Cu.StreamCreate(&S, StreamNonBlocking);
    for (CUevent &E : Events)
      if (!R)
        R = Cu.EventCreate(&E, EventDisableTiming);
    Cu.CtxSetCurrent(Prev);
    return R;
  }

  // The caller's thread is worker 0: give it back the context it had.
  int enter(unsigned Q) override {
    if (CUresult R = Cu.CtxGetCurrent(&Saved[Q]))
      return R;
    return Saved[Q] == Ctx ? 0 : Cu.CtxSetCurrent(Ctx);
  }
  void leave(unsigned Q) override {
    if (Saved[Q] != Ctx)
      Cu.CtxSetCurrent(Saved[Q]);
  }

  int toDevice(unsigned Q, char *Dev, const char *Pinned,
               std::size_t N) override {
    return Cu.MemcpyHtoDAsync(devicePtr(Dev), Pinned, N, Streams[Q]);
  }
  int fromDevice(unsigned Q, char *Pinned, const char *Dev,
                 std::size_t N) override {
    return Cu.MemcpyDtoHAsync(Pinned, devicePtr(Dev), N, Streams[Q]);
  }
  int mark(unsigned Q, unsigned S) override {
    return Cu.EventRecord(Events[Q * Slots + S], Streams[Q]);
  }
  int wait(unsigned Q, unsigned S) override {
    return Cu.EventSynchronize(Events[Q * Slots + S]);
  }
  int drain(unsigned Q) override { return Cu.StreamSynchronize(Streams[Q]); }
  const char *describe(int Status) override {
    const char *S = nullptr;
    if (Cu.GetErrorString(Status, &S) || !S)
      return "unknown CUDA error";
    return S;
  }

private:
  static CUdeviceptr devicePtr(const char *P) {
    return CUdeviceptr(reinterpret_cast<std::uintptr_t>(P));
  }

  const Driver &Cu;
  CUcontext Ctx;
  unsigned Slots = 0;
  std::vector<CUstream> Streams;
  std::vector<CUevent> Events;
  std::vector<CUcontext> Saved;
};

/// Synchronous copies through libomptarget, pinned memory from its plugin:
/// any device, but a worker's memcpy overlaps only other workers' DMAs.
class OmpEngine final : public CopyEngine {
public:
  explicit OmpEngine(int Device) : Device(Device) {}

  void *allocPinned(std::size_t Bytes) override {
    return llvm_omp_target_alloc_host(Bytes, Device);
  }
  void freePinned(void *P) override { llvm_omp_target_free_host(P, Device); }
  int createQueues(unsigned, unsigned) override { return 0; }
  int toDevice(unsigned, char *Dev, const char *Pinned,
               std::size_t N) override {
    return omp_target_memcpy(Dev, Pinned, N, 0, 0, Device,
                             omp_get_initial_device())
               ? 1
               : 0;
  }
  int fromDevice(unsigned, char *Pinned, const char *Dev,
                 std::size_t N) override {
    return omp_target_memcpy(Pinned, Dev, N, 0, 0, omp_get_initial_device(),
                             Device)
               ? 1
               : 0;
  }
  int mark(unsigned, unsigned) override { return 0; }
  int wait(unsigned, unsigned) override { return 0; }
  int drain(unsigned) override { return 0; }
  const char *describe(int) override { return "omp_target_memcpy failed"; }

private:
  int Device;
};

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

enum class EngineKind { None, Cuda, Omp };

struct DeviceState {
  std::once_flag Classified;
  EngineKind Kind = EngineKind::None;
  int CudaOrdinal = -1;
  /// 0 while staging is off here; cleared if the pipeline cannot be set up.
  std::atomic<std::size_t> Threshold{0};

  std::mutex SetupLock;
  bool SetupTried = false;
  std::atomic<Pipeline *> Pipe{nullptr};
  std::unique_ptr<CopyEngine> Engine;
};

/// Per OpenMP device; never freed: worker threads and pinned memory live
/// until the process exits, and tearing them down in a static destructor
/// would race libomptarget's own shutdown.
DeviceState *deviceState(int Device) {
  static DeviceState *States = new DeviceState[std::max(numDevices(), 1)];
  return Device >= 0 && Device < numDevices() ? &States[Device] : nullptr;
}

void classify(int Device, DeviceState &D) {
  const Settings &S = settings();
  const char *Why = nullptr;
  if (!S.Enabled)
    Why = "OFFLOAD_STAGING=0";
  else if (S.OmpEngine)
    D.Kind = EngineKind::Omp;
  else if (isHostTargetDevice(Device))
    Why = "host offload target";
  else if ((D.CudaOrdinal = cudaOrdinal(Device)) >= 0)
    D.Kind = EngineKind::Cuda;
  else
    Why = "not a CUDA device (OFFLOAD_STAGING_ENGINE=omp stages anyway)";
  // Measured on an H200 (bench/staging): staging breaks even with the
  // pageable copy at 512 KiB and wins by 20-50% at 1-2 MiB, 40-55% at
  // 4 MiB, 2.5x at 256 MiB. From 2 MiB on, the gain is clear in both
  // directions and the workers' CPU time is well spent.
  if (D.Kind != EngineKind::None)
    D.Threshold = S.Min ? S.Min : 2 * MiB;
  if (S.Debug) {
    if (Why)
      std::fprintf(stderr, "offload: staging: device %d: off (%s)\n", Device,
                   Why);
    else
      std::fprintf(stderr,
                   "offload: staging: device %d: %s engine (CUDA ordinal "
                   "%d), from %zu bytes, %u workers x %u slots x %zu KiB\n",
                   Device, D.Kind == EngineKind::Cuda ? "CUDA" : "OpenMP",
                   D.CudaOrdinal, D.Threshold.load(), S.Pipe.Workers,
                   S.Pipe.Slots, S.Pipe.Piece / KiB);
  }
}

/// The device's state, classified, if it stages at all.
DeviceState *stagingDevice(int Device) {
  DeviceState *D = deviceState(Device);
  if (!D)
    return nullptr;
  std::call_once(D->Classified, classify, Device, *D);
  return D->Threshold.load(std::memory_order_relaxed) ? D : nullptr;
}

/// The device's pipeline, set up on first use; null if it cannot be (then
/// staging stays off on the device).
Pipeline *pipeline(int Device, DeviceState &D) {
  if (Pipeline *P = D.Pipe.load(std::memory_order_acquire))
    return P;
  std::lock_guard<std::mutex> G(D.SetupLock);
  if (D.SetupTried)
    return D.Pipe.load(std::memory_order_relaxed);
  D.SetupTried = true;
  if (D.Kind == EngineKind::Cuda) {
    const Driver &Cu = *driver();
    CUdevice Dev;
    CUcontext Ctx;
    if (!Cu.DeviceGet(&Dev, D.CudaOrdinal) && !Cu.PrimaryCtxRetain(&Ctx, Dev))
      D.Engine.reset(new CudaEngine(Cu, Ctx));
  } else {
    D.Engine.reset(new OmpEngine(Device));
  }
  std::unique_ptr<Pipeline> P;
  if (D.Engine) {
    P.reset(new (std::nothrow) Pipeline(*D.Engine, settings().Pipe));
    if (P && !P->init())
      P.reset();
  }
  if (!P) {
    D.Threshold = 0;
    if (settings().Debug)
      std::fprintf(stderr,
                   "offload: staging: device %d: off (no pinned buffers, "
                   "queues or threads)\n",
                   Device);
    return nullptr;
  }
  D.Pipe.store(P.release(), std::memory_order_release);
  return D.Pipe.load(std::memory_order_relaxed);
}

bool stage(Direction Dir, int Device, char *DevPtr, char *Host,
           std::size_t Bytes) {
  DeviceState *D = stagingDevice(Device);
  if (!D)
    return false;
  if (!Bytes)
    return true;
  // The pointer must be this device's memory (not, say, host memory that a
  // unified-memory mapping handed back).
  if (D->Kind == EngineKind::Cuda) {
    int Ordinal;
    if (!driver()->deviceOrdinal(DevPtr, Ordinal) || Ordinal != D->CudaOrdinal)
      return false;
  }
  Pipeline *P = pipeline(Device, *D);
  if (!P)
    return false;
  Result R = P->copy(Dir, DevPtr, Host, Bytes);
  if (!R.Status) {
    if (settings().LogTransfers)
      std::fprintf(
          stderr,
          "offload device %d info: Copying data from %s through "
          "pinned staging, HstPtr=%p, TgtPtr=%p, Size=%zu\n",
          Device,
          Dir == Direction::ToDevice ? "host to device" : "device to host",
          static_cast<void *>(Host), static_cast<void *>(DevPtr), Bytes);
    return true;
  }
  // Nothing moved yet: the caller copies through libomptarget, which
  // reports the error if there is one for it too. Part of the bytes moved:
  // say so rather than leave the caller to assume nothing happened.
  if (R.Touched) {
    char Message[512];
    std::snprintf(Message, sizeof(Message),
                  "offload: copying %zu bytes %s device %d through pinned "
                  "memory failed part way: %s",
                  Bytes, Dir == Direction::ToDevice ? "to" : "from", Device,
                  D->Engine->describe(R.Status));
    reportError(Message);
  }
  return false;
}

} // namespace

std::size_t ofld::detail::stagingThreshold(int Device) {
  DeviceState *D = stagingDevice(Device);
  return D ? D->Threshold.load(std::memory_order_relaxed) : 0;
}

bool ofld::detail::stageToDevice(int Device, void *DevPtr, const void *Host,
                                 std::size_t Bytes) {
  return stage(Direction::ToDevice, Device, static_cast<char *>(DevPtr),
               const_cast<char *>(static_cast<const char *>(Host)), Bytes);
}

bool ofld::detail::stageFromDevice(int Device, void *Host, const void *DevPtr,
                                   std::size_t Bytes) {
  return stage(Direction::FromDevice, Device,
               const_cast<char *>(static_cast<const char *>(DevPtr)),
               static_cast<char *>(Host), Bytes);
}
