//===- offload/bridge/region.hpp - ofld::region -----------------*- C++ -*-===//
//
// Part of the offload project: GPU offloading for C++ through a Clang plugin.
//
//===----------------------------------------------------------------------===//
//
// Not for users. ofld::region without libofld_rt: its entries mapped on
// the default device (libofld_rt's rule, offload/policy/devices.hpp) as
// their union where they overlap, checked against the device's memory, and
// copied back at the end where a launch wrote into what the region maps to
// the device only.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BRIDGE_REGION_HPP
#define OFFLOAD_BRIDGE_REGION_HPP

#include "offload/bridge/buffer.hpp"

#if defined(_OPENMP) && !defined(OFFLOAD_GPU_DEVICE)
extern "C" inline std::int64_t
__ofld_region_begin(const ofld::detail::region_entry *E, std::int32_t N,
                    const __ofld_place *P) {
  const int D = ofld::bridge::detail::dataDevice(P, "ofld::region", -1);
  if (D == -2 || D == omp_get_initial_device())
    return -1;
  // Overlapping entries are held as their union, like a launch's arguments.
  std::vector<ofld::bridge::range> R;
  for (std::int32_t I = 0; I < N; ++I)
    R.push_back(
        {E[I].ptr, std::size_t(E[I].bytes), ofld::bridge::map_kind(E[I].type)});
  // A region the device cannot hold holds nothing (reported): its launches
  // map their own data, as under the plugin.
  if (int M = ofld::bridge::detail::misfit(D, R.data(), unsigned(N)); M >= 0) {
    ofld::bridge::detail::failAt(
        P, "ofld::region", ofld::policy::capacity::EntryCause,
        (unsigned long long)E[M].bytes, M + 1, (long long)D);
    return -1;
  }
  std::vector<ofld::bridge::detail::span_union> U(R.size());
  unsigned Count =
      ofld::bridge::detail::unite(R.data(), unsigned(R.size()), U.data());
  for (unsigned I = 0; I < Count; ++I)
    ofld::bridge::detail::mapRange(
        true, D, reinterpret_cast<void *>(U[I].First), U[I].Last - U[I].First,
        ofld::bridge::map_kind(U[I].Transfer));
  U.resize(Count);
  {
    namespace d = ofld::bridge::detail;
    std::lock_guard<std::mutex> Guard(d::regionsLock());
    d::regions().push_back({E, D, P ? *P : __ofld_place{nullptr, 0}, U,
                            std::vector<char>(Count, 0)});
    d::regionCount().fetch_add(1);
  }
  return D;
}

// Loop residency is the plugin's: code without it never opens a loop scope.
extern "C" inline void __ofld_loop_enter() {}
extern "C" inline void __ofld_loop_watch(const void *, std::int64_t) {}
extern "C" inline void __ofld_loop_exit() {}

extern "C" inline void __ofld_region_end(std::int64_t D,
                                         const ofld::detail::region_entry *E,
                                         std::int32_t N) {
  namespace d = ofld::bridge::detail;
  if (D < 0)
    return;
  // The end of a region waits: errors of launches that did not wait.
  d::reportDeferred(int(D), -1);
  std::vector<ofld::bridge::range> R;
  for (std::int32_t I = 0; I < N; ++I)
    R.push_back(
        {E[I].ptr, std::size_t(E[I].bytes), ofld::bridge::map_kind(E[I].type)});
  std::vector<d::span_union> U(R.size());
  unsigned Count = d::unite(R.data(), unsigned(R.size()), U.data());
  std::vector<char> Written(Count, 0);
  {
    std::lock_guard<std::mutex> Guard(d::regionsLock());
    std::vector<d::held_region> &All = d::regions();
    for (std::size_t I = All.size(); I-- > 0;)
      if (All[I].key == E && All[I].device == int(D)) {
        if (All[I].written.size() == Count)
          Written = All[I].written;
        All.erase(All.begin() + std::ptrdiff_t(I));
        d::regionCount().fetch_sub(1);
        break;
      }
  }
  for (unsigned I = Count; I-- > 0;) {
    void *Data = reinterpret_cast<void *>(U[I].First);
    const std::size_t Bytes = U[I].Last - U[I].First;
    // A launch wrote into a range mapped to the device only: it comes back.
    if (Written[I])
      d::updateRange(true, int(D), Data, Bytes);
    d::mapRange(false, int(D), Data, Bytes,
                ofld::bridge::map_kind(U[I].Transfer));
  }
}
#endif

#endif // OFFLOAD_BRIDGE_REGION_HPP
