//===- bench/apps/bfs/ours.cpp - BFS level loop with offload() ------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The level loop of ref.hpp on a deep graph of n nodes: the graph and the
// search's state resident in an ofld::region, two launches per level, the
// "changed" flag a bool& parameter of the second (to and from per launch:
// the host waits for it every level, as CUDA's cudaMemcpy of the flag
// does). One repetition is a whole search: the reset kernel, then every
// level.
//
//   apps_bfs_ours [--n=NODES (1000000)] [--reps=R (10)] [--warmup=W (2)]
//
//===----------------------------------------------------------------------===//

#include "kernels.hpp"

#include <cstdint>
#include <span>
#include <vector>

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {10, 2, 1000000, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t n = a.n;
  const bfs::graph g = bfs::make_graph(n);
  std::vector<std::uint8_t> mask(n), next(n), visited(n);
  std::vector<int> cost(n);
  apps::poison(mask);
  apps::poison(next);
  apps::poison(visited);
  apps::poison(cost);
  const ofld::launch shape{
      .grid = {unsigned((n + bfs::kBlock - 1) / bfs::kBlock)},
      .block = {bfs::kBlock}};
  int levels = 0;
  bench::Samples s;
  {
    ofld::region resident{std::span<const int>(g.offsets),
                          std::span<const int>(g.edges),
                          flags(mask),
                          flags(next),
                          flags(visited),
                          std::span<int>(cost)};
    s = bench::time_host(a, [&] {
      offload(shape, bfs_reset, mask, next, visited, cost);
      levels = 0;
      bool changed = true;
      while (changed) {
        changed = false;
        offload(shape, bfs_expand, g.offsets, g.edges, mask, next, visited,
                cost);
        // Copies the flag back: returns when both launches are done.
        offload(shape, bfs_update, mask, next, visited, changed);
        ++levels;
      }
    });
  }
  bfs::check("ours", g, cost, levels);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu levels=%d", n, levels);
  s.report(bfs::kMeasure, "ours", 0, extra);
  return 0;
}
