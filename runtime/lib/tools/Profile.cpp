//===- tools/Profile.cpp - OFFLOAD_PROFILE: launches and copies by site ---===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// What each launch path measures (docs/Profiling.md):
//
//  * Launches and copies the runtime puts on a queue's CUDA stream
//    (launch/Queues.cpp): CUDA events recorded on that stream around the work;
//    their elapsed time is the device's. Read when they have completed,
//    without waiting (or at exit), so profiling keeps launches asynchronous.
//  * Launches through libomptarget (they copy data, OFFLOAD_FAST_LAUNCH=0,
//    or the device is not a CUDA device): Interpose.cpp's
//    __tgt_target_kernel hands them to profile::launch when the profile is
//    on. Under the profiler it maps the launch's ranges one
//    at a time, timing each copy, then launches with the ranges present,
//    then releases them in reverse: OpenMP's `target data` around `target`,
//    which moves the same bytes. libomptarget's streams are its own, so on
//    a CUDA device the kernel's device time comes from CUPTI (cuda/Cupti.cpp),
//    which records it under a tag of this launch. Without CUPTI, and on
//    the host offload target (the kernel runs inside the call on this CPU),
//    the time is the host's around the synchronous call, and the table
//    says so.
//  * Ranges staged through pinned memory, and ranges regions and launch
//    groups hold: synchronous copies, timed on the host.
//  * Launches on this CPU without a device: counted, not timed.
//
//===----------------------------------------------------------------------===//

#include "tools/Tools.h"

#include "Environment.h"
#include "Libomptarget.h"
#include "Runtime.h"
#include "cuda/Cuda.h"
#include "offload/policy/map_kinds.hpp"

#include <omp.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

#if defined(OFFLOAD_HAVE_NVTX3) && __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define OFFLOAD_NVTX 1
#else
#define OFFLOAD_NVTX 0
#endif

using namespace ofld::detail;
using namespace ofld::detail::cuda;

namespace {

// libomptarget's map type bits (runtime_abi.def).
constexpr int64_t MapTo = ofld::policy::MapTo, MapFrom = ofld::policy::MapFrom,
                  MapAlways = ofld::policy::MapAlways,
                  MapTargetParam = ofld::policy::MapTargetParam,
                  MapLiteral = ofld::policy::MapLiteral;

//===----------------------------------------------------------------------===//
// Settings
//===----------------------------------------------------------------------===//

struct Config {
  bool Table = false;
  std::string TracePath;
  bool Nvtx = false;
};

Config readConfig() {
  const Environment &E = environment();
  // Nsight Systems (and other NVTX tools) set the injection path for the
  // programs they start; without it NVTX calls have nobody to talk to.
  return {E.ProfileTable, E.ProfileTrace, OFFLOAD_NVTX && E.NvtxTool};
}

const Config &config() {
  static const Config C = readConfig();
  return C;
}

uint64_t nowNs() {
  static const auto T0 = std::chrono::steady_clock::now();
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - T0)
                      .count());
}

//===----------------------------------------------------------------------===//
// NVTX
//===----------------------------------------------------------------------===//

#if OFFLOAD_NVTX
nvtxDomainHandle_t nvtxDomain() {
  static nvtxDomainHandle_t D = nvtxDomainCreateA("offload");
  return D;
}

void nvtxPush(const std::string &Name) {
  nvtxEventAttributes_t A = {};
  A.version = NVTX_VERSION;
  A.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  A.messageType = NVTX_MESSAGE_TYPE_ASCII;
  A.message.ascii = Name.c_str();
  nvtxDomainRangePushEx(nvtxDomain(), &A);
}

void nvtxPop() { nvtxDomainRangePop(nvtxDomain()); }
#else
void nvtxPush(const std::string &) {}
void nvtxPop() {}
#endif

//===----------------------------------------------------------------------===//
// What is recorded
//===----------------------------------------------------------------------===//

/// How a time was measured, one bit each; a row shows all it mixes.
enum ClockBits : unsigned { ClockDevice = 1, ClockHost = 2, ClockNone = 4 };

/// One call site (or region), named once.
struct Where {
  std::string Kernel; ///< the kernel's name, or "ofld::region"
  std::string File;   ///< as the compiler saw it
  unsigned Line = 0;
  std::string Label; ///< "kernel @ file:line", the file without directories
};

/// Kernel times of launches measured one way.
struct TimeStats {
  uint64_t Timed = 0;
  double TotalUs = 0, MinUs = 0, MaxUs = 0;
  void add(double Us) {
    MinUs = Timed ? std::min(MinUs, Us) : Us;
    MaxUs = Timed ? std::max(MaxUs, Us) : Us;
    TotalUs += Us;
    ++Timed;
  }
};

struct KernelRow {
  const Where *W;
  uint64_t Launches = 0;
  /// All timed launches; those timed on the device and on the host.
  TimeStats All, Device, Host;
  uint64_t BytesIn = 0, BytesOut = 0;
  double InUs = 0, OutUs = 0;
  /// How the launches' kernel times were measured (copies: CopyRow).
  unsigned Clocks = 0;
};

