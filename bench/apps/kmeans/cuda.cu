//===- bench/apps/kmeans/cuda.cu - k-means assignment in CUDA -------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of kmeans/ours.cpp: the same kernel, centroids staged in
// __shared__ memory, blocks of kBlock, data cudaMalloc'ed once.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "ref.hpp"

#include <cfloat>
#include <vector>

using kmeans::kClusters;
using kmeans::kDims;

__global__ void assign(int *member, const float *features,
                       const float *centroids, int n) {
  __shared__ float c[kClusters * kDims];
  for (int j = threadIdx.x; j < kClusters * kDims; j += blockDim.x)
    c[j] = centroids[j];
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
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
  apps::require_cuda_device(argv[0]);
  const std::size_t n = a.n;
  std::vector<float> features, centroids;
  kmeans::make_inputs(n, features, centroids);
  std::vector<int> member(n);
  float *dfeatures = apps::to_device(features.data(), features.size());
  float *dcentroids = apps::to_device(centroids.data(), centroids.size());
  int *dmember = apps::poisoned_output<int>(n);
  const unsigned grid = unsigned((n + kmeans::kBlock - 1) / kmeans::kBlock);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  apps::time_cuda(a, kmeans::kMeasure, extra, [&] {
    assign<<<grid, kmeans::kBlock>>>(dmember, dfeatures, dcentroids, int(n));
  });
  apps::from_device(member.data(), dmember, n);
  kmeans::check("cuda", n, features, centroids, member);
  CK(cudaFree(dfeatures));
  CK(cudaFree(dcentroids));
  CK(cudaFree(dmember));
  return 0;
}
