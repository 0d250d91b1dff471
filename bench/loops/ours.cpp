//===- bench/loops/ours.cpp - naive loops of launches against regions -----===//
//
// Part of the offload project's benchmark suite (issue 30).
//
//===----------------------------------------------------------------------===//
//
// Three loops of launches written as a new user writes them, with no
// ofld::region (impl=ours), and the same loops inside a region around the
// loop (impl=ours_region):
//   loops_jacobi2d  100 sweeps of jacobi-2d on 2048x2048, two kernels a sweep
//   loops_fdtd2d    100 steps of fdtd-2d on 2048x2048, three kernels a step
//   loops_bfs       a BFS level loop on 1M nodes (apps/bfs's graph and
//                   kernels): two kernels a level and a bool& flag the host
//                   reads every level
// One repetition starts from host data and ends with the results on the
// host. The compiler keeps a naive loop's arrays on the device (loop
// residency, docs/LoopResidency.md); without it (or with it off) every
// launch copies them both ways. cuda.cu is the CUDA version with the
// copies outside the loop. Each loop is first checked against the CPU.
//
//   loops_ours [--only=loops_jacobi2d|loops_fdtd2d|loops_bfs] [--n=N (2048)]
//              [--reps=R (5)] [--warmup=W (1)]
// --n is the stencils' grid side; the BFS has N*N/4 nodes (1,048,576).
//
//===----------------------------------------------------------------------===//

#include "../apps/bfs/kernels.hpp"
#include "../seq/stencils.hpp"
#include "common.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace {

ofld::launch grid2d(int n) {
  return {.grid = {(std::size_t(n) + seq::BlockX - 1) / seq::BlockX,
                   (std::size_t(n) + seq::BlockY - 1) / seq::BlockY},
          .block = {seq::BlockX, seq::BlockY}};
}

// The loops as a user writes them: the arrays are the function's own
// variables, used by nothing in the loop but the launches.

void jacobi_naive(std::vector<float> &a, std::vector<float> &b, int n,
                  int sweeps) {
  const ofld::launch shape = grid2d(n);
  for (int t = 0; t < sweeps; ++t) {
    offload(shape, jacobi, a, b, n);
    offload(shape, jacobi, b, a, n);
  }
}

void jacobi_region(std::vector<float> &a, std::vector<float> &b, int n,
                   int sweeps) {
  const ofld::launch shape = grid2d(n);
  ofld::region keep{std::span<float>(a), std::span<float>(b)};
  for (int t = 0; t < sweeps; ++t) {
    offload(shape, jacobi, a, b, n);
    offload(shape, jacobi, b, a, n);
  }
}

void fdtd_naive(std::vector<float> &ex, std::vector<float> &ey,
                std::vector<float> &hz, const std::vector<float> &fict, int n,
                int steps) {
  const ofld::launch shape = grid2d(n);
  for (int t = 0; t < steps; ++t) {
    offload(shape, ey_step, ey, hz, fict[std::size_t(t)], n, n);
    offload(shape, ex_step, ex, hz, n, n);
    offload(shape, hz_step, hz, ex, ey, n, n);
  }
}

void fdtd_region(std::vector<float> &ex, std::vector<float> &ey,
                 std::vector<float> &hz, const std::vector<float> &fict, int n,
                 int steps) {
  const ofld::launch shape = grid2d(n);
  ofld::region keep{std::span<float>(ex), std::span<float>(ey),
                    std::span<float>(hz)};
  for (int t = 0; t < steps; ++t) {
    offload(shape, ey_step, ey, hz, fict[std::size_t(t)], n, n);
    offload(shape, ex_step, ex, hz, n, n);
    offload(shape, hz_step, hz, ex, ey, n, n);
  }
}

ofld::launch grid1d(std::size_t n) {
  return {.grid = {(n + bfs::kBlock - 1) / bfs::kBlock},
          .block = {bfs::kBlock}};
}

/// The search's levels; `cost` comes back.
int bfs_naive(const bfs::graph &g, std::vector<int> &cost) {
  const std::size_t n = cost.size();
  std::vector<std::uint8_t> mask(n), next(n), visited(n);
  const ofld::launch shape = grid1d(n);
  offload(shape, bfs_reset, mask, next, visited, cost);
  int levels = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    offload(shape, bfs_expand, g.offsets, g.edges, mask, next, visited, cost);
    offload(shape, bfs_update, mask, next, visited, changed);
    ++levels;
  }
  return levels;
}