struct CopyRow {
  const Where *W;
  std::string Arg;
  bool ToDevice;
  uint64_t Bytes = 0, Copies = 0;
  double Us = 0;
  unsigned Clocks = 0;
};

/// One event of the trace.
struct TraceEvent {
  const Where *W;
  std::string Arg; ///< empty for a launch
  bool ToDevice;
  int64_t Device;
  int Lane; ///< a queue, or 1000 + a host thread's number
  double TsUs, DurUs;
  uint64_t Bytes;
  uint32_t Dims[6];
  bool HasDims;
  unsigned Clock;
};

/// Work on a stream whose events have not been read yet.
struct Pending {
  const Driver *Cu;
  CUcontext Ctx;
  CUevent Start, End;
  const Where *W;
  std::string Arg;
  bool ToDevice;
  int64_t Device;
  int Queue;
  uint64_t Bytes;
  uint32_t Dims[6];
  bool HasDims;
  uint64_t Tag; ///< a launch CUPTI times too
};

/// A launch on a CUDA device whose device time CUPTI delivers under `Tag`:
/// on its queue's lane or libomptarget's (`Lane`). Where CUPTI delivers
/// nothing, the time measured otherwise stands: CUDA events around a
/// launch on a queue's stream, host time around one through libomptarget.
struct TaggedLaunch {
  uint64_t Tag;
  const Where *W;
  int64_t Device;
  int Lane;
  uint32_t Dims[6];
  bool HasDims;
  unsigned Fallback; ///< the clock of the time below
  int FallbackLane;
  double FallbackTsUs, FallbackDurUs;
};

/// The trace's lane of launches timed by CUPTI (libomptarget's streams).
constexpr int CuptiLane = 900;

/// A device's reference point: an event whose host time is known.
struct Anchor {
  CUevent Event = nullptr;
  double HostUs = 0;
};

struct State {
  std::mutex Lock;
  /// Call sites by their record's address (or a region's place, or a
  /// source location for launches the plugin did not lower).
  std::unordered_map<const void *, Where> Places;
  std::unordered_map<const Where *, KernelRow> Kernels;
  std::map<std::tuple<const Where *, std::string, bool>, CopyRow> Copies;
  std::vector<TraceEvent> Trace;
  std::deque<Pending> InFlight;
  std::unordered_map<CUcontext, std::vector<CUevent>> FreeEvents;
  std::unordered_map<int64_t, Anchor> Anchors;
  std::vector<TaggedLaunch> Tagged;
  uint64_t NextTag = 0;
  /// Why launches through libomptarget on a CUDA device were host-timed.
  std::string NoCupti;
  std::unordered_map<std::thread::id, int> HostThreads;
  /// Region and launch-group holders, to name the copies at their end.
  struct Holding {
    const __ofld_site *Site;
    const __ofld_place *Place;
    const char **Names;
  };
  std::unordered_map<const void *, Holding> Holders;
  bool Finished = false;
};

State &state() {
  static auto *S = new State; // outlives every exit-time caller
  return *S;
}

const char *baseName(const char *Path) {
  const char *Slash = Path ? std::strrchr(Path, '/') : nullptr;
  return Slash ? Slash + 1 : (Path ? Path : "?");
}

Where makeWhere(std::string Kernel, const char *File, unsigned Line) {
  Where W;
  W.Kernel = std::move(Kernel);
  W.File = File ? File : "?";
  W.Line = Line;
  W.Label = W.Kernel + " @ " + baseName(File) + ":" + std::to_string(Line);
  return W;
}

/// The place of a launch site or region (S.Lock held).
const Where *whereOf(State &S, const __ofld_site *Site,
                     const __ofld_place *Place) {
  const void *Key =
      Site ? static_cast<const void *>(Site) : static_cast<const void *>(Place);
  auto It = S.Places.find(Key);
  if (It != S.Places.end())
    return &It->second;
  Where W = Site    ? makeWhere(Site->kernel, Site->file, Site->line)
            : Place ? makeWhere("ofld::region", Place->file, Place->line)
                    : makeWhere("ofld::region", "?", 0);
  return &S.Places.emplace(Key, std::move(W)).first->second;
}

/// The place of a launch known only by its source location (S.Lock held).
const Where *whereOfLoc(State &S, const omptarget::Ident *Loc) {
  auto It = S.Places.find(Loc);
  if (It != S.Places.end())
    return &It->second;
  std::string Fields[4];
  if (Loc && Loc->Source) {
    const char *P = Loc->Source + (*Loc->Source == ';');
    for (std::string &F : Fields) {
      const char *End = std::strchr(P, ';');
      F.assign(P, End ? End : P + std::strlen(P));
      P = End ? End + 1 : P + std::strlen(P);
    }
  }
  Where W = makeWhere("target region in " + Fields[1], Fields[0].c_str(),
                      unsigned(std::atoi(Fields[2].c_str())));
  // Clang names the location only with debug information.
  if (Fields[0].empty() || Fields[0] == "unknown")
    W.Label = "target region (no source location: compile with -g)";
  return &S.Places.emplace(Loc, std::move(W)).first->second;
}

