//===- bench/xfer/cuda.cu - STREAM triad with transfers, CUDA -------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of xfer/ours.cpp, host arrays in pageable memory (std::vector)
// as there. impl=cuda: device buffers allocated once; per repetition
// cudaMemcpy b and c in, the kernel, cudaMemcpy a back. impl=cuda_alloc: the
// same with cudaMalloc/cudaFree in every repetition (offload() allocates
// device memory per call). xfer_triad_tofrom: all three arrays both ways.
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"
#include "../common/cuda_check.cuh"

#include <cuda_runtime.h>

#include <vector>

__global__ void xfer_triad(double *a, const double *b, const double *c,
                           double s, std::size_t n) {
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = b[i] + s * c[i];
}

namespace {

template <class Launch>
void run(const bench::Args &args, const char *measure, const char *impl,
         double bytes, std::vector<double> &a, const std::vector<double> &b,
         const std::vector<double> &c, double s, Launch &&launch) {
  auto want = [&](std::size_t i) { return b[i] + s * c[i]; };
  bench::poison(a.data(), a.size());
  launch();
  bench::check(measure, impl, a.data(), a.size(), want);
  bench::poison(a.data(), a.size());
  bench::Samples t = bench::time_host(args, launch);
  bench::check(measure, impl, a.data(), a.size(), want);
  t.report(measure, impl, bytes);
}

} // namespace

int main(int argc, char **argv) {
  bench::Args args =
      bench::parse(argc, argv, {15, 2, std::size_t(1) << 25, ""});
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices < 1)
    bench::no_device(argv[0], e != cudaSuccess ? cudaGetErrorString(e)
                                               : "cudaGetDeviceCount is 0");
  const std::size_t n = args.n, sz = n * sizeof(double);
  const double s = 3.0, w = 8.0 * double(n);
  const unsigned grid = unsigned((n + 255) / 256);
  std::vector<double> a(n), b(n), c(n);
  bench::fill_random(b.data(), n, 2);
  bench::fill_random(c.data(), n, 3);
  double *dA, *dB, *dC;
  auto body = [&](bool tofrom) {
    if (tofrom)
      CK(cudaMemcpy(dA, a.data(), sz, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, b.data(), sz, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, c.data(), sz, cudaMemcpyHostToDevice));
    xfer_triad<<<grid, 256>>>(dA, dB, dC, s, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(a.data(), dA, sz, cudaMemcpyDeviceToHost));
    if (tofrom) {
      CK(cudaMemcpy(b.data(), dB, sz, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(c.data(), dC, sz, cudaMemcpyDeviceToHost));
    }
  };
  auto alloc = [&] {
    CK(cudaMalloc(&dA, sz));
    CK(cudaMalloc(&dB, sz));
    CK(cudaMalloc(&dC, sz));
  };
  auto release = [&] {
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
  };

  if (bench::wanted(args, "xfer_triad")) {
    alloc();
    run(args, "xfer_triad", "cuda", 3 * w, a, b, c, s, [&] { body(false); });
    release();
    run(args, "xfer_triad", "cuda_alloc", 3 * w, a, b, c, s, [&] {
      alloc();
      body(false);
      release();
    });
  }
  if (bench::wanted(args, "xfer_triad_tofrom")) {
    alloc();
    run(args, "xfer_triad_tofrom", "cuda", 6 * w, a, b, c, s,
        [&] { body(true); });
    release();
  }
  return 0;
}
