//===- offload/bridge/data.hpp - data on the device -------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. The OpenMP maps and updates of the ranges of a launch,
// a launch group or an ofld::region: merged where they overlap
// (offload/policy/ranges.hpp), checked against the device's memory first
// (offload/policy/capacity.hpp), and the ranges a region maps to the device
// only that a launch writes, which the region copies back at its end.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_DATA_HPP
#define OFFLOAD_BRIDGE_DATA_HPP

#include "offload/bridge/cuda.hpp"
#include "offload/bridge/devices.hpp"
#include "offload/bridge/params.hpp"
#include "offload/policy/ranges.hpp"

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
namespace ofld::bridge {
namespace detail {

/// Copies one range of device `D` to the host (`ToHost`) or back; nothing
/// where the range is not present there (OpenMP 5.0's `target update`).
inline void updateRange(bool ToHost, int D, void *Data, std::size_t Bytes) {
  char *P = static_cast<char *>(Data);
  (void)P; // g++ does not count uses in the motion clauses
  if (ToHost) {
#pragma omp target update from(P[0 : Bytes]) device(D)
  } else {
#pragma omp target update to(P[0 : Bytes]) device(D)
  }
}

/// OpenMP map of one range on device `D` (enter when `Enter`, else exit).
inline void mapRange(bool Enter, int D, void *Data, std::size_t Bytes,
                     map_kind K) {
  char *P = static_cast<char *>(Data);
  (void)P; // g++ does not count uses in the map clauses
  if (Enter && (K & to)) {
#pragma omp target enter data map(to : P[0 : Bytes]) device(D)
  } else if (Enter) {
#pragma omp target enter data map(alloc : P[0 : Bytes]) device(D)
  } else if (K & from) {
#pragma omp target exit data map(from : P[0 : Bytes]) device(D)
  } else {
#pragma omp target exit data map(release : P[0 : Bytes]) device(D)
  }
}

/// Ranges merged where they overlap (offload/policy/ranges.hpp).
using span_union = ofld::policy::RangeUnion;
/// Merges `N` ranges (empty ones are skipped) into at most `N` unions.
inline unsigned unite(const range *R, unsigned N, span_union *Out) {
  return ofld::policy::uniteRanges(
      N, [&](unsigned I) { return std::uintptr_t(R[I].data); },
      [&](unsigned I) { return R[I].bytes; },
      [&](unsigned I) { return std::int64_t(R[I].kind); }, Out);
}

/// What the ofld::regions of the program hold, per OpenMP device: a launch
/// that writes into a range a region maps to the device only (an entry
/// `std::span<const T>`) marks it, and the region copies it back at its
/// end, as the plugin's runtime does (docs/StreamOrdering.md).
struct held_region {
  const void *key; ///< the region's entries
  int device;
  __ofld_place place;
  std::vector<span_union> ranges;
  std::vector<char> written;
};
inline std::mutex &regionsLock() {
  static std::mutex M;
  return M;
}
inline std::vector<held_region> &regions() {
  static std::vector<held_region> R;
  return R;
}
/// How many regions hold data on a device: launches look only if any do.
inline std::atomic<unsigned> &regionCount() {
  static std::atomic<unsigned> N{0};
  return N;
}

/// Marks what launch `G` writes through `R` (to and from the device) into
/// ranges that regions on its device map to the device only, and warns once
/// per call site (unless offload-rewrite did).
inline void markWrites(const grid &G, const range &R) {
  if (!regionCount().load(std::memory_order_relaxed))
    return;
  const std::uintptr_t First = std::uintptr_t(R.data), Last = First + R.bytes;
  __ofld_place Place{nullptr, 0};
  {
    std::lock_guard<std::mutex> Guard(regionsLock());
    bool Any = false, AllToOnly = true;
    for (const held_region &H : regions())
      if (H.device == G.device)
        for (const span_union &U : H.ranges)
          if (U.First <= First && Last <= U.Last) {
            Any = true;
            AllToOnly &= !(U.Transfer & from);
          }
    if (!Any || !AllToOnly)
      return;
    for (held_region &H : regions())
      if (H.device == G.device)
        for (std::size_t I = 0; I < H.ranges.size(); ++I)
          if (H.ranges[I].First <= First && Last <= H.ranges[I].Last) {
            H.written[I] = 1;
            Place = H.place;
          }
  }
  if (G.at.flags & warned_const)
    return;
  static std::mutex Lock;
  static std::vector<std::pair<const char *, unsigned>> Seen;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    for (const auto &[File, Line] : Seen)
      if (Line == G.at.line && !std::strcmp(File, G.at.file))
        return;
    Seen.emplace_back(G.at.file, G.at.line);
  }
  char Where[512] = "";
  if (Place.file)
    std::snprintf(Where, sizeof(Where), " at %s:%u", Place.file,
                  unsigned(Place.line));
  std::fprintf(stderr,
               "offload: warning: kernel '%s' at %s:%u writes through '%s' "
               "into memory that the ofld::region%s maps to the device only "
               "(std::span<const T>); the region copies it back at its end\n",
               G.at.kernel, G.at.file, G.at.line, R.name, Where);
}

/// The first of the `N` ranges of `R` that device `D` cannot hold, by the
/// plugin's runtime's rule (offload/policy/capacity.hpp), or -1.
inline int misfit(int D, const range *R, unsigned N) {
  return capacity::firstMisfitOf(
      N, [&](unsigned I) { return R[I].data; },
      [&](unsigned I) { return std::uint64_t(R[I].bytes); },
      [&](unsigned I) { return omp_target_is_present(R[I].data, D) != 0; },
      [&] { return freeBytes(D); },
      [&](std::uint64_t Bytes) {
        return omp_target_alloc(std::size_t(Bytes), D);
      },
      [&](void *P) { omp_target_free(P, D); });
}

/// Whether device `D` can hold the ranges of launch `G` it does not hold
/// yet; reports the first that it cannot.
inline bool fits(const grid &G, const range *R, unsigned N) {
  const int M = misfit(G.device, R, N);
  if (M < 0)
    return true;
  failLaunch(G, capacity::ArgumentCause, (unsigned long long)R[M].bytes,
             R[M].name, (long long)G.device);
  return false;
}

} // namespace detail
} // namespace ofld::bridge
#endif

#endif // OFFLOAD_BRIDGE_DATA_HPP