int bfs_region(const bfs::graph &g, std::vector<int> &cost) {
  const std::size_t n = cost.size();
  std::vector<std::uint8_t> mask(n), next(n), visited(n);
  const ofld::launch shape = grid1d(n);
  ofld::region keep{std::span<const int>(g.offsets),
                    std::span<const int>(g.edges),
                    flags(mask),
                    flags(next),
                    flags(visited),
                    std::span<int>(cost)};
  offload(shape, bfs_reset, mask, next, visited, cost);
  int levels = 0;
  bool changed = true;
  while (changed) {
    changed = false;
    offload(shape, bfs_expand, g.offsets, g.edges, mask, next, visited, cost);
    offload(shape, bfs_update, mask, next, visited, changed);
    ++levels;
  }
  return levels;
}

template <class Run>
void time_stencil(const bench::Args &a, const char *measure, const char *impl,
                  Run run, int kernels) {
  bench::Samples s = bench::time_host(a, run);
  char extra[96];
  std::snprintf(extra, sizeof extra, "kernels=%d", kernels);
  s.report(measure, impl, 0, extra);
}

} // namespace

int main(int argc, char **argv) {
  const bench::Args a = bench::parse(argc, argv, {5, 1, 2048, ""});
  if (ofld::device_count() == 0)
    bench::no_device(argv[0], "ofld::device_count() is 0");

  if (bench::wanted(a, "loops_jacobi2d")) {
    const int n = int(a.n), k = loops::JacobiSweeps;
    std::vector<float> a0(std::size_t(n) * n), b0(a0.size());
    seq::jacobi_init(a0, b0, n);
    std::vector<float> ra = a0, rb = b0;
    seq::jacobi_cpu(ra, rb, n, 2);
    for (auto [impl, run] : {std::pair{"ours", &jacobi_naive},
                             std::pair{"ours_region", &jacobi_region}}) {
      std::vector<float> A = a0, B = b0;
      run(A, B, n, 2);
      loops::check_close("loops_jacobi2d", impl, A, ra, 1e-5);
      time_stencil(
          a, "loops_jacobi2d", impl,
          [&] {
            A = a0, B = b0;
            run(A, B, n, k);
          },
          2 * k);
    }
  }

  if (bench::wanted(a, "loops_fdtd2d")) {
    const int n = int(a.n), k = loops::FdtdSteps;
    std::vector<float> ex0(std::size_t(n) * n), ey0(ex0.size()),
        hz0(ex0.size()), fict;
    seq::fdtd_init(ex0, ey0, hz0, fict, n, n, k);
    std::vector<float> rex = ex0, rey = ey0, rhz = hz0;
    seq::fdtd_cpu(rex, rey, rhz, fict, n, n, 2);
    for (auto [impl, run] : {std::pair{"ours", &fdtd_naive},
                             std::pair{"ours_region", &fdtd_region}}) {
      std::vector<float> ex = ex0, ey = ey0, hz = hz0;
      run(ex, ey, hz, fict, n, 2);
      loops::check_close("loops_fdtd2d", impl, hz, rhz, 1e-4);
      time_stencil(
          a, "loops_fdtd2d", impl,
          [&] {
            ex = ex0, ey = ey0, hz = hz0;
            run(ex, ey, hz, fict, n, k);
          },
          3 * k);
    }
  }

  if (bench::wanted(a, "loops_bfs")) {
    const bfs::graph g = bfs::make_graph(loops::bfs_nodes(a.n));
    for (auto [impl, run] : {std::pair{"ours", &bfs_naive},
                             std::pair{"ours_region", &bfs_region}}) {
      std::vector<int> cost(loops::bfs_nodes(a.n));
      int levels = run(g, cost);
      bfs::check(impl, g, cost, levels);
      bench::Samples s = bench::time_host(a, [&] { levels = run(g, cost); });
      char extra[64];
      std::snprintf(extra, sizeof extra, "levels=%d", levels);
      s.report("loops_bfs", impl, 0, extra);
    }
  }
  return 0;
}
