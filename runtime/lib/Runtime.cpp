//===- Runtime.cpp - errors, device numbering and device choice -----------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The decisions that every part of the runtime shares (Runtime.h): which
// device runs a launch (or this CPU), called first by the code the plugin's
// host lowering emits, and what a failure means. Every message names the
// kernel and the call site. The launch itself is launch/'s
// (__ofld_launch_shape, __ofld_enqueue), its data data/'s.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"
#include "Libomptarget.h"
#include "cuda/Cuda.h"
#include "offload/offload.hpp"
#include "offload/policy/devices.hpp"
#include "offload/policy/errors.hpp"
#include "offload/runtime.h"

#include <omp.h>

#include <dlfcn.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <strings.h>
#include <vector>

namespace {
std::atomic<ofld::error_handler> Handler{nullptr};
} // namespace

using namespace ofld::detail;

/// The device count does not change during a run; libomptarget takes a lock
/// to answer, so ask once. A program built with -fopenmp but no offload
/// target registers no image, and libomptarget 22 crashes answering before
/// one is: hold the runtime around the question (its own count is kept).
int ofld::detail::numDevices() {
  static const int N = [] {
    __tgt_rtl_init();
    int Count = omp_get_num_devices();
    __tgt_rtl_deinit();
    return Count;
  }();
  return N;
}

thread_local unsigned ofld::detail::Failures = 0;

void ofld::detail::fail(const __ofld_site *Site, const char *Format, ...) {
  ++Failures;
  char Cause[512];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Cause, sizeof(Cause), Format, Args);
  va_end(Args);
  char Message[1024];
  // ofld::region has no launch site.
  ofld::policy::formatSiteMessage(
      Message, sizeof(Message), Site ? Site->kernel : nullptr,
      Site ? Site->file : nullptr, Site ? Site->line : 0, Cause);
  reportError(Message);
}

thread_local std::vector<std::string> *ofld::detail::DeferredErrors = nullptr;

void ofld::detail::failAt(const __ofld_place *Place, const char *What,
                          const char *Format, ...) {
  char Cause[512];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Cause, sizeof(Cause), Format, Args);
  va_end(Args);
  char Message[1024];
  ofld::policy::formatPlaceMessage(Message, sizeof(Message), What,
                                   Place ? Place->file : nullptr,
                                   Place ? Place->line : 0, Cause);
  reportError(Message);
}

void ofld::detail::reportError(const char *Message) {
  // A launch that did not wait reports at the next point that waits.
  if (DeferredErrors) {
    DeferredErrors->push_back(Message);
    return;
  }
  ofld::policy::deliver(Handler.load(), Message);
}

ofld::error_handler ofld::set_error_handler(error_handler H) {
  return Handler.exchange(H);
}

extern "C" void __ofld_report_error(const char *Message) {
  reportError(Message);
}

//===----------------------------------------------------------------------===//
// Device selection
//===----------------------------------------------------------------------===//
//
// libomptarget numbers the devices of all its plugins in one sequence, in the
// order in which the program's images find them: a binary with images for
// the host target and for sm_90 may see the host target's devices as 0-3 and
// the GPU as 4. offload numbers only the devices of the preferred kind, GPUs
// when there is one, else the host target's devices: ofld::device_count()
// counts them, ofld::launch{.device = n} and ofld::set_default_device(n) name
// the n-th of them, and a launch that names none runs on the first one.
// OMP_DEFAULT_DEVICE, where set, is libomptarget's number (OpenMP's meaning)
// and picks any device, the host target's too. Binaries for one kind of
// target see the same numbers either way.

/// libomptarget device UIDs are "<plugin>-<n>", and host plugins are named
/// after the CPU.
bool ofld::detail::isHostTargetDevice(int D) {
  return ofld::policy::isHostTargetUid(omp_get_uid_from_device(D));
}

int ofld::detail::cudaOrdinal(int Device) {
  static const std::unique_ptr<std::atomic<int>[]> Known = [] {
    std::unique_ptr<std::atomic<int>[]> K(
        new std::atomic<int>[std::max(numDevices(), 1)]);
    for (int I = 0; I < std::max(numDevices(), 1); ++I)
      K[I] = -2; // not asked yet
    return K;
  }();
  if (Device < 0 || Device >= numDevices())
    return -1;
  int Ordinal = Known[Device].load(std::memory_order_acquire);
  if (Ordinal != -2)
    return Ordinal;
  // Allocate a byte there and ask the driver what it is: libomptarget's
  // numbering across plugins (host-target devices may come first) does not
  // matter then.
  Ordinal = -1;
  const cuda::Driver *Cu = cuda::driver();
  if (Cu && !isHostTargetDevice(Device))
    if (void *Probe = omp_target_alloc(1, Device)) {
      if (!Cu->deviceOrdinal(Probe, Ordinal))
        Ordinal = -1;
      omp_target_free(Probe, Device);
    }
  Known[Device].store(Ordinal, std::memory_order_release);
  return Ordinal;
}

