//===- tools/Watchdog.cpp - a wait for the device that lasts is named -----===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// A kernel that never finishes (a barrier some threads never reach, a flag
// nobody sets) leaves its program blocked in cuStreamSynchronize or in
// libomptarget, with nothing on the screen. Every blocking wait for the
// device holds a Watch naming the launch it waits for; a watchdog thread,
// started by the first Watch, wakes every half second and names a wait in
// which no launch has finished for a while: once, after 60 s, as a warning;
// after OFFLOAD_TIMEOUT seconds (default 600) as an error that ends the
// program. OFFLOAD_TIMEOUT=0 turns it off.
//
// What counts is the time since the last launch finished, not the wait's:
// ofld::wait() for a thousand queued kernels of a second each is no hang.
// Every wait that ends, and a CUDA stream's mark word moving on, counts as a
// launch that finished and starts the clock of every wait again.
//
// A thread keeps its slot (a small mutex and the subject) for its lifetime:
// holding a Watch costs a clock read and an uncontended lock. The slots are
// never freed, so the watchdog may read them while the program exits.
//
//===----------------------------------------------------------------------===//

#include "Environment.h"
#include "tools/Tools.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

using namespace ofld::detail;
using namespace ofld::detail::watchdog;

namespace {

using Clock = std::chrono::steady_clock;

/// Seconds without a finished launch before the warning, and before the
/// error without OFFLOAD_TIMEOUT: longer than any kernel a program means to
/// run in one piece, short enough that a hung job ends.
constexpr double WarnAfter = 60;
constexpr double StopAfter = 600;
/// Threads watched at once; a thread beyond them waits unwatched.
constexpr unsigned MaxSlots = 256;

struct Slot {
  std::mutex Lock;
  bool Active = false;
  uint64_t WaitId = 0, WarnedId = 0;
  /// The wait's start, or the last progress seen since.
  Clock::time_point Since;
  Subject What;
  /// The stream's mark word at the last look.
  uint32_t LastMark = 0;
};

/// Waits that ended: each is a launch (or several) that finished.
std::atomic<uint64_t> Finished{0};

struct Slots {
  Slot S[MaxSlots];
  std::atomic<unsigned> Used{0};
};

Slots &slots() {
  static Slots *All = new Slots; // never freed: read while the program exits
  return *All;
}

/// When a wait without progress is named, and when it ends the program.
struct Limit {
  double Warn = WarnAfter, Stop = StopAfter;
  bool Default = true; ///< no OFFLOAD_TIMEOUT
};

Limit limit() {
  const std::optional<double> &T = environment().Timeout;
  if (!T)
    return Limit{};
  return Limit{std::min(WarnAfter, *T), *T, false};
}

/// The launch a wait is for: the queue's running one where its mark names
/// one of those waited for.
Subject resolve(Subject S) {
  if (!S.Mark || !S.Ring || !S.RingSize)
    return S;
  uint32_t M = __atomic_load_n(S.Mark, __ATOMIC_ACQUIRE);
  if (S.Upto - M < S.InFlight && S.Upto - M < S.RingSize) {
    if (const __ofld_site *Site =
            __atomic_load_n(&S.Ring[M % S.RingSize], __ATOMIC_RELAXED)) {
      S.Kernel = Site->kernel;
      S.File = Site->file;
      S.Line = Site->line;
      S.InFlight = 1;
    }
  }
  return S;
}

/// "kernel 'k' at f.cpp:12", or what is known of the launch.
void describe(const Subject &S, char *Out, std::size_t Size) {
  const char *Kernel = S.Kernel ? S.Kernel : "?";
  if (S.InFlight > 1)
    std::snprintf(Out, Size,
                  "%u launches on device %lld (the oldest: kernel '%s' at "
                  "%s:%u)",
                  S.InFlight, (long long)S.Device, Kernel,
                  S.File ? S.File : "?", S.Line);
  else if (S.Kernel)
    std::snprintf(Out, Size, "kernel '%s' at %s:%u, on device %lld", Kernel,
                  S.File ? S.File : "?", S.Line, (long long)S.Device);
  else if (S.File)
    std::snprintf(Out, Size, "the target region at %s:%u, on device %lld",
                  S.File, S.Line, (long long)S.Device);
  else
    std::snprintf(Out, Size, "a launch on device %lld", (long long)S.Device);
}

/// One look at every wait; may end the program. `Seen`: Finished at the
/// last look.
void inspect(const Limit &L, uint64_t &Seen) {
  Slots &All = slots();
  unsigned Used = std::min(All.Used.load(std::memory_order_acquire), MaxSlots);
  Clock::time_point Now = Clock::now();
  uint64_t Done = Finished.load(std::memory_order_acquire);
  bool Progress = Done != Seen;
  Seen = Done;
  for (unsigned I = 0; I < Used; ++I) {
    Slot &S = All.S[I];
    std::unique_lock<std::mutex> G(S.Lock);
    if (!S.Active)
      continue;
    uint32_t Mark =
        S.What.Mark ? __atomic_load_n(S.What.Mark, __ATOMIC_ACQUIRE) : 0;
    if (Progress || Mark != S.LastMark) {
      S.LastMark = Mark;
      S.Since = Now;
      S.WarnedId = 0;
      continue;
    }
    double Waited = std::chrono::duration<double>(Now - S.Since).count();
    if (Waited < L.Warn || (Waited < L.Stop && S.WarnedId == S.WaitId))
      continue;
    char What[512];
    describe(resolve(S.What), What, sizeof What);
    if (Waited >= L.Stop) {
      std::fflush(stdout);
      if (L.Default)
        std::fprintf(stderr,
                     "offload: %s has not finished after %.0f s: the program "
                     "stops (OFFLOAD_TIMEOUT=<seconds> sets the limit, 0 "
                     "turns it off)\n",
                     What, Waited);
      else
        std::fprintf(stderr,
                     "offload: %s has not finished after %.0f s "
                     "(OFFLOAD_TIMEOUT=%g): the program stops\n",
                     What, Waited, L.Stop);
      std::fflush(nullptr);
      std::_Exit(EXIT_FAILURE);
    }
    S.WarnedId = S.WaitId;
    std::fprintf(
        stderr,
        "offload: warning: %s has run for %.0f s; the program stops "
        "if it has not finished after %.0f s (OFFLOAD_TIMEOUT=<seconds> "
        "sets the limit, 0 turns it off)\n",
        What, Waited, L.Stop);
  }
}

void start() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    Limit L = limit();
    std::thread([L] {
      // Check at least twice per limit, at most every half second.
      auto Period =
          std::chrono::duration<double>(std::clamp(L.Warn / 2, 0.01, 0.5));
      uint64_t Seen = Finished.load();
      for (;;) {
        std::this_thread::sleep_for(Period);
        inspect(L, Seen);
      }
    }).detach();
  });
}

