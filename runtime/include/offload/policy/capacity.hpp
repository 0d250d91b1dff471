//===- offload/policy/capacity.hpp - does a mapping fit ---------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. The one rule by which the plugin's runtime
// (runtime/lib/MapPlan.cpp) and offload-rewrite's bridge
// (offload/bridge/data.hpp) decide, before a launch, an ofld::region or a
// launch group maps ranges the device does not hold yet, whether it can
// hold them. The OpenMP runtimes cannot say no: where a mapping's
// allocation fails libomptarget aborts the process and libgomp exits with
// its own words. So a mapping that cannot fit is found first and reported
// as offload's named error.
//
//  * A range counts when it is larger than CheckedAbove (4 MiB) and not on
//    the device yet (the caller asks).
//  * Where the device's free memory can be asked (CUDA: cuMemGetInfo), the
//    counted ranges fit when their sum, each rounded up to the allocation
//    granule, and a reserve do. Nothing else is done then: the common case.
//  * Otherwise the counted ranges are allocated for trial, each kept until
//    all are tried (they must fit together), then freed; the first that
//    cannot be allocated is reported. The trial decides where the free
//    memory says no (an allocator's pool may still serve it). Where there is
//    no answer (the host offload target, AMD GPUs) only ranges of
//    TrialFrom (1 GiB) or more are tried: a trial allocation and its freeing
//    (which synchronises the device) cost more than a smaller mapping risks.
//
// Why 4 MiB: cuMemGetInfo took 6.4 to 7.0 us per call on an H100 (driver
// 580, 2026-11-24): about 8% of a launch that copies three 64 KiB ranges
// in and out (90 us, measured), 1 to 2% of one that maps a 4 MiB range
// (copies run at about 90 us per MiB there). Smaller ranges are not
// checked; docs/Troubleshooting.md says what happens to them on a full
// device.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_POLICY_CAPACITY_HPP
#define OFFLOAD_POLICY_CAPACITY_HPP

#include <cstdint>
#include <vector>

namespace ofld::policy::capacity {

/// Ranges of at most this many bytes are not checked (see above).
inline constexpr std::uint64_t CheckedAbove = std::uint64_t(4) << 20;
/// Without a free-memory answer, ranges from this size on are tried.
inline constexpr std::uint64_t TrialFrom = std::uint64_t(1) << 30;
/// The device allocator's granule: a range takes whole granules.
inline constexpr std::uint64_t Granule = std::uint64_t(2) << 20;
/// Free memory the launch itself may need besides its ranges.
inline constexpr std::uint64_t Reserve = std::uint64_t(64) << 20;
/// A free-memory answer that says nothing.
inline constexpr std::uint64_t NoAnswer = ~std::uint64_t(0);
/// Trial allocations kept at once; beyond, each is freed at once.
inline constexpr unsigned MaxHeldTrials = 16;

/// Whether a range of `Bytes` is checked at all: the caller then asks
/// whether the device holds it already (a counted range is one it does not).
constexpr bool checked(std::uint64_t Bytes) { return Bytes > CheckedAbove; }

/// The device memory a counted range of `Bytes` takes.
constexpr std::uint64_t footprint(std::uint64_t Bytes) {
  return Bytes > NoAnswer - Granule ? NoAnswer
                                    : (Bytes + Granule - 1) / Granule * Granule;
}

/// Whether counted ranges of `Bytes(0..N-1)` bytes (0: not counted) surely
/// fit in `Free` bytes of device memory.
template <class BytesFn>
constexpr bool surelyFits(unsigned N, BytesFn Bytes, std::uint64_t Free) {
  if (Free == NoAnswer)
    return false;
  std::uint64_t Need = Reserve;
  for (unsigned I = 0; I < N; ++I) {
    std::uint64_t F = footprint(Bytes(I));
    if (F > NoAnswer - Need)
      return false;
    Need += F;
  }
  return Need <= Free;
}

/// The index of the first of `N` ranges that the device cannot hold, or
/// -1. `Bytes(I)` is the size of range I if it counts, else 0; `Free` the
/// device's free bytes or NoAnswer; `Try(Bytes)` allocates for trial (null
/// where it cannot), `Release(Ptr)` frees a trial allocation.
template <class BytesFn, class TryFn, class ReleaseFn>
int firstMisfit(unsigned N, BytesFn Bytes, std::uint64_t Free, TryFn Try,
                ReleaseFn Release) {
  if (surelyFits(N, Bytes, Free))
    return -1;
  const std::uint64_t From = Free == NoAnswer ? TrialFrom : CheckedAbove + 1;
  void *Held[MaxHeldTrials];
  unsigned Count = 0;
  int Misfit = -1;
  for (unsigned I = 0; I < N && Misfit < 0; ++I) {
    std::uint64_t B = Bytes(I);
    if (B < From)
      continue;
    void *P = Try(B);
    if (!P)
      Misfit = int(I);
    else if (Count < MaxHeldTrials)
      Held[Count++] = P;
    else
      Release(P);
  }
  while (Count)
    Release(Held[--Count]);
  return Misfit;
}

/// The first of `N` ranges that the device cannot hold, or -1: the rule
/// above applied to a launch's, region's or group's ranges. `Ptr(I)` and
/// `Bytes(I)` give range I; a checked range counts unless the same range
/// came before or `Present(I)`. `Free()` (the device's free bytes or
/// NoAnswer), `Try` and `Release` are asked only when a range counts, so
/// ranges of at most CheckedAbove cost nothing more than this loop.
template <class PtrFn, class BytesFn, class PresentFn, class FreeFn,
          class TryFn, class ReleaseFn>
int firstMisfitOf(unsigned N, PtrFn Ptr, BytesFn Bytes, PresentFn Present,
                  FreeFn Free, TryFn Try, ReleaseFn Release) {
  std::vector<std::uint64_t> Counted;
  for (unsigned I = 0; I < N; ++I) {
    const std::uint64_t B = Bytes(I);
    if (!checked(B))
      continue;
    bool Seen = false;
    for (unsigned J = 0; J < I && !Seen; ++J)
      Seen = Ptr(J) == Ptr(I) && Bytes(J) == B;
    if (Seen || Present(I))
      continue;
    Counted.resize(N, 0);
    Counted[I] = B;
  }
  if (Counted.empty())
    return -1;
  return firstMisfit(
      N, [&](unsigned I) { return Counted[I]; }, Free(), Try, Release);
}

/// The causes reported for a misfit, in every build's words: a launch's
/// or launch group's argument (bytes, its spelling, the device), a region's
/// entry (bytes, its number from 1, the device).
inline constexpr const char *ArgumentCause =
    "cannot map %llu bytes of '%s' on device %lld: out of device memory";
inline constexpr const char *EntryCause =
    "cannot map %llu bytes of entry %d on device %lld: out of device memory";

} // namespace ofld::policy::capacity

#endif // OFFLOAD_POLICY_CAPACITY_HPP
