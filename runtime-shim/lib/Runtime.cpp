//===- Runtime.cpp - host side of the offload launch sequence -------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// The decisions of a launch that depend on the running machine, called from
// the code the plugin's host lowering emits: the launch shape, which device
// runs the kernel (or this CPU), and what a failure means. Every message names
// the kernel and the call site.
//
//===----------------------------------------------------------------------===//

#include "offload/offload.hpp"
#include "offload/runtime.h"
#include "RuntimeInternal.h"

#include <omp.h>

#include <dlfcn.h>

#include <atomic>
#include <memory>
#include <string>
#include <mutex>
#include <new>
#include <thread>
#include <vector>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>

namespace {
std::atomic<ofld::error_handler> Handler{nullptr};
std::uint32_t orOne(std::uint32_t V) { return V ? V : 1; }
} // namespace

using namespace ofld::detail;

/// Read once: every launch asks, and getenv is a linear scan.
Policy ofld::detail::offloadPolicy() {
  static const Policy P = [] {
    const char *Env = std::getenv("OMP_TARGET_OFFLOAD");
    if (Env && !strcasecmp(Env, "MANDATORY"))
      return Policy::Mandatory;
    if (Env && !strcasecmp(Env, "DISABLED"))
      return Policy::Disabled;
    return Policy::Default;
  }();
  return P;
}

// libomptarget's reference-counted start and stop.
extern "C" void __tgt_rtl_init();
extern "C" void __tgt_rtl_deinit();

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

void ofld::detail::fail(const __ofld_site *Site, const char *Format, ...) {
  char Cause[512];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Cause, sizeof(Cause), Format, Args);
  va_end(Args);
  char Message[1024];
  if (Site)
    std::snprintf(Message, sizeof(Message), "offload: kernel '%s' at %s:%u: %s",
                  Site->kernel, Site->file, Site->line, Cause);
  else // ofld::region, which has no launch site
    std::snprintf(Message, sizeof(Message), "offload: ofld::region: %s", Cause);
  reportError(Message);
}

void ofld::detail::reportError(const char *Message) {
  if (ofld::error_handler H = Handler.load()) {
    H(Message);
    return;
  }
  std::fprintf(stderr, "%s\n", Message);
  std::exit(EXIT_FAILURE);
}

