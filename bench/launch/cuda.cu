//===- bench/launch/cuda.cu - launch latency of CUDA ----------------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of launch/ours.cpp. launch_empty: empty<<<1, 1>>> then
// cudaDeviceSynchronize, timed from the host. launch_1kb: cudaMemcpy of 1 KB
// of pageable memory in, bump<<<1, 256>>>, cudaMemcpy back (the device
// buffer is allocated once, as a CUDA programmer would).
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"
#include "../common/cuda_check.cuh"

#include <cuda_runtime.h>

#include <vector>

__global__ void launch_empty() {}

__global__ void launch_bump(double *v, std::size_t n) {
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] += 1.0;
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {1000, 50, 128, ""});
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices < 1)
    bench::no_device(argv[0], e != cudaSuccess ? cudaGetErrorString(e)
                                               : "cudaGetDeviceCount is 0");

  if (bench::wanted(a, "launch_empty")) {
    bench::time_host(a, [] {
      launch_empty<<<1, 1>>>();
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
    }).report("launch_empty", "cuda");
  }

  if (bench::wanted(a, "launch_1kb")) {
    std::vector<double> v(a.n);
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = double(i * 7 % 1000 + 1);
    const std::size_t sz = v.size() * sizeof(double);
    const unsigned grid = unsigned((v.size() + 255) / 256);
    double *d;
    CK(cudaMalloc(&d, sz));
    bench::Samples s = bench::time_host(a, [&] {
      CK(cudaMemcpy(d, v.data(), sz, cudaMemcpyHostToDevice));
      launch_bump<<<grid, 256>>>(d, v.size());
      CK(cudaGetLastError());
      CK(cudaMemcpy(v.data(), d, sz, cudaMemcpyDeviceToHost));
    });
    const double calls = a.warmup + a.reps;
    bench::check("launch_1kb", "cuda", v.data(), v.size(), [&](std::size_t i) {
      return double(i * 7 % 1000 + 1) + calls;
    });
    char extra[48];
    std::snprintf(extra, sizeof extra, "arg_bytes=%zu",
                  v.size() * sizeof(double));
    s.report("launch_1kb", "cuda", 0, extra);
    CK(cudaFree(d));
  }
  return 0;
}
