//===- data/Residency.cpp - ranges a device keeps across launches ---------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A table, per device, of the host ranges that regions, launch groups and
// device buffers keep on the device, with the device address of each. It
// answers the question every launch asks first (launch/Enqueue.cpp): is all of
// my data on the device already? If so, nothing moves, and the launch can go to
// the device's queue without libomptarget. libomptarget keeps its own table;
// this one mirrors only what offload itself mapped, so a range someone else
// mapped simply takes libomptarget's path.
//
// Also here: device buffers (device memory that a placeholder host range
// stands for, associated with it in libomptarget so that every path finds
// it present), a region's update_to/update_from, and the constness rule of
// issue 15: a kernel that writes into a range a region maps to the device
// only gets it copied back at the region's end (as on the CPU, where the
// kernel writes the host's memory), with a warning once per call site.
//
//===----------------------------------------------------------------------===//

#include "data/Data.h"

#include "Libomptarget.h"

#include <omp.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_set>
#include <vector>

using namespace ofld::detail;

namespace {

constexpr int64_t MapTo = __ofld_map_to, MapFrom = __ofld_map_from;

struct Resident {
  uintptr_t Begin, End; ///< host range
  uintptr_t Device;     ///< device address of Begin
  const void *Holder;
  HoldKind Kind;
  int64_t Type;
  __ofld_place Place;
  /// A launch wrote into it although Type has no `from`.
  bool Written = false;
};

/// residencyGeneration(): bumped under a table's lock by every change.
std::atomic<uint64_t> Generation{1};

struct DeviceTable {
  std::shared_mutex Lock;
  std::vector<Resident> List;
};

/// Per libomptarget device; never freed (launches may ask until exit).
DeviceTable *table(int64_t Device) {
  static DeviceTable *Tables = new DeviceTable[std::max(numDevices(), 1)];
  return Device >= 0 && Device < numDevices() ? &Tables[Device] : nullptr;
}

/// Device buffers of every device, by placeholder address.
struct Buffer {
  uintptr_t Begin, End;
  int64_t Device;
  void *DevPtr;
  std::size_t Reserved; ///< bytes of the placeholder mapping
};
std::mutex BuffersLock;
std::vector<Buffer> &buffers() {
  static auto *B = new std::vector<Buffer>;
  return *B;
}

} // namespace

void ofld::detail::addResident(int64_t Device, const void *Holder,
                               HoldKind Kind, void *Host, int64_t Bytes,
                               int64_t Type, const __ofld_place *Place) {
  DeviceTable *T = table(Device);
  if (!T || Bytes <= 0)
    return;
  void *Dev = omp_get_mapped_ptr(Host, int(Device));
  if (!Dev)
    return; // not mapped after all (an error libomptarget reported)
  auto B = reinterpret_cast<uintptr_t>(Host);
  std::unique_lock<std::shared_mutex> G(T->Lock);
  T->List.push_back({B, B + uintptr_t(Bytes), reinterpret_cast<uintptr_t>(Dev),
                     Holder, Kind, Type,
                     Place ? *Place : __ofld_place{nullptr, 0}});
  Generation.fetch_add(1, std::memory_order_acq_rel);
}

std::vector<WrittenRange> ofld::detail::removeResident(int64_t Device,
                                                       const void *Holder) {
  std::vector<WrittenRange> Written;
  DeviceTable *T = table(Device);
  if (!T)
    return Written;
  std::unique_lock<std::shared_mutex> G(T->Lock);
  auto It =
      std::remove_if(T->List.begin(), T->List.end(), [&](const Resident &R) {
        if (R.Holder != Holder)
          return false;
        if (R.Written)
          Written.push_back(
              {reinterpret_cast<void *>(R.Begin), int64_t(R.End - R.Begin)});
        return true;
      });
  T->List.erase(It, T->List.end());
  Generation.fetch_add(1, std::memory_order_acq_rel);
  return Written;
}

uint64_t ofld::detail::residencyGeneration() {
  return Generation.load(std::memory_order_acquire);
}

void *ofld::detail::residentAddress(int64_t Device, const void *Host,
                                    int64_t Bytes) {
  DeviceTable *T = table(Device);
  if (!T)
    return nullptr;
  auto B = reinterpret_cast<uintptr_t>(Host);
  uintptr_t E = B + uintptr_t(std::max<int64_t>(Bytes, 0));
  std::shared_lock<std::shared_mutex> G(T->Lock);
  for (const Resident &R : T->List)
    if (R.Begin <= B && (Bytes > 0 ? E <= R.End : B < R.End))
      return reinterpret_cast<void *>(R.Device + (B - R.Begin));
  return nullptr;
}