/// The name of argument `Arg` (a map name), or of a region's entry.
std::string argLabel(const char *Arg, int32_t Index) {
  if (!Arg && Index >= 0)
    return "entry " + std::to_string(Index + 1);
  return mapName(Arg);
}

int hostLane(State &S) {
  auto [It, New] = S.HostThreads.emplace(std::this_thread::get_id(),
                                         int(S.HostThreads.size()));
  return 1000 + It->second;
}

/// Adds one finished launch (S.Lock held).
void addLaunch(State &S, const Where *W, int64_t Device, int Lane, double TsUs,
               double DurUs, const uint32_t *Dims, unsigned Clock) {
  KernelRow &R = S.Kernels.try_emplace(W, KernelRow{W}).first->second;
  ++R.Launches;
  R.Clocks |= Clock;
  if (Clock != ClockNone) {
    R.All.add(DurUs);
    (Clock == ClockDevice ? R.Device : R.Host).add(DurUs);
  }
  if (config().TracePath.empty())
    return;
  TraceEvent E{W,     {}, false, Device,          Lane, TsUs,
               DurUs, 0,  {},    Dims != nullptr, Clock};
  if (Dims)
    std::copy(Dims, Dims + 6, E.Dims);
  S.Trace.push_back(std::move(E));
}

/// Adds one finished copy (S.Lock held).
void addCopy(State &S, const Where *W, const std::string &Arg, bool ToDevice,
             int64_t Device, int Lane, double TsUs, double DurUs,
             uint64_t Bytes, unsigned Clock) {
  KernelRow &R = S.Kernels.try_emplace(W, KernelRow{W}).first->second;
  (ToDevice ? R.BytesIn : R.BytesOut) += Bytes;
  (ToDevice ? R.InUs : R.OutUs) += DurUs;
  CopyRow &C =
      S.Copies.try_emplace({W, Arg, ToDevice}, CopyRow{W, Arg, ToDevice})
          .first->second;
  C.Bytes += Bytes;
  ++C.Copies;
  C.Us += DurUs;
  C.Clocks |= Clock;
  if (config().TracePath.empty())
    return;
  S.Trace.push_back(
      {W, Arg, ToDevice, Device, Lane, TsUs, DurUs, Bytes, {}, false, Clock});
}

//===----------------------------------------------------------------------===//
// CUDA events
//===----------------------------------------------------------------------===//

CUevent takeEvent(State &S, const Driver &Cu, CUcontext Ctx) {
  std::vector<CUevent> &Free = S.FreeEvents[Ctx];
  if (!Free.empty()) {
    CUevent E = Free.back();
    Free.pop_back();
    return E;
  }
  CUevent E = nullptr;
  if (Cu.EventCreate(&E, 0))
    return nullptr;
  return E;
}

/// Reads the events of the work that has completed, in issue order; with
/// `Wait`, waits for all of it (S.Lock held).
void harvest(State &S, bool Wait) {
  while (!S.InFlight.empty()) {
    Pending &P = S.InFlight.front();
    CUcontext Saved;
    if (makeCurrent(*P.Cu, P.Ctx, &Saved))
      break;
    CUresult Done =
        Wait ? P.Cu->EventSynchronize(P.End) : P.Cu->EventQuery(P.End);
    if (Done == ErrorNotReady)
      break;
    float Ms = 0, FromAnchor = 0;
    Anchor &A = S.Anchors[P.Device];
    bool Timed = !Done && !P.Cu->EventElapsedTime(&Ms, P.Start, P.End) &&
                 !P.Cu->EventElapsedTime(&FromAnchor, A.Event, P.Start);
    // A failed launch (an error the queue reports) has no time.
    if (Timed) {
      double Ts = A.HostUs + double(FromAnchor) * 1000;
      if (P.Arg.empty() && P.Tag) {
        TaggedLaunch T{P.Tag,     P.W,         P.Device, P.Queue, {},
                       P.HasDims, ClockDevice, P.Queue,  Ts,      Ms * 1e3};
        std::copy(P.Dims, P.Dims + 6, T.Dims);
        S.Tagged.push_back(T);
      } else if (P.Arg.empty())
        addLaunch(S, P.W, P.Device, P.Queue, Ts, double(Ms) * 1000,
                  P.HasDims ? P.Dims : nullptr, ClockDevice);
      else
        addCopy(S, P.W, P.Arg, P.ToDevice, P.Device, P.Queue, Ts,
                double(Ms) * 1000, P.Bytes, ClockDevice);
    }
    std::vector<CUevent> &Free = S.FreeEvents[P.Ctx];
    Free.push_back(P.Start);
    Free.push_back(P.End);
    S.InFlight.pop_front();
  }
}

//===----------------------------------------------------------------------===//
// The launch site of the launch in progress on this thread
//===----------------------------------------------------------------------===//

struct CurrentLaunch {
  const __ofld_site *Site = nullptr;
  const void *RegionId = nullptr; ///< null: whatever this thread launches
};
thread_local CurrentLaunch Current;

} // namespace

bool profile::Active = config().Table || config().Nvtx;

bool profile::enabled() { return config().Table || config().Nvtx; }

void profile::setSite(const __ofld_site *Site, const void *RegionId) {
  Current = {Site, RegionId};
}

