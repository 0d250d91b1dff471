//===- Interpose.cpp - libomptarget's entry points the runtime sees first -===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The runtime needs to see three of libomptarget's calls, which offers no
// hook for them: image registration (the kernels the runtime launches on
// its own streams, the printf buffers), the end of the program (queued
// launches finish and report before libomptarget tears down), and launches
// through libomptarget (profiled, or followed by printing the device's
// printf buffer). Programs link libofld_rt before libomptarget, so these
// definitions come first; each does its part's work and calls the next
// definition (dlsym RTLD_NEXT). This is the only file that interposes, and
// the top of the include order (runtime/CMakeLists.txt): it calls the
// parts, none calls it.
//
// The launch path when profiling is off, no image has a printf buffer and
// the watchdog is off (OFFLOAD_TIMEOUT=0): __tgt_target_kernel loads one
// flag word (LaunchHooks), finds it zero and calls libomptarget's. With the
// watchdog on (the default) it also holds a watchdog::Watch: a clock read
// and an uncontended lock.
//
//===----------------------------------------------------------------------===//

#include "Libomptarget.h"
#include "launch/Launch.h"
#include "tools/Tools.h"

#include <dlfcn.h>

#include <atomic>
#include <optional>

using namespace ofld::detail;
using namespace ofld::detail::omptarget;

namespace {

/// What a launch through libomptarget does besides launching. Unresolved
/// until the runtime's constructor has found libomptarget's definition
/// (a library initialised before the runtime may launch): the slow path
/// finds it then.
enum LaunchHook : unsigned {
  Unresolved = 1,
  Profile = 2,
  Printf = 4,
  Watched = 8
};
std::atomic<unsigned> LaunchHooks{Unresolved};
TargetKernelFn NextTargetKernel = nullptr;

template <typename Fn> Fn nextDefinition(const char *Name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Name));
}

TargetKernelFn nextTargetKernel() {
  static const auto Next =
      nextDefinition<TargetKernelFn>("__tgt_target_kernel");
  return Next;
}

[[gnu::constructor]] void resolveTargetKernel() {
  NextTargetKernel = nextTargetKernel();
  if (profile::enabled())
    LaunchHooks.fetch_or(Profile);
  if (watchdog::enabled())
    LaunchHooks.fetch_or(Watched);
  LaunchHooks.fetch_and(~unsigned(Unresolved), std::memory_order_release);
}

/// A launch with hooks: the watchdog names it if it lasts, the device's
/// printf buffer is printed after it (PrintfLaunch), and the profiler times
/// it.
int hookedLaunch(unsigned Hooks, void *Loc, int64_t Device, int32_t Teams,
                 int32_t Threads, void *HostPtr, KernelArgs *Args) {
  TargetKernelFn Next = nextTargetKernel();
  std::optional<watchdog::Watch> Watch;
  if (Hooks & (Watched | Unresolved) && watchdog::enabled())
    Watch.emplace(watchdog::ofLaunch(Loc, Device, HostPtr));
  std::optional<PrintfLaunch> Print;
  if (Hooks & (Printf | Unresolved))
    Print.emplace(Device);
  if (!profile::Active)
    return Next(Loc, Device, Teams, Threads, HostPtr, Args);
  return profile::launch(Next, Loc, Device, Teams, Threads, HostPtr, Args);
}

using RegisterFn = void (*)(BinDesc *);

} // namespace

extern "C" void __tgt_register_lib(BinDesc *Desc) {
  static const auto Next = nextDefinition<RegisterFn>("__tgt_register_lib");
  if (registerImages(Desc))
    LaunchHooks.fetch_or(Printf);
  if (Next)
    Next(Desc);
}

extern "C" void __tgt_unregister_lib(BinDesc *Desc) {
  static const auto Next = nextDefinition<RegisterFn>("__tgt_unregister_lib");
  finishLaunches();
  // Every launch has finished: the profile is complete.
  if (profile::Active)
    profile::finish();
  if (Next)
    Next(Desc);
}

extern "C" int __tgt_target_kernel(void *Loc, int64_t Device, int32_t Teams,
                                   int32_t Threads, void *HostPtr,
                                   KernelArgs *Args) {
  unsigned Hooks = LaunchHooks.load(std::memory_order_acquire);
  if (!Hooks)
    return NextTargetKernel(Loc, Device, Teams, Threads, HostPtr, Args);
  return hookedLaunch(Hooks, Loc, Device, Teams, Threads, HostPtr, Args);
}
