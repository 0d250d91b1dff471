//===- bench/apps/montecarlo/cuda.cu - Monte Carlo pricing in CUDA --------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of montecarlo/ours.cpp: the same kernel (logf, sqrtf, cosf,
// expf, the same hash), the same tree in __shared__ memory, blocks of
// kBlock.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "ref.hpp"

#include <cstdint>
#include <vector>

using montecarlo::kBlock;

__global__ void mc_call(float *partial, unsigned samples, float s0,
                        float strike, float drift, float vol_t) {
  __shared__ float sums[kBlock];
  const unsigned t = threadIdx.x;
  const std::uint32_t first = (blockIdx.x * blockDim.x + t) * samples;
  float sum = 0;
  for (unsigned k = 0; k < samples; ++k) {
    std::uint32_t c = montecarlo::counter(first + k);
    float u1 = apps::unit_open(apps::pcg_hash(c));
    float u2 = apps::unit_open(apps::pcg_hash(c + 1));
    float z = sqrtf(-2.0f * logf(u1)) * cosf(montecarlo::kTwoPi * u2);
    float st = s0 * expf(drift + vol_t * z);
    sum += fmaxf(st - strike, 0.0f);
  }
  sums[t] = sum;
  __syncthreads();
  for (unsigned half = kBlock / 2; half > 0; half /= 2) {
    if (t < half)
      sums[t] += sums[t + half];
    __syncthreads();
  }
  if (t == 0)
    partial[blockIdx.x] = sums[0];
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {20, 3, std::size_t(1) << 20, ""});
  apps::require_cuda_device(argv[0]);
  const std::size_t blocks = (a.n + kBlock - 1) / kBlock,
                    threads = blocks * kBlock;
  std::vector<float> partial(blocks);
  float *dpartial = apps::poisoned_output<float>(blocks);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zux%u", threads,
                montecarlo::kSamples);
  apps::time_cuda(a, montecarlo::kMeasure, extra, [&] {
    mc_call<<<unsigned(blocks), kBlock>>>(
        dpartial, montecarlo::kSamples, montecarlo::kS0, montecarlo::kStrike,
        montecarlo::drift(), montecarlo::vol_t());
  });
  apps::from_device(partial.data(), dpartial, blocks);
  montecarlo::check("cuda", threads, partial);
  CK(cudaFree(dpartial));
  return 0;
}
