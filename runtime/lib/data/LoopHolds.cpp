//===- data/LoopHolds.cpp - data kept on the device for a loop ------------===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Loop residency (docs/LoopResidency.md): the plugin puts a scope object
// around a loop whose launches map data nothing else in the loop touches
// (__ofld_loop_enter / __ofld_loop_exit, from its constructor and
// destructor, so every way out of the loop ends it), and each such launch
// asks for its ranges to be held (__ofld_loop_hold) before it runs. The
// first request maps a range as an ofld::region would; later ones find it
// held. A loop that launches nothing holds nothing. Holds are per thread, a
// stack of scopes: a launch names its scope by how many scopes of its own
// function lie between (calls in between push and pop their own).
//
// A held range is stale on the host until the loop ends, so a scope holds
// nothing that overlaps what the host touches in the loop under another
// name (__ofld_loop_watch: `fict[t]` where `fict` may be one of the held
// vectors): such a launch maps its own range, as without the loop's hold.
//
//===----------------------------------------------------------------------===//

#include "Environment.h"
#include "Runtime.h"
#include "data/Data.h"

#include "offload/policy/ranges.hpp"
#include "offload/runtime.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

using namespace ofld::detail;

namespace {

/// One held range; its address names the hold (holdRanges' `Holder`), and
/// its fields outlive it (the profile reads the name at the release).
struct LoopRange {
  void *Ptr;
  int64_t Bytes, Type;
  const char *Name;
};

struct LoopScope {
  int64_t Device = -1;
  std::vector<std::unique_ptr<LoopRange>> Held;
  /// What the host touches in the loop: [first, last) addresses.
  std::vector<std::pair<uintptr_t, uintptr_t>> Watched;
};

thread_local std::vector<LoopScope> Scopes;

void release(LoopScope &S) {
  // Reverse order, as a region's end.
  for (auto It = S.Held.rbegin(); It != S.Held.rend(); ++It) {
    LoopRange &R = **It;
    releaseRanges(&R, S.Device, 1, &R.Ptr, &R.Bytes, &R.Type);
  }
  S.Held.clear();
  S.Device = -1;
}

} // namespace

extern "C" void __ofld_loop_enter() { Scopes.emplace_back(); }

extern "C" void __ofld_loop_watch(const void *Ptr, int64_t Bytes) {
  if (Scopes.empty() || Bytes <= 0)
    return;
  auto First = reinterpret_cast<uintptr_t>(Ptr);
  Scopes.back().Watched.push_back({First, First + uintptr_t(Bytes)});
}

extern "C" void __ofld_loop_exit() {
  if (Scopes.empty())
    return;
  release(Scopes.back());
  Scopes.pop_back();
}

extern "C" void __ofld_loop_hold(const __ofld_site *Site, int32_t Depth,
                                 int64_t Device, void *Ptr, int64_t Bytes,
                                 int64_t Type, const char *Name) {
  // On the CPU the launch uses the host's memory: nothing to hold.
  if (Device < 0 || Depth < 0 || size_t(Depth) >= Scopes.size())
    return;
  LoopScope &S = Scopes[Scopes.size() - 1 - size_t(Depth)];
  // A launch on another device than the loop's earlier ones: what the
  // first device holds goes back to the host, then moves to this one.
  if (!S.Held.empty() && S.Device != Device)
    release(S);
  for (const auto &R : S.Held)
    if (R->Ptr == Ptr && R->Bytes == Bytes)
      return;
  auto First = reinterpret_cast<uintptr_t>(Ptr);
  for (auto [WFirst, WLast] : S.Watched)
    if (ofld::policy::overlaps(First, First + uintptr_t(Bytes), WFirst,
                               WLast)) {
      if (environment().logsCopies())
        std::fprintf(stderr,
                     "offload device %lld info: Not keeping %s on the device "
                     "for the loop: the host touches its memory under another "
                     "name\n",
                     (long long)Device, mapName(Name).c_str());
      return;
    }
  // Held already by a region, a launch group or a buffer around the loop:
  // nothing moves per launch, and that holder's rules (a region's to-only
  // entries, its warning) stay in force.
  if (residentAddress(Device, Ptr, Bytes))
    return;
  auto R = std::make_unique<LoopRange>(LoopRange{Ptr, Bytes, Type, Name});
  // A range the device cannot hold is reported and not held: the launch
  // maps its own. A held range is resident (Residency.cpp): a launch on it
  // that fails stops the program rather than run on the stale host copy.
  if (!holdRanges(R.get(), HoldKind::Group, Site, nullptr, Device, 1, &R->Ptr,
                  &R->Bytes, &R->Type, &R->Name))
    return;
  S.Device = Device;
  S.Held.push_back(std::move(R));
}
