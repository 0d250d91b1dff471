//===- bench/apps/mandelbrot/cuda.cu - Mandelbrot in CUDA -----------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of mandelbrot/ours.cpp: the same kernel on the same 2-D grid
// of 16 x 16 blocks, the image cudaMalloc'ed once.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "ref.hpp"

#include <vector>

using mandelbrot::kMaxIter;

__global__ void mandelbrot_kernel(int *count, unsigned n, float x0, float y0,
                                  float step) {
  const unsigned px = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned py = blockIdx.y * blockDim.y + threadIdx.y;
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
  count[std::size_t(py) * n + px] = it;
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {20, 3, 8192, ""});
  apps::require_cuda_device(argv[0]);
  const std::size_t n = a.n;
  std::vector<int> count(n * n);
  int *dcount = apps::poisoned_output<int>(n * n);
  const unsigned blocks =
      unsigned((n + mandelbrot::kTile - 1) / mandelbrot::kTile);
  const dim3 grid(blocks, blocks), block(mandelbrot::kTile, mandelbrot::kTile);
  const float step = mandelbrot::kSpan / float(n);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zux%zu", n, n);
  apps::time_cuda(a, mandelbrot::kMeasure, extra, [&] {
    mandelbrot_kernel<<<grid, block>>>(dcount, unsigned(n), mandelbrot::kX0,
                                       mandelbrot::kY0, step);
  });
  apps::from_device(count.data(), dcount, n * n);
  mandelbrot::check("cuda", n, count);
  CK(cudaFree(dcount));
  return 0;
}