void profile::cpuLaunch(const __ofld_site *Site) {
  if (!config().Table)
    return;
  State &S = state();
  std::lock_guard<std::mutex> G(S.Lock);
  addLaunch(S, whereOf(S, Site, nullptr), -1, hostLane(S), nowNs() / 1e3, 0,
            nullptr, ClockNone);
}

profile::StreamSpan profile::beginOnStream(const Driver &Cu, CUcontext Ctx,
                                           CUstream Stream, int64_t Device,
                                           const __ofld_site *Site,
                                           const char *Arg, bool ToDevice) {
  StreamSpan Span;
  // CUPTI times the kernel itself; the events stay, in case it does not.
  bool Cupti = !Arg && config().Table && cupti::start(nowNs);
  State &S = state();
  std::lock_guard<std::mutex> G(S.Lock);
  const Where *W = whereOf(S, Site, nullptr);
  if (Cupti) {
    Span.Tag = ++S.NextTag;
    cupti::beginTag(Span.Tag);
  }
  if (config().Nvtx) {
    nvtxPush(Arg ? mapName(Arg) +
                       (ToDevice ? " to device: " : " from device: ") + W->Label
                 : W->Label);
    Span.Nvtx = true;
  }
  if (!config().Table || !Cu.EventElapsedTime || !Cu.EventQuery)
    return Span;
  Anchor &A = S.Anchors[Device];
  if (!A.Event) {
    // The first work profiled on this device: an event whose host time is
    // known places the device's events on the trace's clock.
    CUevent E = takeEvent(S, Cu, Ctx);
    if (!E || Cu.EventRecord(E, Stream) || Cu.EventSynchronize(E))
      return Span;
    A = {E, nowNs() / 1e3};
  }
  Span.Start = takeEvent(S, Cu, Ctx);
  if (Span.Start && Cu.EventRecord(Span.Start, Stream)) {
    S.FreeEvents[Ctx].push_back(Span.Start);
    Span.Start = nullptr;
  }
  return Span;
}

void profile::endOnStream(const StreamSpan &Span, const Driver &Cu,
                          CUcontext Ctx, CUstream Stream, int64_t Device,
                          int Queue, const __ofld_site *Site, const char *Arg,
                          bool ToDevice, uint64_t Bytes, const uint32_t *Dims,
                          bool Ok) {
  if (Span.Nvtx)
    nvtxPop();
  if (Span.Tag)
    cupti::endTag();
  if (!config().Table)
    return;
  State &S = state();
  std::lock_guard<std::mutex> G(S.Lock);
  const Where *W = whereOf(S, Site, nullptr);
  if (!Ok) {
    if (Span.Start)
      S.FreeEvents[Ctx].push_back(Span.Start);
    return;
  }
  CUevent End = Span.Start ? takeEvent(S, Cu, Ctx) : nullptr;
  if (!End || Cu.EventRecord(End, Stream)) {
    // No events: the work is counted, untimed.
    if (Span.Start)
      S.FreeEvents[Ctx].push_back(Span.Start);
    if (End)
      S.FreeEvents[Ctx].push_back(End);
    if (Arg)
      addCopy(S, W, mapName(Arg), ToDevice, Device, Queue, nowNs() / 1e3, 0,
              Bytes, ClockNone);
    else
      addLaunch(S, W, Device, Queue, nowNs() / 1e3, 0, Dims, ClockNone);
    return;
  }
  Pending P{&Cu,      Ctx,    Span.Start,
            End,      W,      Arg ? mapName(Arg) : std::string(),
            ToDevice, Device, Queue,
            Bytes,    {},     Dims != nullptr,
            Span.Tag};
  if (Dims)
    std::copy(Dims, Dims + 6, P.Dims);
  S.InFlight.push_back(std::move(P));
  // Keep the events in use bounded without waiting for the device.
  if (S.InFlight.size() >= 1024)
    harvest(S, /*Wait=*/false);
}

profile::HostSpan profile::beginCopy(const __ofld_site *Site,
                                     const __ofld_place *Place, const char *Arg,
                                     int32_t Index, bool ToDevice) {
  HostSpan Span;
  if (config().Nvtx) {
    State &S = state();
    std::string Label;
    {
      std::lock_guard<std::mutex> G(S.Lock);
      Label = whereOf(S, Site, Place)->Label;
    }
    nvtxPush(argLabel(Arg, Index) +
             (ToDevice ? " to device: " : " from device: ") + Label);
    Span.Nvtx = true;
  }
  Span.StartNs = nowNs();
  return Span;
}

void profile::endCopy(const HostSpan &Span, int64_t Device,
                      const __ofld_site *Site, const __ofld_place *Place,
                      const char *Arg, int32_t Index, bool ToDevice,
                      uint64_t Bytes) {
  uint64_t EndNs = nowNs();
  if (Span.Nvtx)
    nvtxPop();
  if (!config().Table)
    return;
  State &S = state();
  std::lock_guard<std::mutex> G(S.Lock);
  addCopy(S, whereOf(S, Site, Place), argLabel(Arg, Index), ToDevice, Device,
          hostLane(S), Span.StartNs / 1e3, (EndNs - Span.StartNs) / 1e3, Bytes,
          ClockHost);
}