RangeLookup ofld::detail::lookupRange(int64_t Device, const void *Host,
                                      int64_t Bytes, bool Writes) {
  RangeLookup L;
  DeviceTable *T = table(Device);
  if (!T)
    return L;
  auto B = reinterpret_cast<uintptr_t>(Host);
  uintptr_t E = B + uintptr_t(std::max<int64_t>(Bytes, 0));
  bool AllToOnly = true;
  std::shared_lock<std::shared_mutex> G(T->Lock);
  for (const Resident &R : T->List) {
    bool Holds = R.Begin <= B && (Bytes > 0 ? E <= R.End : B < R.End);
    if (!Holds) {
      L.Partly |= Bytes > 0 && B < R.End && R.Begin < E;
      continue;
    }
    if (!L.Address)
      L.Address = reinterpret_cast<void *>(R.Device + (B - R.Begin));
    AllToOnly &= R.Kind == HoldKind::Region && !(R.Type & MapFrom);
  }
  if (L.Address)
    L.Partly = false;
  L.WritesConstEntry = Writes && L.Address && Bytes > 0 && AllToOnly;
  return L;
}

bool ofld::detail::inDeviceBuffer(const void *Host, int64_t &Device) {
  auto P = reinterpret_cast<uintptr_t>(Host);
  std::lock_guard<std::mutex> G(BuffersLock);
  for (const Buffer &B : buffers())
    if (B.Begin <= P && P < B.Begin + B.Reserved) {
      Device = B.Device;
      return true;
    }
  return false;
}

void ofld::detail::markWrites(const __ofld_site *Site, int64_t Device,
                              void *Host, int64_t Bytes, const char *Name) {
  DeviceTable *T = table(Device);
  if (!T || Bytes <= 0)
    return;
  auto B = reinterpret_cast<uintptr_t>(Host);
  uintptr_t E = B + uintptr_t(Bytes);
  auto Holds = [&](const Resident &R) { return R.Begin <= B && E <= R.End; };
  auto ToOnly = [](const Resident &R) {
    return R.Kind == HoldKind::Region && !(R.Type & MapFrom);
  };
  {
    // The common case: some holder copies the range back, or none holds it.
    std::shared_lock<std::shared_mutex> G(T->Lock);
    bool Any = false, AllToOnly = true;
    for (const Resident &R : T->List)
      if (Holds(R)) {
        Any = true;
        AllToOnly &= ToOnly(R);
      }
    if (!Any || !AllToOnly)
      return;
  }
  __ofld_place Region{nullptr, 0};
  {
    std::unique_lock<std::shared_mutex> G(T->Lock);
    for (Resident &R : T->List)
      if (Holds(R) && ToOnly(R)) {
        R.Written = true;
        Region = R.Place;
      }
  }
  // Said at compile time already, or here before for this call site.
  if (Site->flags & __ofld_site_warned_const)
    return;
  static std::mutex WarnedLock;
  static auto *Warned = new std::unordered_set<const __ofld_site *>;
  {
    std::lock_guard<std::mutex> G(WarnedLock);
    if (!Warned->insert(Site).second)
      return;
  }
  char Where[512] = "";
  if (Region.file)
    std::snprintf(Where, sizeof(Where), " at %s:%u", Region.file, Region.line);
  std::fprintf(stderr,
               "offload: warning: kernel '%s' at %s:%u writes through '%s' "
               "into memory that the ofld::region%s maps to the device only "
               "(std::span<const T>); the region copies it back at its end\n",
               Site->kernel, Site->file, Site->line, mapName(Name).c_str(),
               Where);
}

//===----------------------------------------------------------------------===//
// ofld::region updates
//===----------------------------------------------------------------------===//

