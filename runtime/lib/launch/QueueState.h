//===- launch/QueueState.h - launch/'s shared state -------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The state that the launch part's files share: a device's queues, its CUDA
// context and loaded kernels, and a launch prepared for a stream. Private to
// launch/ (Images.cpp, Queues.cpp, Enqueue.cpp): the part's interface is
// Launch.h. Queues.cpp says how queues keep launches in order.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_LAUNCH_QUEUESTATE_H
#define OFFLOAD_RUNTIME_LAUNCH_QUEUESTATE_H

#include "cuda/Cuda.h"
#include "launch/Launch.h"
#include "offload/runtime.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace ofld::detail::queues {

using namespace ofld::detail::cuda;

constexpr int QueuesPerDevice = 16;
/// Launches remembered per queue for naming a failure.
constexpr uint32_t RingSize = 4096;

struct Function {
  CUfunction F = nullptr;
  uint64_t MaxThreads = 0;
  /// Bytes of static shared memory: the dynamic may have the rest.
  uint64_t StaticShared = 0;
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
  /// Shared memory of a block: what any kernel may use, what one that opts
  /// in may (cuFuncSetAttribute).
  uint64_t MaxShared = 0, MaxSharedOptin = 0;
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
  /// The kernel's argument slots: inline for every launch but the largest
  /// (a struct of 20 spans takes 66: its 40 words, 20 pointers, 6 more).
  static constexpr unsigned Inline = 80;
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
  const __ofld_site *Site; ///< for the profiler (tools/Tools.h)
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
  /// OFFLOAD_ARENA_TO=stream: the stream that copies arena ranges in at the
  /// call, and the event Stream waits for before the launch (Enqueue.cpp).
  CUstream CopyStream = nullptr;
  CUevent CopyDone = nullptr;
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

/// The program's kernels as registration found them (Images.cpp writes,
/// Queues.cpp loads them).
struct Registry {
  std::mutex Lock;
  /// CUDA images (cubins), in registration order.
  std::vector<std::pair<const char *, std::size_t>> Cubins;
  /// Region id -> device kernel name.
  std::unordered_map<const void *, const char *> Kernels;
  /// Some image has entries the fast path cannot share (device globals).
  bool Unsupported = false;
};
Registry &registry();

/// Per libomptarget device; null for a number that names none.
DeviceState *deviceState(int64_t Device);

/// The CUDA state of `Device`, or null if launches there cannot go to a
/// stream directly (no CUDA device, fast path off, an earlier failure).
GpuDevice *gpu(int64_t Device);

/// The kernel of region id `RegionId` on `G` (cached per thread); F is null
/// where the image is not the runtime's to load.
Function function(GpuDevice &G, const void *RegionId);

/// Waits for the launches on Q's stream; a failure goes to Q.Errors. Called
/// with Q.Lock held (released while waiting).
void syncStream(Queue &Q, std::unique_lock<std::mutex> &L, const char *What);

/// Makes the device's context current and Q's stream exist (Q.Lock held).
bool readyStream(Queue &Q);

/// Puts one launch on Q's stream (Q.Lock held). Returns false after
/// reporting to Q.Errors.
bool launchOnStream(Queue &Q, std::unique_lock<std::mutex> &L, Prepared &P);

/// Reports Q's errors collected so far (outside Q.Lock).
void reportErrors(std::vector<std::string> Errors);

/// Adds a job to Q's worker, starting it on first use (Q.Lock held).
void submit(Queue &Q, Job J);

/// Waits until Q's worker has nothing left (unless this is the worker) and
/// its stream is idle; returns the errors found. `What`: for messages.
std::vector<std::string> drainQueue(Queue &Q, const char *What);

/// Queue `Index` of `Device` (its default queue for an index out of range),
/// or null where `Device` names no device.
Queue *queueOf(int64_t Device, int32_t Index);

} // namespace ofld::detail::queues

#endif // OFFLOAD_RUNTIME_LAUNCH_QUEUESTATE_H