namespace {

/// Maps (`Begin`) or releases one range the way a mapper call with that one
/// entry does, and records the copy it made (a range not yet present, or
/// OMP_MAP_ALWAYS).
void mapOne(bool Begin, void *Loc, int64_t Device, const __ofld_site *Site,
            const __ofld_place *Place, void *Ptr, int64_t Size, int64_t Type,
            const char *Name, int32_t Index) {
  bool Transfer = Size > 0 && (Type & (Begin ? MapTo : MapFrom));
  bool Always = Type & MapAlways;
  bool PresentBefore =
      Transfer && !Always && omp_target_is_present(Ptr, int(Device));
  profile::HostSpan Span;
  if (Transfer && (Always || !Begin || !PresentBefore))
    Span = profile::beginCopy(Site, Place, Name, Index, Begin);
  void *Names = const_cast<char *>(Name);
  (Begin ? __tgt_target_data_begin_mapper : __tgt_target_data_end_mapper)(
      Loc, Device, 1, &Ptr, &Ptr, &Size, &Type, Name ? &Names : nullptr,
      nullptr);
  if (!Transfer)
    return;
  // At the end, the bytes come back when the last reference went.
  bool Copied = Always || (Begin ? !PresentBefore
                                 : !omp_target_is_present(Ptr, int(Device)));
  if (Copied)
    profile::endCopy(Span, Device, Site, Place, Name, Index, Begin,
                     uint64_t(Size));
  else if (Span.Nvtx)
    nvtxPop();
}

} // namespace

void profile::mapHeld(bool Begin, const void *Holder, const __ofld_site *Site,
                      const __ofld_place *Place, int64_t Device, int32_t N,
                      void **Ptrs, int64_t *Sizes, int64_t *Types,
                      const char **Names) {
  {
    State &S = state();
    std::lock_guard<std::mutex> G(S.Lock);
    if (Begin) {
      S.Holders[Holder] = {Site, Place, Names};
    } else if (auto It = S.Holders.find(Holder); It != S.Holders.end()) {
      Site = It->second.Site;
      Place = It->second.Place;
      Names = It->second.Names;
      S.Holders.erase(It);
    }
  }
  for (int32_t K = 0; K < N; ++K) {
    int32_t I = Begin ? K : N - 1 - K;
    mapOne(Begin, nullptr, Device, Site, Place, Ptrs[I], Sizes[I], Types[I],
           Names ? Names[I] : nullptr, I);
  }
}

//===----------------------------------------------------------------------===//
// Launches through libomptarget (Interpose.cpp calls profile::launch)
//===----------------------------------------------------------------------===//

int profile::launch(omptarget::TargetKernelFn Next, void *Loc, int64_t Device,
                    int32_t Teams, int32_t Threads, void *HostPtr,
                    omptarget::KernelArgs *Args) {
  const __ofld_site *Site =
      Current.Site && (!Current.RegionId || Current.RegionId == HostPtr)
          ? Current.Site
          : nullptr;
  State &S = state();
  const Where *W;
  {
    std::lock_guard<std::mutex> G(S.Lock);
    W = Site ? whereOf(S, Site, nullptr)
             : whereOfLoc(S, static_cast<const omptarget::Ident *>(Loc));
  }
  if (!config().Table) {
    nvtxPush(W->Label);
    int Rc = Next(Loc, Device, Teams, Threads, HostPtr, Args);
    nvtxPop();
    return Rc;
  }
  // The ranges of a launch the plugin lowered (entries that are no kernel
  // parameter) are mapped first, one by one; the launch then finds them
  // present and copies nothing. Other target regions (OpenMP code linked
  // with the runtime) may have entries that only mean something together
  // (MEMBER_OF, PTR_AND_OBJ): they are timed whole, copies included.
  uint32_t N = Args->NumArgs;
  std::vector<int64_t> Types(Args->ArgTypes, Args->ArgTypes + N);
  std::vector<uint32_t> Ranges;
  for (uint32_t I = 0; Site && I < N; ++I)
    if (!(Types[I] & (MapTargetParam | MapLiteral)))
      Ranges.push_back(I);
  auto Map = [&](bool Begin, uint32_t I, int64_t Type) {
    mapOne(Begin, Loc, Device, Site, nullptr, Args->ArgPtrs[I],
           Args->ArgSizes[I], Type,
           Args->ArgNames ? static_cast<const char *>(Args->ArgNames[I])
                          : nullptr,
           -1);
  };
  for (uint32_t I : Ranges) {
    Map(/*Begin=*/true, I, Types[I]);
    Types[I] &= ~(MapTo | MapFrom | MapAlways);
  }
  int64_t *Original = Args->ArgTypes;
  Args->ArgTypes = Types.data();
  // On a CUDA device, CUPTI records the kernel's device time under a tag.
  uint64_t Tag = 0;
  if (cudaOrdinal(int(Device)) >= 0) {
    bool Cupti = cupti::start(nowNs);
    std::lock_guard<std::mutex> G(S.Lock);
    if (Cupti)
      Tag = ++S.NextTag;
    else
      S.NoCupti = cupti::why();
  }
  if (config().Nvtx)
    nvtxPush(W->Label);
  if (Tag)
    cupti::beginTag(Tag);
  uint64_t Start = nowNs();
  int Rc = Next(Loc, Device, Teams, Threads, HostPtr, Args);
  uint64_t End = nowNs();
  if (Tag)
    cupti::endTag();
  Args->ArgTypes = Original;
  if (config().Nvtx)
    nvtxPop();
  // A launch that failed copies nothing back: the CPU runs the kernel on
  // the host's data next.
  for (auto It = Ranges.rbegin(); It != Ranges.rend(); ++It)
    Map(/*Begin=*/false, *It,
        Rc ? Original[*It] & ~(MapTo | MapFrom | MapAlways) : Original[*It]);
  if (Rc)
    return Rc;
  uint32_t Dims[6] = {};
  const uint32_t *D = nullptr;
  if (Args->Version >= 2) {
    for (int I = 0; I < 3; ++I) {
      Dims[I] = Args->NumTeams[I];
      Dims[3 + I] = Args->ThreadLimit[I];
    }
    D = Dims;
  }
  std::lock_guard<std::mutex> G(S.Lock);
  if (Tag) {
    TaggedLaunch T{
        Tag,          W,         Device,      CuptiLane,   {},
        D != nullptr, ClockHost, hostLane(S), Start / 1e3, (End - Start) / 1e3};
    std::copy(Dims, Dims + 6, T.Dims);
    S.Tagged.push_back(T);
  } else {
    addLaunch(S, W, Device, hostLane(S), Start / 1e3, (End - Start) / 1e3, D,
              ClockHost);
  }
  return Rc;
}

