//===- bench/loops/common.hpp - issue 30's loops: sizes and checks --------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// What ours.cpp and cuda.cu share: the sizes of the three loops and the
// check of their results against the CPU (seq/kernels.hpp's stencils,
// apps/bfs/ref.hpp's search). Every timed repetition starts from the same
// host data and ends with the results on the host: one copy in, the loop,
// one copy out, which is what a naive loop costs once the compiler keeps
// its data on the device, and what CUDA written with the copies outside the
// loop costs.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_LOOPS_COMMON_HPP
#define OFFLOAD_BENCH_LOOPS_COMMON_HPP

#include "../apps/bfs/ref.hpp"
#include "../seq/kernels.hpp"

#include <cstdio>
#include <vector>

namespace loops {

constexpr int JacobiSweeps = 100, FdtdSteps = 100;

/// The BFS's nodes for the stencils' grid side `n`: 1,048,576 at 2048.
inline std::size_t bfs_nodes(std::size_t n) { return n * n / 4; }

/// Fails `measure` for `impl` unless `got` matches the CPU's `want`.
inline void check_close(const char *measure, const char *impl,
                        const std::vector<float> &got,
                        const std::vector<float> &want, double tol) {
  double d = seq::max_rel_diff(got, want);
  if (d > tol) {
    char why[96];
    std::snprintf(why, sizeof why, "differs from the CPU: %.3g > %.3g", d, tol);
    bench::fail(measure, impl, why);
  }
}

} // namespace loops

#endif // OFFLOAD_BENCH_LOOPS_COMMON_HPP