namespace {
/// The libomptarget numbers of the devices offload uses, in order; found
/// once (the devices do not change during a run).
const std::vector<int> &preferredDevices() {
  static const std::vector<int> Preferred =
      ofld::policy::preferredDevices(numDevices(), isHostTargetDevice);
  return Preferred;
}

int preferredCount() { return int(preferredDevices().size()); }

/// The device set by ofld::set_default_device (offload's number), or -1.
std::atomic<int> UserDefault{-1};
std::atomic<bool> UserDefaultSet{false};

/// OMP_DEFAULT_DEVICE, when the environment sets it: libomptarget's number.
bool ompDefaultFromEnv() { return environment().OmpDefaultDevice; }

/// What device selection knows of this machine (offload/policy/devices.hpp).
ofld::policy::DeviceFacts deviceFacts() {
  return {preferredDevices().data(), preferredCount(), numDevices()};
}

/// How the program and the environment chose the default device.
ofld::policy::DefaultSetting defaultSetting() {
  ofld::policy::DefaultSetting S;
  if (UserDefaultSet.load(std::memory_order_acquire))
    S.Program = UserDefault.load(std::memory_order_relaxed);
  S.FromEnvironment = ompDefaultFromEnv();
  if (S.FromEnvironment)
    S.EnvironmentDevice = omp_get_default_device();
  return S;
}

} // namespace

DefaultDevice ofld::detail::defaultDevice() {
  return ofld::policy::defaultDevice(deviceFacts(), defaultSetting());
}

int64_t ofld::detail::dataDevice(int Requested, const __ofld_place *Place,
                                 const char *What) {
  ofld::policy::Selection S = ofld::policy::dataDevice(
      deviceFacts(), defaultSetting(), offloadPolicy(), Requested);
  if (S.Failed)
    failAt(Place, What, "%s", S.Cause);
  deviceInUse(S.Device);
  return S.Device;
}

namespace {
std::atomic<DeviceWarmUp> WarmUp{nullptr};
} // namespace

void ofld::detail::setDeviceWarmUp(DeviceWarmUp W) { WarmUp.store(W); }

void ofld::detail::deviceInUse(int64_t Device) {
  static std::atomic<bool> *Warm =
      new std::atomic<bool>[std::max(numDevices(), 1)]();
  if (Device < 0 || Device >= numDevices() ||
      Warm[Device].load(std::memory_order_acquire))
    return;
  static std::mutex Lock;
  std::lock_guard<std::mutex> G(Lock);
  if (Warm[Device].load(std::memory_order_relaxed))
    return;
  if (DeviceWarmUp W = WarmUp.load(std::memory_order_acquire))
    W(Device);
  Warm[Device].store(true, std::memory_order_release);
}

int ofld::device_count() { return preferredCount(); }

void ofld::set_default_device(int Device) {
  // -1 goes back to the automatic choice. Other numbers are checked at the
  // next launch, which can name the kernel and call site.
  UserDefault.store(Device, std::memory_order_relaxed);
  UserDefaultSet.store(Device != -1, std::memory_order_release);
}

extern "C" int64_t __ofld_select_device(const __ofld_site *Site,
                                        const ofld::launch *Shape) {
  // Everything runs here under OMP_TARGET_OFFLOAD=DISABLED, and a launch
  // runs on its queue's device (offload/policy/devices.hpp).
  ofld::policy::Selection S = ofld::policy::selectLaunchDevice(
      deviceFacts(), defaultSetting(), offloadPolicy(),
      Shape ? Shape->device : -1, Shape ? Shape->queue.device() : -1);
  if (S.Failed)
    fail(Site, "%s", S.Cause);
  deviceInUse(S.Device);
  return S.Device;
}

std::string ofld::detail::mapName(const char *Name) {
  if (!Name || *Name != ';')
    return "argument";
  const char *End = std::strchr(Name + 1, ';');
  return End ? std::string(Name + 1, End) : std::string(Name + 1);
}

//===----------------------------------------------------------------------===//
// CUDA context scheduling
//===----------------------------------------------------------------------===//

// libomptarget's CUDA plugin gives an inactive primary context the flag
// CU_CTX_SCHED_BLOCKING_SYNC, so every synchronisation puts the host thread
// to sleep and wakes it by interrupt: several microseconds per launch that
// CUDA programs (CU_CTX_SCHED_AUTO) do not pay. It keeps the flags of a
// context that is already active, so activate each primary context with
// CUDA's default first. OFFLOAD_CUDA_SCHED=blocking keeps libomptarget's
// choice. No driver (no GPU): nothing to do.
namespace {
void activateCudaContexts() {
  if (environment().CudaSchedBlocking || offloadPolicy() == Policy::Disabled)
    return;
  using namespace ofld::detail::cuda;
  const Driver *Cu = driver();
  int N = 0;
  if (!Cu || Cu->DeviceGetCount(&N))
    return;
  for (int I = 0; I < N; ++I) {
    CUdevice Dev;
    unsigned Flags;
    int Active;
    CUcontext Ctx;
    if (Cu->DeviceGet(&Dev, I) ||
        Cu->PrimaryCtxGetState(Dev, &Flags, &Active) || Active)
      continue;
    if (!Cu->PrimaryCtxSetFlags(Dev, SchedAuto))
      (void)Cu->PrimaryCtxRetain(&Ctx, Dev); // active for the process's life
  }
}

/// Runs before the program registers its offload images (libraries are
/// initialised before the executable's constructors).
[[gnu::constructor]] void initRuntime() { activateCudaContexts(); }
} // namespace
