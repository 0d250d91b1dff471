//===- Environment.h - settings from the environment ------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Every environment variable the runtime reads, read in one place and once:
// getenv is a linear scan that launches must not pay, and a setting must not
// change under a running program. The parts of the runtime take what they
// need from environment(); the README and docs/ say what each is for.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_RUNTIME_ENVIRONMENT_H
#define OFFLOAD_RUNTIME_ENVIRONMENT_H

#include "offload/policy/environment.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace ofld::detail {

/// OMP_TARGET_OFFLOAD (offload/policy/environment.hpp).
using Policy = ofld::policy::Offload;

struct Environment {
  /// OMP_TARGET_OFFLOAD (MANDATORY, DISABLED, any case).
  Policy Offload = Policy::Default;
  /// OMP_DEFAULT_DEVICE is set: it names the default device (libomptarget's
  /// number).
  bool OmpDefaultDevice = false;
  /// LIBOMPTARGET_INFO, as libomptarget reads it (0 when unset): 0x10 kernel
  /// launches, 0x20 data transfers, any bit: libomptarget logs.
  long long OmptargetInfo = 0;
  /// Whether the runtime's own launches and copies are logged in
  /// libomptarget's words (launch/Queues.cpp).
  bool logsLaunches() const { return OmptargetInfo & 0x10; }
  bool logsCopies() const { return OmptargetInfo & 0x20; }
  /// OFFLOAD_CUDA_SCHED=blocking: keep libomptarget's blocking-sync CUDA
  /// contexts (Runtime.cpp).
  bool CudaSchedBlocking = false;
  /// OFFLOAD_SMALL_ARGS=0: no argument arena (data/ArgArena.cpp).
  bool SmallArgs = true;
  /// How an arena range reaches the device (launch/Enqueue.cpp),
  /// OFFLOAD_ARENA_TO=copy|stream|write|mapped: a copy on the queue's
  /// stream; a copy on a copy stream at the call, which the queue's stream
  /// waits for; a 4-byte stream memory write for ranges of at most 4 bytes;
  /// or no copy for ranges of at most ArenaMappedMaxBytes, the kernel using
  /// the pinned host bytes in place (both ways). Unset (Auto): in place for
  /// such ranges the kernel may write, a copy for the others.
  enum class ArenaTo { Auto, Copy, Stream, Write, Mapped };
  ArenaTo ArenaToDevice = ArenaTo::Auto;
  /// launch/: OFFLOAD_FAST_LAUNCH=0 turns the stream path off and
  /// OFFLOAD_OVERLAP=0 the overlap of dependent launches (programmatic
  /// stream serialization); OFFLOAD_LAUNCH_BLOCKING and OFFLOAD_LAUNCH_DEBUG
  /// (set and not 0) turn their behaviour on.
  bool FastLaunch = true;
  bool Overlap = true;
  bool LaunchBlocking = false;
  bool LaunchDebug = false;
  /// data/Staging.cpp: OFFLOAD_STAGING=0 turns staging off,
  /// OFFLOAD_STAGING_DEBUG (set and not 0) logs it, OFFLOAD_STAGING_ENGINE=omp
  /// copies through libomptarget.
  bool Staging = true;
  bool StagingDebug = false;
  bool StagingOmpEngine = false;
  /// OFFLOAD_STAGING_MIN, _THREADS, _PIECE and _SLOTS: numbers with an
  /// optional K, M or G suffix; none where unset, empty or malformed.
  std::optional<std::size_t> StagingMin, StagingThreads, StagingPiece,
      StagingSlots;
  /// tools/Watchdog.cpp: OFFLOAD_TIMEOUT, seconds a wait for the device may
  /// go without a launch finishing before it is an error; 0 turns the
  /// watchdog off; none where unset or malformed (then 600 s).
  std::optional<double> Timeout;
  /// tools/Profile.cpp: OFFLOAD_PROFILE set and not 0 prints the table at exit;
  /// a value ending in .json also names the trace file.
  bool ProfileTable = false;
  std::string ProfileTrace;
  /// Device time of launches through libomptarget comes from CUPTI, loaded
  /// when the profile needs it: OFFLOAD_CUPTI=0 keeps it out (those launches
  /// are then host-timed), any other value but 1 names the library; else
  /// the usual names are tried (libcupti.so, .13, .12).
  bool Cupti = true;
  std::string CuptiPath;
  /// NVTX ranges: an NVTX tool is injected (NVTX_INJECTION64_PATH, which
  /// Nsight sets) and OFFLOAD_NVTX is not 0.
  bool NvtxTool = false;
};

/// The settings, read at the first call.
const Environment &environment();

} // namespace ofld::detail

#endif // OFFLOAD_RUNTIME_ENVIRONMENT_H