/// The calling thread's slot; null past MaxSlots.
Slot *ownSlot() {
  thread_local Slot *Own = [] {
    unsigned I = slots().Used.fetch_add(1, std::memory_order_acq_rel);
    return I < MaxSlots ? &slots().S[I] : nullptr;
  }();
  return Own;
}

} // namespace

bool watchdog::enabled() {
  static const bool On = !environment().Timeout || *environment().Timeout > 0;
  return On;
}

Watch::Watch(const Subject &What) {
  if (!enabled())
    return;
  Slot *S = ownSlot();
  if (!S)
    return;
  start();
  {
    std::lock_guard<std::mutex> G(S->Lock);
    S->What = What;
    S->LastMark = What.Mark ? __atomic_load_n(What.Mark, __ATOMIC_ACQUIRE) : 0;
    S->Since = Clock::now();
    ++S->WaitId;
    S->Active = true;
  }
  Held = S;
}

Watch::~Watch() {
  if (!Held)
    return;
  auto *S = static_cast<Slot *>(Held);
  {
    std::lock_guard<std::mutex> G(S->Lock);
    S->Active = false;
  }
  Finished.fetch_add(1, std::memory_order_release);
}

namespace {
struct LaunchSite {
  const __ofld_site *Site = nullptr;
  const void *RegionId = nullptr;
};
thread_local LaunchSite NextLaunch;
} // namespace

void watchdog::setLaunchSite(const __ofld_site *Site, const void *RegionId) {
  NextLaunch = {Site, RegionId};
}

Subject watchdog::ofLaunch(const void *Loc, int64_t Device,
                           const void *HostPtr) {
  Subject S;
  S.Device = Device;
  if (NextLaunch.Site &&
      (!NextLaunch.RegionId || NextLaunch.RegionId == HostPtr)) {
    S.Kernel = NextLaunch.Site->kernel;
    S.File = NextLaunch.Site->file;
    S.Line = NextLaunch.Site->line;
    return S;
  }
  // A target region of other OpenMP code: its file and line, if clang
  // recorded them (-g). The ident's string lives as long as the program;
  // the file is copied out of it.
  const auto *Id = static_cast<const omptarget::Ident *>(Loc);
  if (!Id || !Id->Source)
    return S;
  thread_local char File[256];
  const char *P = Id->Source + (*Id->Source == ';');
  const char *Semi = std::strchr(P, ';');
  const char *Line = Semi ? std::strchr(Semi + 1, ';') : nullptr;
  if (!Line || Semi == P)
    return S;
  std::snprintf(File, sizeof File, "%.*s", int(Semi - P), P);
  S.File = File;
  S.Line = unsigned(std::strtoul(Line + 1, nullptr, 10));
  return S;
}
