//===- bench/apps/bfs/kernels.hpp - the BFS level loop's offload() kernels ===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The three kernels of ref.hpp's level loop, as offload() kernels: shared by
// apps/bfs/ours.cpp (the loop in a region) and loops/ours.cpp (the same loop
// written with no region, issue 30). Include it in one translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_BFS_KERNELS_HPP
#define OFFLOAD_BENCH_APPS_BFS_KERNELS_HPP

#include "ref.hpp"

#include <cstdint>
#include <span>

using flags = std::span<std::uint8_t>;

[[offload::kernel]] void bfs_reset(APPS_OUT flags mask, APPS_OUT flags next,
                                   APPS_OUT flags visited,
                                   APPS_OUT std::span<int> cost) {
  const std::size_t i = ofld::global_id();
  if (i >= cost.size())
    return;
  mask[i] = visited[i] = i == 0;
  next[i] = 0;
  cost[i] = i == 0 ? 0 : -1;
}

[[offload::kernel]] void bfs_expand(std::span<const int> offsets,
                                    std::span<const int> edges, flags mask,
                                    flags next,
                                    std::span<const std::uint8_t> visited,
                                    std::span<int> cost) {
  const std::size_t i = ofld::global_id();
  if (i >= cost.size() || !mask[i])
    return;
  mask[i] = 0;
  const int c = cost[i] + 1;
  for (int e = offsets[i]; e < offsets[i + 1]; ++e) {
    const std::size_t w = std::size_t(edges[std::size_t(e)]);
    if (!visited[w]) {
      cost[w] = c;
      next[w] = 1;
    }
  }
}

[[offload::kernel]] void bfs_update(flags mask, flags next, flags visited,
                                    bool &changed) {
  const std::size_t i = ofld::global_id();
  if (i >= next.size() || !next[i])
    return;
  mask[i] = visited[i] = 1;
  next[i] = 0;
  changed = true;
}

#endif // OFFLOAD_BENCH_APPS_BFS_KERNELS_HPP