//===----------------------------------------------------------------------===//
// The report
//===----------------------------------------------------------------------===//

namespace {

const char *clockName(unsigned Clocks) {
  switch (Clocks & (ClockDevice | ClockHost)) {
  case ClockDevice:
    return "device";
  case ClockHost:
    return "host";
  case ClockDevice | ClockHost:
    return "mixed";
  default:
    return "-";
  }
}

/// A row's time columns: share of `Total`, total, mean, min, max.
void formatTimes(const TimeStats &T, double Total, char (&Time)[5][16]) {
  if (!T.Timed) {
    for (char *Field : Time)
      std::strcpy(Field, "-");
    return;
  }
  std::snprintf(Time[0], 16, "%6.1f%%",
                Total > 0 ? 100 * T.TotalUs / Total : 0.0);
  std::snprintf(Time[1], 16, "%.3f", T.TotalUs / 1e3);
  std::snprintf(Time[2], 16, "%.3f", T.TotalUs / double(T.Timed));
  std::snprintf(Time[3], 16, "%.3f", T.MinUs);
  std::snprintf(Time[4], 16, "%.3f", T.MaxUs);
}

/// One line per call site, and a line per clock where a site mixes them.
void printKernelRows(const std::vector<KernelRow *> &Rows, double Total,
                     std::FILE *Out) {
  for (const KernelRow *R : Rows) {
    char Time[5][16];
    formatTimes(R->All, Total, Time);
    std::fprintf(Out,
                 "%7s %10s %9llu %10s %10s %10s %12llu %9.3f %12llu %11.3f  "
                 "%-6s %s\n",
                 Time[0], Time[1], (unsigned long long)R->Launches, Time[2],
                 Time[3], Time[4], (unsigned long long)R->BytesIn,
                 R->InUs / 1e3, (unsigned long long)R->BytesOut, R->OutUs / 1e3,
                 clockName(R->Clocks), R->W->Label.c_str());
    if (!R->Device.Timed || !R->Host.Timed)
      continue;
    // A row of both clocks: each clock's launches on a line of their own.
    for (auto [Part, Name] :
         {std::pair{&R->Device, "device"}, std::pair{&R->Host, "host"}}) {
      formatTimes(*Part, Total, Time);
      std::fprintf(Out,
                   "%7s %10s %9llu %10s %10s %10s %12s %9s %12s %11s  %-6s "
                   "%s [%s-timed launches]\n",
                   Time[0], Time[1], (unsigned long long)Part->Timed, Time[2],
                   Time[3], Time[4], "", "", "", "", Name, R->W->Label.c_str(),
                   Name);
    }
  }
}

/// What each clock in the table means, for the clocks it shows.
void printClockNotes(const State &S, const std::vector<KernelRow *> &Rows,
                     std::FILE *Out) {
  unsigned Clocks = 0;
  for (const KernelRow *R : Rows)
    Clocks |= R->Clocks;
  for (auto &[K, C] : S.Copies)
    Clocks |= C.Clocks;
  if (Clocks & ClockDevice)
    std::fprintf(Out, "Clock device: measured on the device (the kernel's own "
                      "time from CUPTI; where CUPTI is missing, CUDA events "
                      "around a launch on a queue's stream).\n");
  if (Clocks & ClockHost)
    std::fprintf(Out,
                 "Clock host: NOT device time: host time around a synchronous "
                 "copy, or launch through libomptarget with its overhead "
                 "(%s).\n",
                 S.NoCupti.empty()
                     ? "the host offload target runs the kernel inside it"
                     : ("on CUDA devices: " + S.NoCupti).c_str());
  if (std::any_of(Rows.begin(), Rows.end(), [](const KernelRow *R) {
        return R->Device.Timed && R->Host.Timed;
      }))
    std::fprintf(Out, "Clock mixed: launches of both clocks at one call site; "
                      "each clock's on a line of its own below it.\n");
  if (Clocks & ClockNone)
    std::fprintf(Out, "Clock -: not timed (kernels run on this CPU without a "
                      "device).\n");
}

/// Transfer rows by bytes, largest first, then by place and argument.
bool largestFirst(const CopyRow *A, const CopyRow *B) {
  if (A->Bytes != B->Bytes)
    return A->Bytes > B->Bytes;
  return std::tie(A->W->Label, A->Arg, A->ToDevice) <
         std::tie(B->W->Label, B->Arg, B->ToDevice);
}

/// The copies, by call site and argument, largest first.
void printCopies(const State &S, std::FILE *Out) {
  std::vector<const CopyRow *> Copies;
  for (auto &[K, C] : S.Copies)
    Copies.push_back(&C);
  std::sort(Copies.begin(), Copies.end(), largestFirst);
  std::fprintf(Out, "offload profile: transfers by argument\n");
  std::fprintf(Out, "%-11s %14s %7s %10s  %-6s %-16s %s\n", "Direction",
               "Bytes", "Copies", "Time(ms)", "Clock", "Argument",
               "Kernel @ call site");
  for (const CopyRow *C : Copies)
    std::fprintf(Out, "%-11s %14llu %7llu %10.3f  %-6s %-16s %s\n",
                 C->ToDevice ? "to device" : "from device",
                 (unsigned long long)C->Bytes, (unsigned long long)C->Copies,
                 C->Us / 1e3, clockName(C->Clocks), C->Arg.c_str(),
                 C->W->Label.c_str());
  if (Copies.empty())
    std::fprintf(Out, "(none)\n");
}

/// The copies a launch site made at more than one of its launches: a loop
/// around the launch copies them every iteration (issue 30). Regions' and
/// ofld::copy's rows are not launches.
void printRepeated(const State &S, std::FILE *Out) {
  std::vector<const CopyRow *> Repeated;
  for (auto &[K, C] : S.Copies) {
    auto R = S.Kernels.find(C.W);
    if (C.Copies > 1 && R != S.Kernels.end() && R->second.Launches > 1)
      Repeated.push_back(&C);
  }
  if (Repeated.empty())
    return;
  std::sort(Repeated.begin(), Repeated.end(), largestFirst);
  std::fprintf(Out, "offload profile: copies repeated by a loop (made at "
                    "more than one launch of their call site; an "
                    "ofld::region around the loop keeps the data on the "
                    "device, and -Rpass-missed=offload says why the compiler "
                    "did not)\n");
  for (const CopyRow *C : Repeated)
    std::fprintf(Out, "  '%s' %s %llu times, %llu bytes: %s\n", C->Arg.c_str(),
                 C->ToDevice ? "to device" : "from device",
                 (unsigned long long)C->Copies, (unsigned long long)C->Bytes,
                 C->W->Label.c_str());
}

void printTable(State &S, std::FILE *Out) {
  std::vector<KernelRow *> Rows;
  uint64_t Launches = 0;
  double Total = 0;
  for (auto &[W, R] : S.Kernels)
    if (R.Launches) {
      Rows.push_back(&R);
      Launches += R.Launches;
      Total += R.All.TotalUs;
    }
  std::sort(Rows.begin(), Rows.end(),
            [](const KernelRow *A, const KernelRow *B) {
              if (A->All.TotalUs != B->All.TotalUs)
                return A->All.TotalUs > B->All.TotalUs;
              return A->W->Label < B->W->Label;
            });
  std::fprintf(Out,
               "offload profile: %zu kernel%s, %llu launch%s, %.3f ms of "
               "kernel time\n",
               Rows.size(), Rows.size() == 1 ? "" : "s",
               (unsigned long long)Launches, Launches == 1 ? "" : "es",
               Total / 1e3);
  std::fprintf(Out, "%7s %10s %9s %10s %10s %10s %12s %9s %12s %11s  %-6s %s\n",
               "Time%", "Total(ms)", "Launches", "Mean(us)", "Min(us)",
               "Max(us)", "ToDev(B)", "ToDev(ms)", "FromDev(B)", "FromDev(ms)",
               "Clock", "Kernel @ call site");
  printKernelRows(Rows, Total, Out);
  printClockNotes(S, Rows, Out);
  printCopies(S, Out);
  printRepeated(S, Out);
}

void jsonString(std::FILE *Out, const std::string &Text) {
  std::fputc('"', Out);
  for (unsigned char C : Text) {
    if (C == '"' || C == '\\')
      std::fprintf(Out, "\\%c", C);
    else if (C < 0x20)
      std::fprintf(Out, "\\u%04x", C);
    else
      std::fputc(C, Out);
  }
  std::fputc('"', Out);
}

/// The trace in Chrome's JSON format (Perfetto reads it): one process per
/// device, one thread per queue or host thread.
bool writeTrace(State &S, const std::string &Path) {
  std::FILE *Out = std::fopen(Path.c_str(), "w");
  if (!Out)
    return false;
  std::fprintf(Out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  // Process and thread names first.
  std::map<int64_t, std::map<int, bool>> Lanes;
  for (const TraceEvent &E : S.Trace)
    Lanes[E.Device][E.Lane] = true;
  bool First = true;
  auto Sep = [&] {
    if (!First)
      std::fputs(",\n", Out);
    First = false;
  };
  for (auto &[Device, Threads] : Lanes) {
    int Pid = Device < 0 ? 999 : int(Device);
    Sep();
    std::fprintf(Out,
                 "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,"
                 "\"args\":{\"name\":",
                 Pid);
    jsonString(Out, Device < 0 ? std::string("host CPU (no device)")
                               : "device " + std::to_string(Device) +
                                     (isHostTargetDevice(int(Device))
                                          ? " (host offload target)"
                                          : ""));
    std::fputs("}}", Out);
    for (auto &[Lane, Unused] : Threads) {
      Sep();
      std::fprintf(Out,
                   "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,"
                   "\"tid\":%d,\"args\":{\"name\":",
                   Pid, Lane);
      jsonString(Out,
                 Lane >= 1000 ? "host thread " + std::to_string(Lane - 1000) +
                                    " (host clock)"
                 : Lane == CuptiLane
                     ? std::string("libomptarget's streams (device clock)")
                     : "queue " + std::to_string(Lane) + " (device clock)");
      std::fputs("}}", Out);
    }
  }
  for (const TraceEvent &E : S.Trace) {
    Sep();
    bool Launch = E.Arg.empty();
    std::fputs("{\"name\":", Out);
    jsonString(
        Out, Launch ? E.W->Label
                    : E.Arg + (E.ToDevice ? " to device: " : " from device: ") +
                          E.W->Label);
    std::fprintf(Out,
                 ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,"
                 "\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"kernel\":",
                 Launch ? "launch" : "copy", E.Device < 0 ? 999 : int(E.Device),
                 E.Lane, E.TsUs, E.DurUs);
    jsonString(Out, E.W->Kernel);
    std::fputs(",\"file\":", Out);
    jsonString(Out, E.W->File);
    std::fprintf(Out, ",\"line\":%u,\"clock\":\"%s\"", E.W->Line,
                 clockName(E.Clock));
    if (Launch && E.HasDims)
      std::fprintf(Out, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u]", E.Dims[0],
                   E.Dims[1], E.Dims[2], E.Dims[3], E.Dims[4], E.Dims[5]);
    if (!Launch) {
      std::fputs(",\"argument\":", Out);
      jsonString(Out, E.Arg);
      std::fprintf(Out, ",\"direction\":\"%s\",\"bytes\":%llu",
                   E.ToDevice ? "to device" : "from device",
                   (unsigned long long)E.Bytes);
    }
    std::fputs("}}", Out);
  }
  std::fputs("\n]}\n", Out);
  return std::fclose(Out) == 0;
}

} // namespace

