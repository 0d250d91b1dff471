//===- bench/apps/bfs/cuda.cu - BFS level loop in CUDA --------------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of bfs/ours.cpp: the same three kernels in blocks of 256 on
// cudaMalloc'ed data; every level copies the flag to the device (false),
// launches both kernels and copies the flag back, as Rodinia's bfs does.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "kernels.cuh"
#include "ref.hpp"

#include <cstdint>
#include <vector>

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {10, 2, 1000000, ""});
  apps::require_cuda_device(argv[0]);
  const std::size_t n = a.n;
  const bfs::graph g = bfs::make_graph(n);
  int *doffsets = apps::to_device(g.offsets.data(), n + 1);
  int *dedges = apps::to_device(g.edges.data(), g.edges.size());
  u8 *dmask = apps::poisoned_output<u8>(n);
  u8 *dnext = apps::poisoned_output<u8>(n);
  u8 *dvisited = apps::poisoned_output<u8>(n);
  int *dcost = apps::poisoned_output<int>(n);
  bool *dchanged = nullptr;
  CK(cudaMalloc(&dchanged, sizeof(bool)));
  const unsigned grid = unsigned((n + bfs::kBlock - 1) / bfs::kBlock);
  const int ni = int(n);
  int levels = 0;
  // The whole search; its last cudaMemcpy waits for the last level.
  auto search = [&] {
    bfs_reset<<<grid, bfs::kBlock>>>(dmask, dnext, dvisited, dcost, ni);
    levels = 0;
    bool changed = true;
    while (changed) {
      changed = false;
      CK(cudaMemcpy(dchanged, &changed, sizeof changed,
                    cudaMemcpyHostToDevice));
      bfs_expand<<<grid, bfs::kBlock>>>(doffsets, dedges, dmask, dnext,
                                        dvisited, dcost, ni);
      bfs_update<<<grid, bfs::kBlock>>>(dmask, dnext, dvisited, dchanged, ni);
      CK(cudaMemcpy(&changed, dchanged, sizeof changed,
                    cudaMemcpyDeviceToHost));
      ++levels;
    }
  };
  char extra[64];
  search();
  std::snprintf(extra, sizeof extra, "size=%zu levels=%d", n, levels);
  apps::time_cuda(a, bfs::kMeasure, extra, search);
  std::vector<int> cost(n);
  apps::from_device(cost.data(), dcost, n);
  bfs::check("cuda", g, cost, levels);
  for (void *p :
       {(void *)doffsets, (void *)dedges, (void *)dmask, (void *)dnext,
        (void *)dvisited, (void *)dcost, (void *)dchanged})
    CK(cudaFree(p));
  return 0;
}
