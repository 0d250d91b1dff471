//===- bench/apps/kmeans/ref.hpp - k-means assignment inputs and check ----===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The assignment step of k-means (Lloyd's algorithm, as in Rodinia's kmeans):
// each of n points of kDims float features goes to the nearest of kClusters
// centroids (squared Euclidean distance, the first of equals). Features are
// stored feature-major (feature f of point i at f * n + i) so that the
// threads of a warp read consecutive addresses; each block first copies the
// centroids (kClusters * kDims floats) into block-shared memory.
//
// Rounding can reorder near-ties, so the check accepts a centroid whose
// distance (in double) is within 1e-5 relative of the nearest one.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_KMEANS_REF_HPP
#define OFFLOAD_BENCH_APPS_KMEANS_REF_HPP

#include "../common/apps.hpp"

#include <cmath>
#include <vector>

namespace kmeans {

constexpr int kDims = 16, kClusters = 64;
constexpr unsigned kBlock = 256;
const char *const kMeasure = "app_kmeans";

/// Points around kClusters centres (so that the assignment is not noise),
/// and centroids near, not at, those centres.
inline void make_inputs(std::size_t n, std::vector<float> &features,
                        std::vector<float> &centroids) {
  features.resize(n * kDims);
  centroids.resize(std::size_t(kClusters) * kDims);
  for (int k = 0; k < kClusters; ++k)
    for (int f = 0; f < kDims; ++f)
      centroids[k * kDims + f] = apps::uniform(21, k * kDims + f, 0, 10) +
                                 apps::uniform(22, k * kDims + f, -0.5f, 0.5f);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t home =
        apps::pcg_hash(std::uint32_t(i) ^ 0x5bd1e995u) % kClusters;
    for (int f = 0; f < kDims; ++f)
      features[f * n + i] = apps::uniform(21, home * kDims + f, 0, 10) +
                            apps::uniform(23, i * kDims + f, -2, 2);
  }
}

inline void check(const char *impl, std::size_t n,
                  const std::vector<float> &features,
                  const std::vector<float> &centroids,
                  const std::vector<int> &member) {
  std::size_t exact = 0;
  std::size_t count = apps::for_sample(n, 1 << 19, [&](std::size_t i) {
    int m = member[i];
    if (m < 0 || m >= kClusters)
      apps::failf(kMeasure, impl, "point %zu: cluster %d", i, m);
    double dist[kClusters], best = INFINITY;
    int arg = 0;
    for (int k = 0; k < kClusters; ++k) {
      double d = 0;
      for (int f = 0; f < kDims; ++f) {
        double diff = double(features[f * n + i]) - centroids[k * kDims + f];
        d += diff * diff;
      }
      dist[k] = d;
      if (d < best)
        best = d, arg = k;
    }
    exact += m == arg;
    if (!(dist[m] <= best * (1 + 1e-5)))
      apps::failf(kMeasure, impl,
                  "point %zu: cluster %d at distance %.9g, cluster %d is at "
                  "%.9g",
                  i, m, dist[m], arg, best);
  });
  char what[128];
  std::snprintf(what, sizeof what,
                "%zu of %zu points against double, %zu of them exactly the "
                "nearest",
                count, n, exact);
  apps::checked(kMeasure, impl, what);
}

} // namespace kmeans

#endif // OFFLOAD_BENCH_APPS_KMEANS_REF_HPP
