//===- bench/apps/blackscholes/cuda.cu - Black-Scholes in CUDA ------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of blackscholes/ours.cpp: the same kernel (expf, logf,
// sqrtf, erfcf), one thread per option in blocks of 256, data cudaMalloc'ed
// once.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "ref.hpp"

#include <vector>

__global__ void black_scholes(float *call, float *put, const float *price,
                              const float *strike, const float *years, int n,
                              float r, float v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float S = price[i], X = strike[i], T = years[i];
  const float sqrtT = sqrtf(T);
  const float d1 = (logf(S / X) + (r + 0.5f * v * v) * T) / (v * sqrtT);
  const float d2 = d1 - v * sqrtT;
  const float n1 = 0.5f * erfcf(-d1 * 0.70710678f);
  const float n2 = 0.5f * erfcf(-d2 * 0.70710678f);
  const float discount = X * expf(-r * T);
  call[i] = S * n1 - discount * n2;
  put[i] = discount * (1.0f - n2) - S * (1.0f - n1);
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {50, 3, std::size_t(1) << 25, ""});
  apps::require_cuda_device(argv[0]);
  const std::size_t n = a.n;
  std::vector<float> s, x, t, call(n), put(n);
  blackscholes::make_inputs(n, s, x, t);
  float *ds = apps::to_device(s.data(), n), *dx = apps::to_device(x.data(), n),
        *dt = apps::to_device(t.data(), n);
  float *dcall = apps::poisoned_output<float>(n),
        *dput = apps::poisoned_output<float>(n);
  const unsigned grid = unsigned((n + 255) / 256);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  apps::time_cuda(a, blackscholes::kMeasure, extra, [&] {
    black_scholes<<<grid, 256>>>(dcall, dput, ds, dx, dt, int(n),
                                 blackscholes::kRate, blackscholes::kVol);
  });
  apps::from_device(call.data(), dcall, n);
  apps::from_device(put.data(), dput, n);
  blackscholes::check("cuda", s, x, t, call, put);
  for (float *p : {ds, dx, dt, dcall, dput})
    CK(cudaFree(p));
  return 0;
}
