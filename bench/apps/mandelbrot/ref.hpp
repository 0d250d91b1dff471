//===- bench/apps/mandelbrot/ref.hpp - Mandelbrot escape counts and check -===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The escape-time iteration count (float, at most kMaxIter) of every pixel of
// an n x n image of [-2.1, 0.7] x [-1.4, 1.4], one thread per pixel on a 2-D
// grid of 16 x 16 blocks: compute-bound, no math library.
//
// Near the set's boundary the count is chaotic: contracting z*z + c into an
// fma or not (nvcc contracts across statements, clang within one) changes
// it. The check therefore recomputes a sample of rows in float and in double
// and accepts a pixel that matches either, requires that at most 0.5% of
// the sample match neither, and that the total count agree within 0.5%.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_MANDELBROT_REF_HPP
#define OFFLOAD_BENCH_APPS_MANDELBROT_REF_HPP

#include "../common/apps.hpp"

#include <cmath>
#include <vector>

namespace mandelbrot {

constexpr int kMaxIter = 512;
constexpr float kX0 = -2.1f, kY0 = -1.4f, kSpan = 2.8f;
constexpr unsigned kTile = 16; ///< blocks of kTile x kTile threads
const char *const kMeasure = "app_mandelbrot";

template <class T> int escape(T cx, T cy) {
  T zx = 0, zy = 0;
  int it = 0;
  while (it < kMaxIter && zx * zx + zy * zy <= T(4)) {
    T x = zx * zx - zy * zy + cx;
    zy = T(2) * zx * zy + cy;
    zx = x;
    ++it;
  }
  return it;
}

inline void check(const char *impl, std::size_t n,
                  const std::vector<int> &count) {
  const float step = kSpan / float(n);
  std::size_t pixels = 0, neither = 0;
  double got = 0, want = 0;
  std::size_t rows = apps::for_sample(n, 256, [&](std::size_t y) {
    for (std::size_t x = 0; x < n; ++x) {
      int c = count[y * n + x];
      if (c < 0 || c > kMaxIter)
        apps::failf(kMeasure, impl, "pixel (%zu, %zu): count %d", x, y, c);
      float cx = kX0 + float(x) * step, cy = kY0 + float(y) * step;
      int f = escape<float>(cx, cy), d = escape<double>(cx, cy);
      neither += c != f && c != d;
      got += c;
      want += f;
      ++pixels;
    }
  });
  double off = std::fabs(got - want) / want;
  if (neither > pixels / 200 || off > 0.005)
    apps::failf(kMeasure, impl,
                "%zu of %zu pixels match neither float nor double; total "
                "count %.0f, expected %.0f",
                neither, pixels, got, want);
  char what[160];
  std::snprintf(what, sizeof what,
                "%zu of %zu rows: %zu of %zu pixels differ from float and "
                "double, total count off by %.2g",
                rows, n, neither, pixels, off);
  apps::checked(kMeasure, impl, what);
}

} // namespace mandelbrot

#endif // OFFLOAD_BENCH_APPS_MANDELBROT_REF_HPP
