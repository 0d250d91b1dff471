//===- bench/apps/srad/cuda.cu - an SRAD diffusion step in CUDA -----------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of srad/ours.cpp: the same two kernels on the same grid of
// 16 x 16 blocks, launched back to back and waited for once.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "ref.hpp"

#include <vector>

__global__ void srad_coeff(const float *J, float *C, unsigned n, float q0sqr) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n)
    return;
  const std::size_t i = std::size_t(y) * n + x;
  const float jc = J[i];
  const float dN = J[y > 0 ? i - n : i] - jc,
              dS = J[y + 1 < n ? i + n : i] - jc;
  const float dW = J[x > 0 ? i - 1 : i] - jc,
              dE = J[x + 1 < n ? i + 1 : i] - jc;
  const float g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (jc * jc);
  const float l = (dN + dS + dW + dE) / jc;
  const float num = 0.5f * g2 - 0.0625f * l * l;
  const float den = 1.0f + 0.25f * l;
  const float q = num / (den * den);
  const float c = expf(-(q - q0sqr) / (q0sqr * (1.0f + q0sqr)));
  C[i] = fminf(fmaxf(c, 0.0f), 1.0f);
}

__global__ void srad_update(const float *J, const float *C, float *Jn,
                            unsigned n, float lambda) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n)
    return;
  const std::size_t i = std::size_t(y) * n + x;
  const std::size_t iS = y + 1 < n ? i + n : i, iE = x + 1 < n ? i + 1 : i;
  const float jc = J[i];
  const float dN = J[y > 0 ? i - n : i] - jc, dS = J[iS] - jc;
  const float dW = J[x > 0 ? i - 1 : i] - jc, dE = J[iE] - jc;
  const float c = C[i];
  Jn[i] = jc + 0.25f * lambda * (c * dN + C[iS] * dS + c * dW + C[iE] * dE);
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {50, 3, 8192, ""});
  apps::require_cuda_device(argv[0]);
  const std::size_t n = a.n;
  const std::vector<float> J = srad::make_image(n);
  const float q0 = srad::q0sqr(J);
  std::vector<float> C(n * n), Jn(n * n);
  float *dJ = apps::to_device(J.data(), n * n);
  float *dC = apps::poisoned_output<float>(n * n);
  float *dJn = apps::poisoned_output<float>(n * n);
  const unsigned blocks = unsigned((n + srad::kTile - 1) / srad::kTile);
  const dim3 grid(blocks, blocks), block(srad::kTile, srad::kTile);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zux%zu", n, n);
  apps::time_cuda(a, srad::kMeasure, extra, [&] {
    srad_coeff<<<grid, block>>>(dJ, dC, unsigned(n), q0);
    srad_update<<<grid, block>>>(dJ, dC, dJn, unsigned(n), srad::kLambda);
  });
  apps::from_device(C.data(), dC, n * n);
  apps::from_device(Jn.data(), dJn, n * n);
  srad::check("cuda", n, J, q0, C, Jn);
  CK(cudaFree(dJ));
  CK(cudaFree(dC));
  CK(cudaFree(dJn));
  return 0;
}
