//===- tools/Tools.h - the tools part's interface ---------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The tools part's interface: what the runtime tells a user about a run,
// apart from the run itself. Its tools observe launches and copies and
// change none of them.
//
// Profile (Profile.cpp): where the time of a program's launches and copies
// goes, by call site (docs/Profiling.md). OFFLOAD_PROFILE=1 prints a table at
// exit; OFFLOAD_PROFILE=<file>.json also writes a Chrome/Perfetto trace. Under
// Nsight Systems (NVTX_INJECTION64_PATH set) every launch and staged copy is
// an NVTX range "kernel @ file:line".
//
// The hooks in the launch path test `profile::Active`, read once when the
// runtime loads: with neither on, that load and branch is all they cost.
//
// Watchdog (Watchdog.cpp): a wait for the device that lasts names the kernel
// it waits for and its call site; OFFLOAD_TIMEOUT makes it an error.
//
// Device printf (DevicePrintf.cpp): where kernels buffer their printf (AMD
// GPUs, OFFLOAD_BUFFERED_PRINTF), the buffer is printed after launches.
//
// Include order (runtime/CMakeLists.txt): above Runtime.h, cuda/Cuda.h and
// Libomptarget.h; data/ and launch/ call it (behind profile::Active), and
// Interpose.cpp calls its libomptarget hooks. It calls neither.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_TOOLS_TOOLS_H
#define OFFLOAD_RUNTIME_TOOLS_TOOLS_H

#include "Libomptarget.h"
#include "cuda/Cuda.h"
#include "offload/runtime.h"

#include <cstdint>

struct __ofld_place;

namespace ofld::detail::profile {

/// OFFLOAD_PROFILE or NVTX is on: the hooks below have work to do.
extern bool Active;

/// The launch about to go through libomptarget on this thread (set where
/// the launch's shape is decided, and by a queue's worker before it runs a
/// launch that did not wait): __tgt_target_kernel gets only a source
/// location, not the call site's record.
void setSite(const __ofld_site *Site, const void *RegionId);

/// A launch on this CPU (no device): counted, its time is not measured.
void cpuLaunch(const __ofld_site *Site);

/// Work put on a CUDA stream between begin and end: a launch (`Arg` null)
/// or a copy of argument `Arg` (a map name) of the launch at `Site`. Records
/// CUDA events around it on `Stream`; the device time is read when the
/// events have completed (at the latest at exit). A launch is also tagged
/// for CUPTI, whose time of the kernel itself replaces the events' at exit.
struct StreamSpan {
  cuda::CUevent Start = nullptr;
  bool Nvtx = false;
  uint64_t Tag = 0; ///< a launch CUPTI times (cuda/Cupti.cpp)
};
StreamSpan beginOnStream(const cuda::Driver &Cu, cuda::CUcontext Ctx,
                         cuda::CUstream Stream, int64_t Device,
                         const __ofld_site *Site, const char *Arg,
                         bool ToDevice);
/// `Ok`: the work was queued (else only the NVTX range ends). `Dims`: the
/// launch's grid and block, or null for a copy.
void endOnStream(const StreamSpan &Span, const cuda::Driver &Cu,
                 cuda::CUcontext Ctx, cuda::CUstream Stream, int64_t Device,
                 int Queue, const __ofld_site *Site, const char *Arg,
                 bool ToDevice, uint64_t Bytes, const uint32_t *Dims, bool Ok);

/// A synchronous copy timed on the host: a range staged through pinned
/// memory, or mapped by a region or launch group. `Site` may be null (a
/// region); `Place` then names it. `Arg` is the range's map name; where it
/// has none (a region's entries), it is called "entry <Index + 1>".
struct HostSpan {
  uint64_t StartNs = 0;
  bool Nvtx = false;
};
HostSpan beginCopy(const __ofld_site *Site, const __ofld_place *Place,
                   const char *Arg, int32_t Index, bool ToDevice);
void endCopy(const HostSpan &Span, int64_t Device, const __ofld_site *Site,
             const __ofld_place *Place, const char *Arg, int32_t Index,
             bool ToDevice, uint64_t Bytes);

/// Maps (`Begin`) or releases the `N` ranges that `Holder`, a region or
/// launch group, holds, as one __tgt_target_data_{begin,end}_mapper call
/// would, one range at a time so that each copy is timed and named. The
/// release names them as their mapping did (`Site`, `Place`, `Names` are
/// ignored then).
void mapHeld(bool Begin, const void *Holder, const __ofld_site *Site,
             const __ofld_place *Place, int64_t Device, int32_t N, void **Ptrs,
             int64_t *Sizes, int64_t *Types, const char **Names);

/// The program ends: resolves what is pending, prints the table and writes
/// the trace. Runs once; later calls do nothing.
void finish();

/// Whether OFFLOAD_PROFILE or NVTX is on (profile::Active, safe to ask
/// before this file's static initialisers have run).
bool enabled();

/// A launch through libomptarget, profiled: calls `Next` (libomptarget's
/// __tgt_target_kernel) with the same arguments, timing the launch and, with
/// the table on, each copy of its mapped ranges (Profile.cpp says how).
int launch(omptarget::TargetKernelFn Next, void *Loc, int64_t Device,
           int32_t Teams, int32_t Threads, void *HostPtr,
           omptarget::KernelArgs *Args);

} // namespace ofld::detail::profile

