//===- bench/apps/bfs/kernels.cuh - the BFS level loop's CUDA kernels -----===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The three kernels of ref.hpp's level loop in CUDA: shared by
// apps/bfs/cuda.cu and loops/cuda.cu (issue 30).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_BFS_KERNELS_CUH
#define OFFLOAD_BENCH_APPS_BFS_KERNELS_CUH

#include <cstdint>

using u8 = std::uint8_t;

__global__ void bfs_reset(u8 *mask, u8 *next, u8 *visited, int *cost, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  mask[i] = visited[i] = i == 0;
  next[i] = 0;
  cost[i] = i == 0 ? 0 : -1;
}

__global__ void bfs_expand(const int *offsets, const int *edges, u8 *mask,
                           u8 *next, const u8 *visited, int *cost, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !mask[i])
    return;
  mask[i] = 0;
  const int c = cost[i] + 1;
  for (int e = offsets[i]; e < offsets[i + 1]; ++e) {
    const int w = edges[e];
    if (!visited[w]) {
      cost[w] = c;
      next[w] = 1;
    }
  }
}

__global__ void bfs_update(u8 *mask, u8 *next, u8 *visited, bool *changed,
                           int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !next[i])
    return;
  mask[i] = visited[i] = 1;
  next[i] = 0;
  *changed = true;
}

#endif // OFFLOAD_BENCH_APPS_BFS_KERNELS_CUH
