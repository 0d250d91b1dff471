//===- bench/apps/mandelbrot/ours.cpp - Mandelbrot with offload() ---------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// Escape counts of an n x n image (ref.hpp), one thread per pixel on a 2-D
// grid of 16 x 16 blocks, the image resident in an ofld::region. A
// repetition is one offload() call.
//
//   apps_mandelbrot_ours [--n=SIDE (8192)] [--reps=R] [--warmup=W]
//
//===----------------------------------------------------------------------===//

#include "ref.hpp"

#include <span>
#include <vector>

using mandelbrot::kMaxIter;

[[offload::kernel]] void mandelbrot_kernel(APPS_OUT std::span<int> count,
                                           unsigned n, float x0, float y0,
                                           float step) {
  const std::size_t px = ofld::global_id(0), py = ofld::global_id(1);
  if (px >= n || py >= n)
    return;
  const float cx = x0 + float(px) * step, cy = y0 + float(py) * step;
  float zx = 0, zy = 0;
  int it = 0;
  while (it < kMaxIter && zx * zx + zy * zy <= 4.0f) {
    float x = zx * zx - zy * zy + cx;
    zy = 2.0f * zx * zy + cy;
    zx = x;
    ++it;
  }
  count[py * n + px] = it;
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {20, 3, 8192, ""});
  if (ofld::device_count() < 1)
    bench::no_device(argv[0], "ofld::device_count() is 0");
  const std::size_t n = a.n;
  std::vector<int> count(n * n);
  apps::poison(count);
  const unsigned blocks =
      unsigned((n + mandelbrot::kTile - 1) / mandelbrot::kTile);
  const ofld::launch shape{.grid = {blocks, blocks},
                           .block = {mandelbrot::kTile, mandelbrot::kTile}};
  const float step = mandelbrot::kSpan / float(n);
  bench::Samples s;
  {
    ofld::region resident{std::span<int>(count)};
    s = bench::time_host(a, [&] {
      offload(shape, mandelbrot_kernel, count, unsigned(n), mandelbrot::kX0,
              mandelbrot::kY0, step);
      // Launches on resident data return once queued (stream order):
      // wait for them, as the CUDA version synchronises.
      ofld::wait();
    });
  }
  mandelbrot::check("ours", n, count);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zux%zu", n, n);
  s.report(mandelbrot::kMeasure, "ours", 0, extra);
  return 0;
}
