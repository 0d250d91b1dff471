//===- dot_block_reduce.cpp - end-to-end: dot product, block reduction ----===//
//
// Part of the offload project's tests.
//
//===----------------------------------------------------------------------===//
//
// A dot product of random vectors: every thread sums a grid-strided share,
// the block reduces the sums in a shared_array with sync_threads() between
// the steps, thread 0 writes the block's partial and adds it atomically to
// the total. A second shared_array counts the elements each block visited,
// so two arrays of one kernel that shared storage would show. The total
// and every block's partial are checked against a CPU reference, 1-D and
// 2-D blocks.
//
//===----------------------------------------------------------------------===//

#include <offload/offload.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <span>
#include <vector>

constexpr unsigned MaxBlock = 256;

[[offload::kernel]] void dot(std::span<const float> x, std::span<const float> y,
                             [[offload::out]] std::span<double> partial,
                             double &total, unsigned long long &visited) {
  ofld::shared_array<double, MaxBlock> sum;
  ofld::shared_array<unsigned, MaxBlock> count;
  unsigned nthreads = ofld::block_dim(0) * ofld::block_dim(1);
  unsigned t = ofld::thread_id(0) + ofld::block_dim(0) * ofld::thread_id(1);
  unsigned block = ofld::block_id(0) + ofld::grid_dim(0) * ofld::block_id(1);
  std::size_t stride = std::size_t(nthreads) * ofld::grid_dim(0) * ofld::grid_dim(1);

  double s = 0;
  unsigned n = 0;
  for (std::size_t i = std::size_t(block) * nthreads + t; i < x.size();
       i += stride, ++n)
    s += double(x[i]) * y[i];
  sum[t] = s;
  count[t] = n;
  ofld::sync_threads();
  for (unsigned half = nthreads / 2; half > 0; half /= 2) {
    if (t < half) {
      sum[t] += sum[t + half];
      count[t] += count[t + half];
    }
    ofld::sync_threads();
  }
  if (t == 0) {
    partial[block] = sum[0];
    ofld::atomic_add(&total, sum[0]);
    ofld::atomic_add(&visited, (unsigned long long)count[0]);
  }
}

static bool check(const char *what, std::span<const float> x,
                  std::span<const float> y, ofld::launch shape) {
  unsigned blocks = shape.grid.x * shape.grid.y;
  std::vector<double> partial(blocks, -1.0);
  double total = 0;
  unsigned long long visited = 0;
  offload(shape, dot, x, y, partial, total, visited);

  // The reference sums, of everything and of each block's elements (block
  // b, thread t visits b * threads + t + k * stride), and the magnitudes
  // that bound their rounding.
  unsigned nthreads = shape.block.x * shape.block.y;
  std::size_t stride = std::size_t(nthreads) * blocks;
  std::vector<double> ref_partial(blocks, 0.0), mag_partial(blocks, 0.0);
  double ref = 0, mag = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    double p = double(x[i]) * y[i];
    std::size_t b = i % stride / nthreads;
    ref += p;
    mag += std::fabs(p);
    ref_partial[b] += p;
    mag_partial[b] += std::fabs(p);
  }
  // Only the order of the double additions differs from the reference.
  unsigned bad = 0;
  for (unsigned b = 0; b < blocks; ++b)
    if (!(std::fabs(partial[b] - ref_partial[b]) <=
          1e-12 * mag_partial[b] + 1e-30) &&
        bad++ < 3)
      std::printf("FAIL: %s: partial[%u] = %.17g, reference %.17g\n", what, b,
                  partial[b], ref_partial[b]);
  double tol = 1e-12 * mag + 1e-30;
  bool ok = std::fabs(total - ref) <= tol && bad == 0 && visited == x.size();
  std::printf("%s: dot %.12g reference %.12g, %u partials differ, visited "
              "%llu: %s\n",
              what, total, ref, bad, visited, ok ? "ok" : "FAIL");
  return ok;
}

int main() {
  std::mt19937 gen(20240611);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(1000003), y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = dist(gen);
    y[i] = dist(gen);
  }
  bool ok = check("blocks of 256", x, y, {.grid = {120}, .block = {256}});
  ok &= check("16x8 blocks", x, y, {.grid = {10, 7}, .block = {16, 8}});
  ok &= check("blocks of 1", x, y, {.grid = {333}, .block = {1}});
  std::printf("%s\n", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
