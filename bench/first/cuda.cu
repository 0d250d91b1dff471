//===- bench/first/cuda.cu - the cost of a program's first CUDA launch ----===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The CUDA baseline of launch_first (bench/first/ours.cpp): cudaMalloc and
// cudaMemcpy first (the context and, with CUDA_MODULE_LOADING=EAGER, the
// module are ready then), then the timed first launch + synchronise, the
// second launch, and the first launch of a second kernel. Run it with
// CUDA_MODULE_LOADING=LAZY (CUDA 12's default) and EAGER.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void first_scale(float *x, size_t n, float a) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

__global__ void first_shift(float *x, size_t n, float b) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += b;
}

static double usSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - t0)
      .count();
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1 << 20;
  std::vector<float> x(n, 1.0f);
  auto t = std::chrono::steady_clock::now();
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  double setup = usSince(t);
  unsigned blocks = unsigned((n + 255) / 256);
  t = std::chrono::steady_clock::now();
  first_scale<<<blocks, 256>>>(d, n, 2.0f);
  cudaDeviceSynchronize();
  double first = usSince(t);
  t = std::chrono::steady_clock::now();
  first_scale<<<blocks, 256>>>(d, n, 2.0f);
  cudaDeviceSynchronize();
  double second = usSince(t);
  t = std::chrono::steady_clock::now();
  first_shift<<<blocks, 256>>>(d, n, 1.0f);
  cudaDeviceSynchronize();
  double other = usSince(t);
  cudaMemcpy(x.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess || x[0] != 5.0f || x[n - 1] != 5.0f) {
    std::printf("bench: FAIL launch_first: x = %g, %g (want 5)\n", x[0],
                x[n - 1]);
    return 1;
  }
  const char *mode = std::getenv("CUDA_MODULE_LOADING");
  std::printf("measure=launch_first impl=cuda_%s setup_us=%.1f first_us=%.1f "
              "second_us=%.1f other_first_us=%.1f\n",
              mode ? mode : "default", setup, first, second, other);
  return 0;
}
