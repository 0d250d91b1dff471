//===- bench/apps/bfs/ref.hpp - BFS level loop: graph, reference, check ---===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Breadth-first search in the structure of Rodinia's bfs: one thread per
// node, a level at a time, two kernels per level on data that stays on the
// device:
//   expand: every node of the frontier (mask) leaves it and gives each
//     unvisited neighbour its cost + 1 and marks it for the next frontier;
//   update: every marked node joins the frontier and the visited set, and
//     sets the "changed" flag,
// and the host reads the flag back after every level (CUDA: a cudaMemcpy
// each way per level; ours: a bool& parameter, to and from per launch) and
// stops at the first level that changes nothing. Both versions first reset
// the state with a third kernel (source at cost 0, every other node -1).
//
// The graph (CSR: offsets, edges, undirected) is built so that the search
// is deep: a chain i - i+1 through every node plus 2 edges from every node
// to a node at most kWindow ahead (both directions), about 6 edges per node
// on average; a level reaches at most kWindow nodes further, so a BFS from
// node 0 takes more than n / kWindow levels (1,000,000 nodes: 1,960).
// Rodinia's graph1MW_6 (random edges) needs about a dozen levels: there,
// the level loop's per-level cost hardly shows.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_BFS_REF_HPP
#define OFFLOAD_BENCH_APPS_BFS_REF_HPP

#include "../common/apps.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace bfs {

constexpr unsigned kBlock = 256;
constexpr std::uint32_t kWindow = 640;
const char *const kMeasure = "app_bfs";

struct graph {
  std::vector<int> offsets; ///< n + 1
  std::vector<int> edges;
};

inline graph make_graph(std::size_t n) {
  std::vector<std::pair<int, int>> pairs;
  pairs.reserve(3 * n);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    pairs.push_back({int(i), int(i + 1)});
    for (std::uint32_t k = 0; k < 2; ++k) {
      std::size_t j =
          i + 1 +
          apps::pcg_hash(std::uint32_t(2 * i + k) ^ 0x3c6ef372u) % kWindow;
      if (j < n)
        pairs.push_back({int(i), int(j)});
    }
  }
  graph g;
  g.offsets.assign(n + 1, 0);
  for (auto [a, b] : pairs)
    ++g.offsets[std::size_t(a) + 1], ++g.offsets[std::size_t(b) + 1];
  for (std::size_t i = 0; i < n; ++i)
    g.offsets[i + 1] += g.offsets[i];
  g.edges.resize(std::size_t(g.offsets[n]));
  std::vector<int> fill(g.offsets.begin(), g.offsets.end() - 1);
  for (auto [a, b] : pairs) {
    g.edges[std::size_t(fill[std::size_t(a)]++)] = b;
    g.edges[std::size_t(fill[std::size_t(b)]++)] = a;
  }
  return g;
}

/// Every node's distance from node 0 (a queue on the CPU).
inline std::vector<int> reference(const graph &g) {
  const std::size_t n = g.offsets.size() - 1;
  std::vector<int> cost(n, -1), queue;
  queue.reserve(n);
  cost[0] = 0;
  queue.push_back(0);
  for (std::size_t h = 0; h < queue.size(); ++h) {
    const int v = queue[h];
    for (int e = g.offsets[std::size_t(v)]; e < g.offsets[std::size_t(v) + 1];
         ++e) {
      const int w = g.edges[std::size_t(e)];
      if (cost[std::size_t(w)] < 0) {
        cost[std::size_t(w)] = cost[std::size_t(v)] + 1;
        queue.push_back(w);
      }
    }
  }
  return cost;
}

/// Every node's cost equals its distance, and the level loop ran once per
/// level plus the one that found nothing new.
inline void check(const char *impl, const graph &g,
                  const std::vector<int> &cost, int levels) {
  const std::vector<int> want = reference(g);
  int depth = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    depth = want[i] > depth ? want[i] : depth;
    if (cost[i] != want[i])
      apps::failf(kMeasure, impl, "node %zu: cost %d, expected %d", i, cost[i],
                  want[i]);
  }
  if (levels != depth + 1)
    apps::failf(kMeasure, impl, "%d levels, expected %d (depth %d + 1)", levels,
                depth + 1, depth);
  char what[128];
  std::snprintf(what, sizeof what,
                "every node's cost of %zu against a CPU BFS, %d levels",
                want.size(), levels);
  apps::checked(kMeasure, impl, what);
}

} // namespace bfs

#endif // OFFLOAD_BENCH_APPS_BFS_REF_HPP
