//===- bench/common/resident.hpp - device-resident arrays for offload() ---===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The resident-data measures of offload() need arrays that stay on the device
// between calls. Where the plugin bundles the resident-data API
// (<offload/region.hpp>, pre-included with offload.hpp) an array is kept by
// an ofld::region; with an older plugin it is mapped with OpenMP
// `target enter data`. Either way offload() finds its span arguments present
// in libomptarget's mapping table and copies nothing (bench/transfers checks
// that), so a timed call is launch + wait plus offload()'s own per-call work.
// The programs print which one they used (resident=region|enter_data).
//
// Results are read back and outputs poisoned through `target update`, which
// works on data present by either route.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_COMMON_RESIDENT_HPP
#define OFFLOAD_BENCH_COMMON_RESIDENT_HPP

#include <cstddef>
#include <span>

namespace bench {

#if defined(OFFLOAD_REGION_HPP)
inline constexpr const char *kResident = "resident=region";
#else
inline constexpr const char *kResident = "resident=enter_data";
#endif

/// Keeps [p, p+n) on the default device for its lifetime (copied in once).
class resident {
public:
  resident(double *p, std::size_t n)
      : p_(p), n_(n)
#if defined(OFFLOAD_REGION_HPP)
        ,
        region_(std::span<double>(p, n))
#endif
  {
#if !defined(OFFLOAD_REGION_HPP)
    double *q = p_;
    std::size_t m = n_;
#pragma omp target enter data map(to : q[0 : m])
#endif
  }
  ~resident() {
#if !defined(OFFLOAD_REGION_HPP)
    double *q = p_;
    std::size_t m = n_;
#pragma omp target exit data map(release : q[0 : m])
#endif
  }
  resident(const resident &) = delete;
  resident &operator=(const resident &) = delete;

  /// Host copy <- device copy (to check results).
  void pull() {
    double *q = p_;
    std::size_t m = n_;
#pragma omp target update from(q[0 : m])
  }
  /// Device copy <- host copy (to poison outputs before a check).
  void push() {
    double *q = p_;
    std::size_t m = n_;
#pragma omp target update to(q[0 : m])
  }

private:
  double *p_;
  std::size_t n_;
#if defined(OFFLOAD_REGION_HPP)
  ofld::region<std::span<double>> region_;
#endif
};

} // namespace bench

#endif // OFFLOAD_BENCH_COMMON_RESIDENT_HPP
