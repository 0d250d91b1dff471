//===- offload/policy/loop_watch.hpp - what a loop's host reads -*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. A loop that keeps data on the device (docs/LoopResidency.md)
// may still read, on the host, a container or reference that is one of the
// held variables under another name (`fict[t]` where the caller passed `ey`
// as `fict`). The compiler cannot tell, so at the loop's entry it names what
// such reads reach, and no range overlapping that is held: the launches map
// their own, as without the loop's hold. libofld_rt (data/LoopHolds.cpp,
// through ofld::detail::loop_watch) and offload-rewrite's bridge
// (ofld::bridge::loop_hold::watch) both decide by this rule.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_POLICY_LOOP_WATCH_HPP
#define OFFLOAD_POLICY_LOOP_WATCH_HPP

#include <cstddef>
#include <cstdint>

namespace ofld::policy {

/// What the host reaches through `X`: the object itself, and the elements a
/// container owns or views (its data() for size() elements). `Each(First,
/// Bytes)` is called for each.
template <class T, class F> void watchedRanges(const T &X, F Each) {
  Each(reinterpret_cast<std::uintptr_t>(&X), sizeof(T));
  if constexpr (requires { X.data() + X.size(); })
    Each(reinterpret_cast<std::uintptr_t>(X.data()),
         std::size_t(X.size()) * sizeof(*X.data()));
}

} // namespace ofld::policy

#endif // OFFLOAD_POLICY_LOOP_WATCH_HPP
