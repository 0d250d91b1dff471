//===- bench/apps/nbody/cuda.cu - n-body step in CUDA ---------------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of nbody/ours.cpp: the same tiled kernel, float4 bodies,
// rsqrtf, blocks of kBlock, data cudaMalloc'ed once.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "ref.hpp"

#include <vector>

using nbody::body;
using nbody::kBlock;

__global__ void nbody_step(const float4 *pos, const float4 *vel, float4 *pos1,
                           float4 *vel1, int n, float dt, float eps2) {
  __shared__ float4 tile[kBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = threadIdx.x;
  const float4 p = i < n ? pos[i] : make_float4(0, 0, 0, 0);
  float ax = 0, ay = 0, az = 0;
  for (int base = 0; base < n; base += kBlock) {
    tile[t] = base + t < n ? pos[base + t] : make_float4(0, 0, 0, 0);
    __syncthreads();
    for (int k = 0; k < kBlock; ++k) {
      const float4 q = tile[k];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float r2 = dx * dx + dy * dy + dz * dz + eps2;
      float inv = rsqrtf(r2);
      float s = q.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  if (i < n) {
    float4 v = vel[i];
    v.x += ax * dt;
    v.y += ay * dt;
    v.z += az * dt;
    vel1[i] = v;
    pos1[i] = make_float4(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
  }
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {20, 3, 65536, ""});
  apps::require_cuda_device(argv[0]);
  const std::size_t n = a.n;
  std::vector<body> pos, vel, pos1(n), vel1(n);
  nbody::make_inputs(n, pos, vel);
  float4 *dpos = reinterpret_cast<float4 *>(apps::to_device(pos.data(), n));
  float4 *dvel = reinterpret_cast<float4 *>(apps::to_device(vel.data(), n));
  float4 *dpos1 = apps::poisoned_output<float4>(n);
  float4 *dvel1 = apps::poisoned_output<float4>(n);
  const unsigned grid = unsigned((n + kBlock - 1) / kBlock);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  apps::time_cuda(a, nbody::kMeasure, extra, [&] {
    nbody_step<<<grid, kBlock>>>(dpos, dvel, dpos1, dvel1, int(n), nbody::kDt,
                                 nbody::kEps2);
  });
  apps::from_device(reinterpret_cast<float4 *>(pos1.data()), dpos1, n);
  apps::from_device(reinterpret_cast<float4 *>(vel1.data()), dvel1, n);
  nbody::check("cuda", pos, vel, pos1, vel1);
  CK(cudaFree(dpos));
  CK(cudaFree(dvel));
  CK(cudaFree(dpos1));
  CK(cudaFree(dvel1));
  return 0;
}
