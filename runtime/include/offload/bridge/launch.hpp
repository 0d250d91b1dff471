//===- offload/bridge/launch.hpp - the launch of a call ---------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. What a rewritten call does around its target construct:
// `shape` gives the launch its grid and device by the plugin's rules
// (offload/launch.hpp, offload/policy/), `group_fits` decides whether a
// launch group's data stays on the device, `aliases` maps what the
// construct's own clauses cannot, and `loop_hold` keeps a loop's data on the
// device. Builds without OpenMP run every launch on
// this CPU; device compilations see declarations only.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_LAUNCH_HPP
#define OFFLOAD_BRIDGE_LAUNCH_HPP

#include "offload/bridge/data.hpp"
#include "offload/bridge/teams.hpp"
#include "offload/policy/loop_watch.hpp"
#include "offload/policy/ranges.hpp"

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
namespace ofld::bridge {
namespace detail {

/// Makes `G` a launch that does not run: an empty grid on the host, whose
/// construct maps nothing.
inline void skip(grid &G) {
  for (int I = 0; I < 6; ++I) {
    G.dims[I] = 0;
    G.hw[I] = 1;
  }
  G.device = devices().initial;
  G.cpu = true;
  G.moved_from = -1;
  G.teams = G.threads = 1;
}

} // namespace detail

/// The launch shape of a rewritten call: `L` is the call's ofld::launch
/// (null: the default shape), `Extent` what the kernel's bounds check admits
/// per dimension, as offload-rewrite spelled it from the arguments. The
/// plugin's rule, from offload/launch.hpp (lacks_bound: no grid and no bound
/// is an error; default_dims: an unset grid or block is the default shape; a
/// zero component launches nothing), and the plugin's device rule. `.nowait`
/// launches run at once: every launch finishes in order.
inline grid shape(const site &S, const ofld::launch *L,
                  const long long Extent[3]) {
  ofld::launch Shape = L ? *L : ofld::launch{};
  grid G{};
  G.device = detail::devices().initial;
  G.cpu = true;
  G.moved_from = -1;
  G.hooks = &detail::HostHooks;
  G.at = S;
  G.nowait = Shape.nowait;
  G.queue = Shape.queue.index_;
  // The plugin's order: the device, then the shape (offload/launch.hpp:
  // the default shape, any zero component launching nothing, the limits).
  // A launch runs on its queue's device.
  const int Device =
      detail::selectDevice(&S, Shape.device, Shape.queue.device());
  if (Device == -2)
    return G;
  // The runtime's words for a launch that gives no grid to a kernel without
  // a bound (launch.hpp); it does not run, as a shape beyond the limits.
  if (ofld::detail::lacks_bound(&Shape, Extent)) {
    char Cause[320];
    __ofld::unbounded_cause(Cause, sizeof(Cause), Extent);
    detail::fail(&S, "%s", Cause);
    return G; // an empty grid on the host
  }
  std::uint64_t Dims[6];
  ofld::detail::default_dims(&Shape, Extent, Dims);
  // An empty grid launches nothing and copies nothing, as under the plugin.
  if (ofld::detail::is_empty(Dims)) {
    detail::skip(G);
    return G;
  }
  // The runtime's words for a shape beyond the limits (launch.hpp). The
  // bridge cannot ask a device for its own; a GPU's are NVIDIA's, which the
  // runtime names as the device's.
  if (char Cause[256]; __ofld::limit_cause(
          Cause, sizeof(Cause), Dims, ofld::detail::portable_max_grid,
          ofld::detail::portable_max_block,
          ofld::detail::portable_max_threads)) {
    char Whose[64] = "";
    if (!detail::runsOnCpu(Device))
      std::snprintf(Whose, sizeof(Whose), " of device %d", Device);
    detail::fail(
        &S, "%s%s%s", Cause, Whose,
        __ofld::default_grid_hint(L, Dims, ofld::detail::portable_max_grid));
    return G; // an empty grid on the host
  }
  if (char Cause[256];
      __ofld::shared_cause(Cause, sizeof(Cause), Shape.shared_bytes,
                           ofld::detail::portable_max_shared_bytes)) {
    char Whose[64] = "";
    if (!detail::runsOnCpu(Device))
      std::snprintf(Whose, sizeof(Whose), " of device %d", Device);
    detail::fail(&S, "%s%s", Cause, Whose);
    return G; // an empty grid on the host
  }
  for (int I = 0; I < 6; ++I)
    G.dims[I] = G.hw[I] = std::uint32_t(Dims[I]);
  G.shared_bytes = std::uint32_t(Shape.shared_bytes);
  G.device = Device;
  G.cpu = detail::runsOnCpu(Device);
  const std::uint64_t Blocks = std::uint64_t(G.hw[0]) * G.hw[1] * G.hw[2];
  const std::uint32_t Threads = G.hw[3] * G.hw[4] * G.hw[5];
  if (G.cpu) {
    // A CPU runs the whole grid on one thread, as the plugin's CPU grid does:
    // a league of threads costs more to start and join than most launches
    // take (and would race where blocks do).
    G.teams = G.threads = 1;
    for (std::uint32_t &H : G.hw)
      H = 1;
    return G;
  }
#if !OFFLOAD_BRIDGE_BARE
  const detail::team_limits &Limits = detail::teamLimits(Device);
  const bool Syncing =
      (S.flags & synchronises) && Threads > detail::syncingTeam(Limits);
  if (Syncing || (S.flags & warp_level)) {
    // The block cannot run one OpenMP thread per kernel thread, or the
    // kernel exchanges values between the lanes of a warp, which OpenMP's
    // threads are not: run the launch on this CPU's grid (whose fibers
    // synchronise any block, and warps of 32 lanes), with the device's
    // copies of its data (aliases).
    if (Syncing)
      detail::note(S,
                   "runs on the host: its blocks of %u threads synchronise, "
                   "and OpenMP teams on device %d are sure to hold at most %u "
                   "threads",
                   Threads, Device, detail::syncingTeam(Limits));
    else
      detail::note(S,
                   "runs on the host: it calls warp functions (ofld::shfl, "
                   "ofld::ballot, ...), which OpenMP teams on device %d do "
                   "not provide",
                   Device);
    G.moved_from = Device;
    G.device = detail::devices().initial;
    G.cpu = true;
    G.teams = G.threads = 1;
    for (std::uint32_t &H : G.hw)
      H = 1;
    return G;
  }
  if (G.shared_bytes > detail::team_arena::Bytes) {
    // The team's shared memory is an array on its stack (run.hpp): run the
    // launch on this CPU's grid, as a block too large to synchronise.
    detail::note(S,
                 "runs on the host: it asks for %u bytes of dynamic shared "
                 "memory, and OpenMP teams on device %d hold %u",
                 G.shared_bytes, Device, detail::team_arena::Bytes);
    G.moved_from = Device;
    G.device = detail::devices().initial;
    G.cpu = true;
    G.teams = G.threads = 1;
    for (std::uint32_t &H : G.hw)
      H = 1;
    return G;
  }
  if (const std::size_t Room = detail::stackForCopies(Limits);
      Room && S.copies > Room) {
    // A larger copy would overflow into other warps' stacks (silently
    // wrong) or out of the stacks' memory (an illegal address).
    detail::fail(&S,
                 "its by-value parameters that it modifies take %zu bytes, "
                 "which each kernel thread copies onto the stack; g++'s "
                 "OpenMP runtime leaves them %zu of the %lu bytes per warp "
                 "on device %d: pass the object in a std::span",
                 S.copies, Room, Limits.stack, Device);
    detail::skip(G);
    return G;
  }
  if (!Limits.slots) {
    detail::fail(&S, "cannot allocate the grid state on device %d", Device);
    detail::skip(G);
    return G;
  }
  G.threads = Threads < Limits.threads ? Threads : Limits.threads;
  G.teams = std::uint32_t(Blocks < Limits.teams ? Blocks : Limits.teams);
  G.slots = Limits.slots;
#else
  G.teams = std::uint32_t(Blocks < 0x7fffffffu ? Blocks : 0x7fffffffu);
  G.threads = Threads;
#endif
  return G;
}

/// The OpenMP device of launches that name none (the data of a launch
/// group is held there); problems are reported by the launches.
inline int default_device() {
  int D = detail::selectDevice(nullptr, -1);
  return D == -2 ? omp_get_initial_device() : D;
}

/// Whether the default device can hold the ranges of a launch group whose
/// first launch is at `S`: its `target data` holds them only then (`if`
/// clause), as the plugin's runtime does; else the first it cannot hold is
/// reported and the group's launches map (and check) their own data.
inline bool group_fits(const site &S, std::initializer_list<range> Ranges) {
  const int D = default_device();
  if (D == omp_get_initial_device())
    return true;
  const int M = detail::misfit(D, Ranges.begin(), unsigned(Ranges.size()));
  if (M < 0)
    return true;
  const range &R = Ranges.begin()[M];
  detail::fail(&S, detail::capacity::ArgumentCause, (unsigned long long)R.bytes,
               R.name, (long long)D);
  return false;
}

/// The data of one launch around its target construct:
///  * the union of arguments that overlap (the same buffer as a
///    std::span<const T> and a std::span<T>, a sub-span of another argument)
///    is mapped for the duration of the launch, as the plugin does: the map
///    clauses of the construct then find their ranges present, and what a
///    kernel writes through one comes back with the union;
///  * a launch that runs on the host instead of its device (shape()) reads
///    the device's copies of data held there (a launch group, a region) and
///    writes back what it may have written.
class aliases {
public:
  aliases(grid &G, std::initializer_list<range> Ranges)
      : Device(G.device), MovedFrom(G.moved_from) {
    if (Ranges.size() > MaxRanges || !G.dims[0])
      return;
    if (MovedFrom < 0 && Device != detail::devices().initial) {
      if (!detail::fits(G, Ranges.begin(), unsigned(Ranges.size()))) {
        // The launch does not run; its construct maps nothing.
        detail::skip(G);
        Device = G.device;
        return;
      }
      for (const range &R : Ranges)
        if ((R.kind & from) && R.bytes)
          detail::markWrites(G, R);
    }
    if (MovedFrom >= 0) {
      for (const range &R : Ranges)
        Held[Count++] = {std::uintptr_t(R.data),
                         std::uintptr_t(R.data) + R.bytes, R.kind, false};
      for (unsigned I = 0; I < Count; ++I)
        detail::updateRange(true, MovedFrom, data(I), bytes(I));
      return;
    }
    detail::span_union All[MaxRanges];
    unsigned N = detail::unite(Ranges.begin(), unsigned(Ranges.size()), All);
    for (unsigned I = 0; I < N; ++I)
      if (All[I].Merged)
        Held[Count++] = All[I];
    for (unsigned I = 0; I < Count; ++I)
      detail::mapRange(true, Device, data(I), bytes(I),
                       map_kind(Held[I].Transfer));
  }
  ~aliases() {
    for (unsigned I = Count; I-- > 0;) {
      if (MovedFrom < 0)
        detail::mapRange(false, Device, data(I), bytes(I),
                         map_kind(Held[I].Transfer));
      else if (Held[I].Transfer & from)
        detail::updateRange(false, MovedFrom, data(I), bytes(I));
    }
  }
  aliases(const aliases &) = delete;
  aliases &operator=(const aliases &) = delete;

private:
  static constexpr unsigned MaxRanges = 16;
  void *data(unsigned I) const {
    return reinterpret_cast<void *>(Held[I].First);
  }
  std::size_t bytes(unsigned I) const { return Held[I].Last - Held[I].First; }
  detail::span_union Held[MaxRanges];
  unsigned Count = 0;
  int Device, MovedFrom;
};

/// The data a loop's launches keep on the device (offload-rewrite's loop
/// residency, docs/LoopResidency.md), as the plugin's loop scopes do: the
/// loop's first launch that runs on a device maps `Ranges` there (hold),
/// later ones find them present, and the loop's end, however it is left
/// (an exception too), copies back what may have been written and releases
/// them. A loop that launches nothing moves nothing. A launch on another
/// device (or on the host) first has the ranges copied back from the one
/// that holds them.
/// Ranges the device cannot hold with the launches' own are not held: each
/// launch then maps (and checks) its own data.
class loop_hold {
public:
  loop_hold(std::initializer_list<range> Ranges) {
    if (Ranges.size() > MaxRanges)
      return;
    N = detail::unite(Ranges.begin(), unsigned(Ranges.size()), Held);
    Given.assign(Ranges.begin(), Ranges.end());
  }
  /// What the host reads in the loop under a name a held variable may share
  /// (offload/policy/loop_watch.hpp): no range overlapping it is held.
  template <class T> void watch(const T &X) {
    ofld::policy::watchedRanges(X, [&](std::uintptr_t First, std::size_t B) {
      Watched.push_back({First, First + B});
    });
  }
  /// Called by each launch of the loop once its grid is known.
  void hold(const grid &G) {
    if (!G.dims[0] || G.moved_from >= 0 || G.device == Tried || !N)
      return;
    Tried = G.device;
    // A launch on the host reads the host's memory: bring it back first.
    if (G.device == detail::devices().initial) {
      release();
      Tried = -1;
      return;
    }
    release();
    if (detail::misfit(G.device, Given.data(), unsigned(Given.size())) >= 0)
      return;
    for (unsigned I = 0; I < N; ++I) {
      Kept[I] = true;
      for (auto [First, Last] : Watched)
        Kept[I] &=
            !ofld::policy::overlaps(Held[I].First, Held[I].Last, First, Last);
      if (Kept[I])
        detail::mapRange(true, G.device, data(I), bytes(I),
                         map_kind(Held[I].Transfer));
    }
    Device = G.device;
  }
  ~loop_hold() { release(); }
  loop_hold(const loop_hold &) = delete;
  loop_hold &operator=(const loop_hold &) = delete;

private:
  static constexpr unsigned MaxRanges = 16;
  void release() {
    if (Device < 0)
      return;
    for (unsigned I = N; I-- > 0;)
      if (Kept[I])
        detail::mapRange(false, Device, data(I), bytes(I),
                         map_kind(Held[I].Transfer));
    Device = -1;
  }
  void *data(unsigned I) const {
    return reinterpret_cast<void *>(Held[I].First);
  }
  std::size_t bytes(unsigned I) const { return Held[I].Last - Held[I].First; }
  detail::span_union Held[MaxRanges];
  bool Kept[MaxRanges] = {};
  std::vector<range> Given;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> Watched;
  unsigned N = 0;
  /// The device that holds the ranges; the last one asked to (once each).
  int Device = -1, Tried = -1;
};

} // namespace ofld::bridge
#elif !defined(_OPENMP)
namespace ofld::bridge {
/// Without OpenMP every launch runs here, on the CPU grid; one that gives
/// no grid to a kernel without a bound is reported (cpu_fallback.hpp's
/// __ofld_report_error) and runs no thread.
inline grid shape(const site &S, const ofld::launch *L,
                  const long long Extent[3]) {
  ofld::launch Shape = L ? *L : ofld::launch{};
  grid G{};
  G.cpu = true;
  G.moved_from = -1;
  G.teams = G.threads = 1;
  if (ofld::detail::lacks_bound(&Shape, Extent)) {
    char Cause[320], Message[512];
    __ofld::unbounded_cause(Cause, sizeof(Cause), Extent);
    std::snprintf(Message, sizeof(Message), "offload: kernel '%s' at %s:%u: %s",
                  S.kernel, S.file, S.line, Cause);
    __ofld_report_error(Message);
    return G;
  }
  char Cause[256], Message[512];
  if (__ofld::shared_cause(Cause, sizeof(Cause), Shape.shared_bytes,
                           ofld::detail::portable_max_shared_bytes)) {
    std::snprintf(Message, sizeof(Message), "offload: kernel '%s' at %s:%u: %s",
                  S.kernel, S.file, S.line, Cause);
    __ofld_report_error(Message);
    return G;
  }
  std::uint64_t Dims[6];
  ofld::detail::default_dims(&Shape, Extent, Dims);
  const bool Empty = ofld::detail::is_empty(Dims);
  for (int I = 0; I < 6; ++I)
    G.dims[I] = G.hw[I] = Empty ? 0 : std::uint32_t(Dims[I]);
  G.shared_bytes = std::uint32_t(Shape.shared_bytes);
  return G;
}
inline int default_device() { return 0; }
inline bool group_fits(const site &, std::initializer_list<range>) {
  return true;
}
class aliases {
public:
  aliases(const grid &, std::initializer_list<range>) {}
};
class loop_hold {
public:
  loop_hold(std::initializer_list<range>) {}
  template <class T> void watch(const T &) {}
  void hold(const grid &) {}
};
} // namespace ofld::bridge
#else
// Device compilations parse the host code around target regions too, also
// offload() calls that offload-rewrite left as they were (they run on the
// CPU, in the host compilation).
template <class... P>
void offload(void (*kernel)(P...), const std::type_identity_t<P> &...args);
template <class... P>
void offload(const ofld::launch &shape, void (*kernel)(P...),
             const std::type_identity_t<P> &...args);
namespace ofld::bridge {
grid shape(const site &S, const ofld::launch *L, const long long Extent[3]);
int default_device();
bool group_fits(const site &S, std::initializer_list<range> Ranges);
class aliases {
public:
  aliases(const grid &, std::initializer_list<range>);
  ~aliases();
};
class loop_hold {
public:
  loop_hold(std::initializer_list<range>);
  ~loop_hold();
  template <class T> void watch(const T &) {}
  void hold(const grid &);
};
} // namespace ofld::bridge
#endif

#endif // OFFLOAD_BRIDGE_LAUNCH_HPP