ofld::error_handler ofld::set_error_handler(error_handler H) {
  return Handler.exchange(H);
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

namespace {
/// Whether libomptarget device `D` belongs to a host-target plugin: its
/// device UID is "<plugin>-<n>", and host plugins are named after the CPU.
bool isHostTargetDevice(int D) {
  const char *Uid = omp_get_uid_from_device(D);
  if (!Uid)
    return false;
  static const char *const HostPlugins[] = {"x86_64", "aarch64", "ppc64",
                                            "ppc64le", "s390x", "riscv64",
                                            "loongarch64"};
  for (const char *Name : HostPlugins) {
    std::size_t N = std::strlen(Name);
    if (!std::strncmp(Uid, Name, N) && Uid[N] == '-')
      return true;
  }
  return false;
}

/// The libomptarget numbers of the devices offload uses, in order; found
/// once (the devices do not change during a run).
const std::vector<int> &preferredDevices() {
  static const std::vector<int> Preferred = [] {
    std::vector<int> Gpus, Hosts;
    for (int D = 0, N = numDevices(); D < N; ++D)
      (isHostTargetDevice(D) ? Hosts : Gpus).push_back(D);
    return Gpus.empty() ? Hosts : Gpus;
  }();
  return Preferred;
}

int preferredCount() { return int(preferredDevices().size()); }

/// The device set by ofld::set_default_device (offload's number), or -1.
std::atomic<int> UserDefault{-1};
std::atomic<bool> UserDefaultSet{false};

/// OMP_DEFAULT_DEVICE, when the environment sets it: libomptarget's number.
bool ompDefaultFromEnv() {
  static const bool Set = std::getenv("OMP_DEFAULT_DEVICE") != nullptr;
  return Set;
}

/// The device of launches (and regions) that name none.
struct DefaultDevice {
  /// libomptarget's number, or -1 for the host CPU.
  int Device;
  /// A number that names no device (then Device is -1), where it came from
  /// and how many devices it counts among.
  const char *BadSource = nullptr;
  int BadNumber = 0, BadAmong = 0;
  /// The program chose it (an error whatever the policy, like .device);
  /// else the environment did (an error where offloading is mandatory,
  /// otherwise OpenMP's choice of the host).
  bool BadFromProgram = false;
};

DefaultDevice defaultDevice() {
  if (UserDefaultSet.load(std::memory_order_acquire)) {
    int D = UserDefault.load(std::memory_order_relaxed);
    if (D >= 0 && D < preferredCount())
      return {preferredDevices()[D]};
    return {-1, "ofld::set_default_device", D, preferredCount(), true};
  }
  if (ompDefaultFromEnv()) {
    // OpenMP's number of the initial device (numDevices()) means the host.
    int D = omp_get_default_device();
    if (D >= 0 && D < numDevices())
      return {D};
    if (D == numDevices())
      return {-1};
    return {-1, "OMP_DEFAULT_DEVICE", D, numDevices()};
  }
  return {preferredCount() ? preferredDevices()[0] : -1};
}
} // namespace

int ofld::device_count() { return preferredCount(); }

void ofld::set_default_device(int Device) {
  // -1 goes back to the automatic choice. Other numbers are checked at the
  // next launch, which can name the kernel and call site.
  UserDefault.store(Device, std::memory_order_relaxed);
  UserDefaultSet.store(Device != -1, std::memory_order_release);
}

extern "C" ofld::detail::cpu_grid_state *__ofld_cpu_state() {
  static thread_local ofld::detail::cpu_grid_state State;
  return &State;
}

extern "C" int32_t __ofld_launch_shape(const __ofld_site *Site,
                                       const ofld::launch *Shape,
                                       int64_t Count, uint32_t *Dims) {
  ofld::launch L = Shape ? *Shape : ofld::launch{};
  bool HasArray = Count >= 0;
  std::uint32_t Block[3] = {L.block.x ? L.block.x : (HasArray ? 256u : 1u),
                            L.block.x ? orOne(L.block.y) : 1,
                            L.block.x ? orOne(L.block.z) : 1};
  std::uint64_t GridX = L.grid.x;
  if (!GridX)
    GridX = HasArray ? (std::uint64_t(Count) + Block[0] - 1) / Block[0] : 1;
  if (GridX > 0x7fffffffu) {
    fail(Site, "the default launch shape needs %llu blocks, more than a grid "
               "holds; pass ofld::launch{.grid = ...}",
         (unsigned long long)GridX);
    return 0;
  }
  Dims[0] = std::uint32_t(GridX);
  Dims[1] = L.grid.x ? orOne(L.grid.y) : 1;
  Dims[2] = L.grid.x ? orOne(L.grid.z) : 1;
  Dims[3] = Block[0];
  Dims[4] = Block[1];
  Dims[5] = Block[2];
  // An empty span gives an empty grid: nothing to launch.
  if (Dims[0] == 0)
    return 0;
  return L.nowait ? 2 : 1;
}

extern "C" int64_t __ofld_select_device(const __ofld_site *Site,
                                        const ofld::launch *Shape) {
  Policy P = offloadPolicy();
  int Devices = preferredCount();
  int Requested = Shape ? Shape->device : -1;
  if (Requested >= Devices || Requested < -1) {
    fail(Site, "device %d does not exist (%d offload device%s available)",
         Requested, Devices, Devices == 1 ? "" : "s");
    return -1;
  }
  DefaultDevice Default{-1};
  if (Requested < 0)
    Default = defaultDevice();
  if (Default.BadSource &&
      (Default.BadFromProgram || P == Policy::Mandatory)) {
    fail(Site, "default device %d (%s) does not exist (%d offload device%s "
               "available)",
         Default.BadNumber, Default.BadSource, Default.BadAmong,
         Default.BadAmong == 1 ? "" : "s");
    return -1;
  }
  int Device = Requested >= 0 ? preferredDevices()[Requested] : Default.Device;
  if (P == Policy::Disabled)
    return -1;
  if (Device < 0) {
    if (P == Policy::Mandatory)
      fail(Site, "no offload device is available and OMP_TARGET_OFFLOAD="
                 "MANDATORY forbids running on the host");
    return -1;
  }
  return Device;
}

std::string ofld::detail::mapName(const char *Name) {
  if (!Name || *Name != ';')
    return "argument";
  const char *End = std::strchr(Name + 1, ';');
  return End ? std::string(Name + 1, End) : std::string(Name + 1);
}

extern "C" void __ofld_launch_failed(const __ofld_site *Site, int64_t Device,
                                     int32_t Rc) {
  // Inside a launch group the device holds data the host copy lacks: the
  // CPU cannot take over.
  if (inLaunchGroup())
    fail(Site, "launch on device %lld failed (libomptarget returned %d) "
               "between launches that keep their data on the device; the "
               "host copies are stale, so it cannot run on the CPU",
         (long long)Device, Rc);
  else if (offloadPolicy() == Policy::Mandatory)
    fail(Site, "launch on device %lld failed (libomptarget returned %d; "
               "LIBOMPTARGET_INFO=-1 shows why)",
         (long long)Device, Rc);
}

//===----------------------------------------------------------------------===//
// Resident-data regions
//===----------------------------------------------------------------------===//

namespace {
/// Holds (`Begin`) or releases region entries, through the same path as
/// launch groups (holdRanges); small regions stay on the stack.
void mapEntries(bool Begin, const ofld::detail::region_entry *Entries,
                int32_t N, int64_t Device) {
  constexpr int32_t Inline = 16;
  void *PtrBuf[Inline];
  int64_t SizeBuf[Inline], TypeBuf[Inline];
  std::unique_ptr<void *[]> PtrHeap;
  std::unique_ptr<int64_t[]> SizeHeap, TypeHeap;
  void **Ptrs = PtrBuf;
  int64_t *Sizes = SizeBuf, *Types = TypeBuf;
  if (N > Inline) {
    PtrHeap.reset(new void *[N]);
    SizeHeap.reset(new int64_t[N]);
    TypeHeap.reset(new int64_t[N]);
    Ptrs = PtrHeap.get();
    Sizes = SizeHeap.get();
    Types = TypeHeap.get();
  }
  for (int32_t I = 0; I < N; ++I) {
    Ptrs[I] = Entries[I].ptr;
    Sizes[I] = Entries[I].bytes;
    Types[I] = Entries[I].type;
  }
  // The entries live in the region object until it ends: they name it.
  if (Begin)
    holdRanges(Entries, nullptr, Device, N, Ptrs, Sizes, Types, nullptr);
  else
    releaseRanges(Entries, Device, N, Ptrs, Sizes, Types);
}
} // namespace

extern "C" int64_t __ofld_region_begin(const ofld::detail::region_entry *E,
                                       int32_t N) {
  if (offloadPolicy() == Policy::Disabled)
    return -1;
  int Device = defaultDevice().Device;
  if (Device < 0)
    return -1; // kernels will run on the host, where the data already is
  mapEntries(/*Begin=*/true, E, N, Device);
  return Device;
}

extern "C" void __ofld_region_end(int64_t Device,
                                  const ofld::detail::region_entry *E,
                                  int32_t N) {
  if (Device >= 0)
    mapEntries(/*Begin=*/false, E, N, Device);
}

//===----------------------------------------------------------------------===//
// Launches that do not wait
//===----------------------------------------------------------------------===//

namespace {
/// Launches in flight. Each runs on its own thread: libomptarget gives every
/// host thread its own stream, so kernels and copies of different launches
/// overlap on the device as well as with the host.
struct AsyncLaunches {
  std::mutex Lock;
  std::vector<std::thread> Running;
};
AsyncLaunches &asyncLaunches() {
  static AsyncLaunches A;
  return A;
}
} // namespace

extern "C" void *__ofld_async_alloc(int64_t Bytes) {
  return ::operator new(std::size_t(Bytes), std::align_val_t(16));
}

extern "C" void __ofld_async_submit(const __ofld_site *, void (*Body)(void **, uint32_t *, int64_t),
                                    void *Context, uint32_t *Dims,
                                    int64_t Device) {
  std::thread T([=] {
    Body(static_cast<void **>(Context), Dims, Device);
    ::operator delete(Context, std::align_val_t(16));
  });
  std::lock_guard<std::mutex> G(asyncLaunches().Lock);
  asyncLaunches().Running.push_back(std::move(T));
}

void ofld::wait() {
  std::vector<std::thread> Pending;
  {
    std::lock_guard<std::mutex> G(asyncLaunches().Lock);
    Pending.swap(asyncLaunches().Running);
  }
  for (std::thread &T : Pending)
    T.join();
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
// choice. The driver is loaded dynamically: no GPU, no cost.
namespace {
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;

void activateCudaContexts() {
  const char *Env = std::getenv("OFFLOAD_CUDA_SCHED");
  if ((Env && !strcasecmp(Env, "blocking")) ||
      offloadPolicy() == Policy::Disabled)
    return;
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (!Lib)
    Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib)
    return;
  auto Sym = [&](const char *Name) { return dlsym(Lib, Name); };
  auto Init = reinterpret_cast<CUresult (*)(unsigned)>(Sym("cuInit"));
  auto Count = reinterpret_cast<CUresult (*)(int *)>(Sym("cuDeviceGetCount"));
  auto Get = reinterpret_cast<CUresult (*)(CUdevice *, int)>(Sym("cuDeviceGet"));
  auto State = reinterpret_cast<CUresult (*)(CUdevice, unsigned *, int *)>(
      Sym("cuDevicePrimaryCtxGetState"));
  auto SetFlags = reinterpret_cast<CUresult (*)(CUdevice, unsigned)>(
      Sym("cuDevicePrimaryCtxSetFlags_v2"));
  auto Retain = reinterpret_cast<CUresult (*)(CUcontext *, CUdevice)>(
      Sym("cuDevicePrimaryCtxRetain"));
  int N = 0;
  if (!Init || !Count || !Get || !State || !SetFlags || !Retain || Init(0) ||
      Count(&N))
    return;
  for (int I = 0; I < N; ++I) {
    CUdevice Dev;
    unsigned Flags;
    int Active;
    CUcontext Ctx;
    if (Get(&Dev, I) || State(Dev, &Flags, &Active) || Active)
      continue;
    constexpr unsigned SchedAuto = 0; // CUDA's default
    if (!SetFlags(Dev, SchedAuto))
      (void)Retain(&Ctx, Dev); // stays active for the life of the process
  }
}

/// Runs before the program registers its offload images (libraries are
/// initialised before the executable's constructors).
[[gnu::constructor]] void initRuntime() { activateCudaContexts(); }
} // namespace
