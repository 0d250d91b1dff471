//===- bench/apps/kmeans/ours.cpp - k-means assignment with offload() -----===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Assigns n points to the nearest centroid (ref.hpp), points and centroids
// resident in an ofld::region; one thread per point in blocks of kBlock,
// the centroids staged in block-shared memory, as cuda.cu does. A
// repetition is one offload() call.
//
//   apps_kmeans_ours [--n=POINTS (2^23)] [--reps=R] [--warmup=W]
//
//===----------------------------------------------------------------------===//

#include "ref.hpp"

#include <cfloat>
#include <span>
#include <vector>

using kmeans::kClusters;
using kmeans::kDims;

[[offload::kernel]] void assign(APPS_OUT std::span<int> member,
                                std::span<const float> features,
                                std::span<const float> centroids) {
  ofld::shared_array<float, kClusters * kDims> c;
  for (unsigned j = ofld::thread_id(); j < kClusters * kDims;
       j += ofld::block_dim())
    c[j] = centroids[j];
  ofld::sync_threads();
  const std::size_t n = member.size();
  const std::size_t i = ofld::global_id();
  if (i >= n)
    return;
  float p[kDims];
  for (int f = 0; f < kDims; ++f)
    p[f] = features[f * n + i];
  float best = FLT_MAX;
  int arg = 0;
  for (int k = 0; k < kClusters; ++k) {
    float d = 0;
    for (int f = 0; f < kDims; ++f) {
      float diff = p[f] - c[k * kDims + f];
      d += diff * diff;
    }
    if (d < best) {
      best = d;
      arg = k;
    }
  }
  member[i] = arg;
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {50, 3, std::size_t(1) << 23, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t n = a.n;
  std::vector<float> features, centroids;
  kmeans::make_inputs(n, features, centroids);
  std::vector<int> member(n);
  apps::poison(member);
  const ofld::launch shape{
      .grid = {unsigned((n + kmeans::kBlock - 1) / kmeans::kBlock)},
      .block = {kmeans::kBlock}};
  bench::Samples s;
  {
    ofld::region resident{std::span<int>(member),
                          std::span<const float>(features),
                          std::span<const float>(centroids)};
    s = bench::time_host(a, [&] {
      offload(shape, assign, member, features, centroids);
      // Launches on resident data return once queued (stream order):
      // wait for them, as the CUDA version synchronises.
      ofld::wait();
    });
  }
  kmeans::check("ours", n, features, centroids, member);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  s.report(kmeans::kMeasure, "ours", 0, extra);
  return 0;
}