void profile::finish() {
  if (!config().Table)
    return;
  State &S = state();
  {
    std::lock_guard<std::mutex> G(S.Lock);
    if (S.Finished)
      return;
    S.Finished = true;
  }
  // CUPTI's records, outside the lock: flushing calls back on this thread.
  std::unordered_map<uint64_t, cupti::Span> Spans =
      cupti::collect(/*Stop=*/true);
  std::lock_guard<std::mutex> G(S.Lock);
  harvest(S, /*Wait=*/true);
  for (const TaggedLaunch &T : S.Tagged) {
    auto It = Spans.find(T.Tag);
    if (It != Spans.end())
      addLaunch(S, T.W, T.Device, T.Lane, It->second.StartNs / 1e3,
                (It->second.EndNs - It->second.StartNs) / 1e3,
                T.HasDims ? T.Dims : nullptr, ClockDevice);
    else // CUPTI's buffers were full: the time measured otherwise
      addLaunch(S, T.W, T.Device, T.FallbackLane, T.FallbackTsUs,
                T.FallbackDurUs, T.HasDims ? T.Dims : nullptr, T.Fallback);
  }
  if (S.NoCupti.empty() &&
      std::any_of(S.Tagged.begin(), S.Tagged.end(), [&](const TaggedLaunch &T) {
        return T.Fallback == ClockHost && !Spans.count(T.Tag);
      }))
    S.NoCupti = "CUPTI delivered no record for some launches";
  S.Tagged.clear();
  std::fflush(stdout);
  printTable(S, stderr);
  const std::string &Path = config().TracePath;
  if (Path.empty())
    return;
  if (writeTrace(S, Path))
    std::fprintf(stderr, "offload profile: trace of %zu events written to %s\n",
                 S.Trace.size(), Path.c_str());
  else
    std::fprintf(stderr, "offload profile: cannot write %s: %s\n", Path.c_str(),
                 std::strerror(errno));
}

namespace {
/// Programs that register no offload image (no libomptarget teardown to
/// hook) still get their report.
[[gnu::constructor]] void registerFinish() {
  if (config().Table)
    std::atexit(profile::finish);
}
} // namespace