namespace ofld::detail {

/// Whether the offload entry `Symbol` is a printf buffer (at `Host`, `Size`
/// bytes); it is then known to the runtime.
bool registerPrintfBuffer(const char *Symbol, void *Host, uint64_t Size);

/// Held around a launch through libomptarget: where the device's printf is
/// buffered, the last launch to finish there prints the buffer.
class PrintfLaunch {
public:
  explicit PrintfLaunch(int64_t Device);
  ~PrintfLaunch();
  PrintfLaunch(const PrintfLaunch &) = delete;
  PrintfLaunch &operator=(const PrintfLaunch &) = delete;

private:
  void *State = nullptr;
  int64_t Device = -1;
};

/// The watchdog (Watchdog.cpp): a wait for the device that lasts is named.
/// A thread that blocks on the device holds a Watch; a watchdog thread
/// (started by the first one) wakes every half second. A wait older than
/// OFFLOAD_TIMEOUT seconds is a named error that ends the program (exit
/// status 1); without OFFLOAD_TIMEOUT it is named once, as a warning, after
/// 60 s; OFFLOAD_TIMEOUT=0 turns it off. A kernel that never finishes then
/// fails with its name and call site instead of hanging.
namespace watchdog {

/// What a wait is for, read by the watchdog when it lasts.
struct Subject {
  const char *Kernel = nullptr; ///< null: not known
  const char *File = nullptr;
  unsigned Line = 0;
  int64_t Device = -1;
  /// Launches waited for (1 for a launch that waits for itself).
  uint32_t InFlight = 1;
  /// A queue's mark word and ring (launch/QueueState.h): where set, the
  /// launch whose first block started last is the one named, if it is one
  /// of the `InFlight` up to `Upto`.
  const uint32_t *Mark = nullptr;
  const __ofld_site *const *Ring = nullptr;
  uint32_t RingSize = 0, Upto = 0;
};

/// Whether waits are watched (OFFLOAD_TIMEOUT is not 0).
bool enabled();

/// Marks the calling thread as waiting for `S` while it lives.
class Watch {
public:
  explicit Watch(const Subject &S);
  ~Watch();
  Watch(const Watch &) = delete;
  Watch &operator=(const Watch &) = delete;

private:
  void *Held = nullptr;
};

/// Remembers the call site of the calling thread's next launch
/// (__ofld_launch_shape calls it): its kernel is named if the launch goes
/// through libomptarget. A queue's worker passes no `RegionId`: its next
/// launch is that site's.
void setLaunchSite(const __ofld_site *Site, const void *RegionId);

/// The subject of a launch through libomptarget: the site set last, if it
/// is this kernel's (`HostPtr`), else the source location in `Loc`
/// (";file;function;line;column;;", no kernel name).
Subject ofLaunch(const void *Loc, int64_t Device, const void *HostPtr);

} // namespace watchdog

} // namespace ofld::detail

#endif // OFFLOAD_RUNTIME_TOOLS_TOOLS_H