extern "C" void __ofld_region_update(int64_t Device, void *Ptr, int64_t Bytes,
                                     int32_t ToDevice,
                                     const __ofld_place *Place) {
  const char *What =
      ToDevice ? "ofld::region::update_to" : "ofld::region::update_from";
  if (Device < 0 || Bytes <= 0)
    return; // kernels run on the host: its memory is the device's
  int64_t BufferDevice;
  if (inDeviceBuffer(Ptr, BufferDevice)) {
    failAt(Place, What,
           "the range is a device_buffer's, which has no host copy; use its "
           "copy_from and copy_to");
    return;
  }
  void *Dev = residentAddress(Device, Ptr, Bytes);
  if (!Dev) {
    failAt(Place, What,
           "the %lld bytes at %p are not on device %lld (a region, launch "
           "group or device_buffer must hold all of them)",
           (long long)Bytes, Ptr, (long long)Device);
    return;
  }
  // The launches issued before read or write the range.
  waitForLaunches(Device, What);
  std::size_t Threshold = stagingThreshold(int(Device));
  if (Threshold && std::size_t(Bytes) >= Threshold) {
    if (!copyBytes(ToDevice != 0, Device, Ptr, Dev, Bytes))
      failAt(Place, What, "copying %lld bytes failed", (long long)Bytes);
    return;
  }
  // libomptarget's own update: its log shows the copy like any other.
  int64_t Size = Bytes, Type = ToDevice ? MapTo : MapFrom;
  char Name[600];
  std::snprintf(Name, sizeof(Name), ";%s;%s;%u;0;;", What,
                Place && Place->file ? Place->file : "unknown",
                Place ? Place->line : 0);
  void *NamePtr = Name;
  __tgt_target_data_update_mapper(nullptr, Device, 1, &Ptr, &Ptr, &Size, &Type,
                                  &NamePtr, nullptr);
}

//===----------------------------------------------------------------------===//
// ofld::device_buffer
//===----------------------------------------------------------------------===//

extern "C" void *__ofld_buffer_alloc(int64_t Bytes, int32_t Requested,
                                     int64_t *OmpDevice,
                                     const __ofld_place *Place) {
  const char *What = "ofld::device_buffer";
  *OmpDevice = -1;
  if (Bytes <= 0)
    return nullptr;
  int64_t Device = dataDevice(Requested, Place, What);
  if (Device < 0) { // kernels run on the host: host memory it is
    void *Host = std::malloc(std::size_t(Bytes));
    if (!Host)
      failAt(Place, What, "cannot allocate %lld bytes on the host",
             (long long)Bytes);
    return Host;
  }
  void *Dev = omp_target_alloc(std::size_t(Bytes), int(Device));
  if (!Dev) {
    failAt(Place, What,
           "cannot allocate %lld bytes on device %lld: out of device memory",
           (long long)Bytes, (long long)Device);
    return nullptr;
  }
  // Address space that no host access may use: a span of the buffer holds
  // these addresses, and libomptarget finds them present (associated).
  std::size_t Page = std::size_t(sysconf(_SC_PAGESIZE));
  std::size_t Reserved = (std::size_t(Bytes) + Page - 1) / Page * Page;
  void *Host = mmap(nullptr, Reserved, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Host == MAP_FAILED ||
      omp_target_associate_ptr(Host, Dev, std::size_t(Bytes), 0, int(Device))) {
    if (Host != MAP_FAILED)
      munmap(Host, Reserved);
    omp_target_free(Dev, int(Device));
    failAt(Place, What, "cannot set up %lld bytes on device %lld",
           (long long)Bytes, (long long)Device);
    return nullptr;
  }
  addResident(Device, Host, HoldKind::Buffer, Host, Bytes, MapTo | MapFrom,
              Place);
  {
    auto B = reinterpret_cast<uintptr_t>(Host);
    std::lock_guard<std::mutex> G(BuffersLock);
    buffers().push_back({B, B + uintptr_t(Bytes), Device, Dev, Reserved});
  }
  *OmpDevice = Device;
  return Host;
}

namespace {
/// The buffer at `Host`, removed from the table when `Take`.
bool findBuffer(void *Host, Buffer &Out, bool Take) {
  auto P = reinterpret_cast<uintptr_t>(Host);
  std::lock_guard<std::mutex> G(BuffersLock);
  auto &All = buffers();
  for (auto It = All.begin(); It != All.end(); ++It)
    if (It->Begin == P) {
      Out = *It;
      if (Take)
        All.erase(It);
      return true;
    }
  return false;
}
} // namespace

extern "C" void __ofld_buffer_free(void *Host, int64_t, int64_t Device) {
  if (Device < 0) {
    std::free(Host);
    return;
  }
  Buffer B;
  if (!findBuffer(Host, B, /*Take=*/true))
    return;
  // Launches issued before may still use it.
  waitForLaunches(Device, "the end of an ofld::device_buffer");
  removeResident(Device, Host);
  omp_target_disassociate_ptr(Host, int(Device));
  omp_target_free(B.DevPtr, int(Device));
  munmap(Host, B.Reserved);
}
