//===- bench/stream/cuda.cu - STREAM in CUDA, data resident ---------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of stream/ours.cpp: the same kernels, grid and dot algorithm.
// impl=cuda times launch + cudaDeviceSynchronize from the host, as ours is
// timed; impl=cuda_ev times the same launches with CUDA events (device time
// only), for reference.
//
// nvcc -O2 -arch=sm_90 (see bench/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"
#include "../common/cuda_check.cuh"

#include <cuda_runtime.h>

#include <vector>

using bench::kDotBlocks;
using bench::kDotFold;
using bench::kDotThreads;

__global__ void stream_copy(double *c, const double *a, std::size_t n) {
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i];
}

__global__ void stream_mul(double *b, const double *c, double s,
                           std::size_t n) {
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    b[i] = s * c[i];
}

__global__ void stream_add(double *c, const double *a, const double *b,
                           std::size_t n) {
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

__global__ void stream_triad(double *a, const double *b, const double *c,
                             double s, std::size_t n) {
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = b[i] + s * c[i];
}

__global__ void dot_partial(const double *a, const double *b, std::size_t n,
                            double *part, std::size_t np) {
  std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  double s = 0;
  for (std::size_t i = t; i < n; i += stride)
    s += a[i] * b[i];
  if (t < np)
    part[t] = s;
}

__global__ void dot_fold(const double *part, std::size_t np, double *fold,
                         std::size_t nf) {
  std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  double s = 0;
  for (std::size_t i = t; i < np; i += stride)
    s += part[i];
  if (t < nf)
    fold[t] = s;
}

namespace {

/// Launch + wait from the host, then the same launches timed by events.
template <class Launch>
void time_both(const bench::Args &a, const char *measure, double bytes,
               Launch &&launch) {
  bench::Samples h = bench::time_host(a, [&] {
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
  });
  h.report(measure, "cuda", bytes);
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  bench::Samples ev;
  for (int i = 0; i < a.reps; ++i) {
    CK(cudaEventRecord(e0));
    launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    ev.add(1e3 * double(ms));
  }
  ev.report(measure, "cuda_ev", bytes);
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
}

/// Poison the output, run once and check every element; time; check again.
template <class Launch, class Want>
void run(const bench::Args &a, const char *measure, double bytes,
         std::vector<double> &out, double *dout, Launch &&launch, Want &&want) {
  if (!bench::wanted(a, measure))
    return;
  std::size_t sz = out.size() * sizeof(double);
  CK(cudaMemset(dout, 0xff, sz)); // all-ones bytes: a NaN
  launch();
  CK(cudaGetLastError());
  CK(cudaMemcpy(out.data(), dout, sz, cudaMemcpyDeviceToHost));
  bench::check(measure, "cuda", out.data(), out.size(), want);
  time_both(a, measure, bytes, launch);
  CK(cudaMemcpy(out.data(), dout, sz, cudaMemcpyDeviceToHost));
  bench::check(measure, "cuda", out.data(), out.size(), want);
}

} // namespace

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {100, 5, std::size_t(1) << 25, ""});
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices < 1)
    bench::no_device(argv[0], e != cudaSuccess ? cudaGetErrorString(e)
                                               : "cudaGetDeviceCount is 0");
  const std::size_t n = a.n;
  const double s = 3.0;
  const double w = 8.0 * double(n);
  const std::size_t sz = n * sizeof(double);
  std::vector<double> A(n), B(n), C(n), F(kDotFold);
  bench::fill_random(A.data(), n, 1);
  bench::fill_random(B.data(), n, 2);
  bench::fill_random(C.data(), n, 3);
  double *dA, *dB, *dC, *dP, *dF;
  CK(cudaMalloc(&dA, sz));
  CK(cudaMalloc(&dB, sz));
  CK(cudaMalloc(&dC, sz));
  CK(cudaMalloc(&dP, bench::kDotPartials * sizeof(double)));
  CK(cudaMalloc(&dF, kDotFold * sizeof(double)));
  CK(cudaMemcpy(dA, A.data(), sz, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, B.data(), sz, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dC, C.data(), sz, cudaMemcpyHostToDevice));
  const unsigned grid = unsigned((n + 255) / 256);

  run(
      a, "stream_copy", 2 * w, C, dC,
      [&] { stream_copy<<<grid, 256>>>(dC, dA, n); },
      [&](std::size_t i) { return A[i]; });
  run(
      a, "stream_mul", 2 * w, B, dB,
      [&] { stream_mul<<<grid, 256>>>(dB, dC, s, n); },
      [&](std::size_t i) { return s * C[i]; });
  run(
      a, "stream_add", 3 * w, C, dC,
      [&] { stream_add<<<grid, 256>>>(dC, dA, dB, n); },
      [&](std::size_t i) { return A[i] + B[i]; });
  run(
      a, "stream_triad", 3 * w, A, dA,
      [&] { stream_triad<<<grid, 256>>>(dA, dB, dC, s, n); },
      [&](std::size_t i) { return B[i] + s * C[i]; });

  if (bench::wanted(a, "stream_dot")) {
    double result = 0;
    // The fold comes back by cudaMemcpy into pageable memory, as offload()
    // copies its [[offload::out]] span back into the std::vector.
    auto dot = [&] {
      dot_partial<<<kDotBlocks, kDotThreads>>>(dA, dB, n, dP,
                                               bench::kDotPartials);
      dot_fold<<<1, kDotFold>>>(dP, bench::kDotPartials, dF, kDotFold);
      CK(cudaMemcpy(F.data(), dF, kDotFold * sizeof(double),
                    cudaMemcpyDeviceToHost));
      result = bench::host_sum(F.data(), F.size());
    };
    CK(cudaMemset(dF, 0xff, kDotFold * sizeof(double)));
    dot();
    CK(cudaGetLastError());
    bench::check_dot("stream_dot", "cuda", result, A.data(), B.data(), n);
    time_both(a, "stream_dot", 2 * w, dot);
    bench::check_dot("stream_dot", "cuda", result, A.data(), B.data(), n);
    // Reference (impl=cuda_sync): the same with a wait after the first
    // kernel, as two synchronous calls (offload(), a target construct) have
    // it; the fold's launch then no longer hides behind the partial pass.
    auto dot_sync = [&] {
      dot_partial<<<kDotBlocks, kDotThreads>>>(dA, dB, n, dP,
                                               bench::kDotPartials);
      CK(cudaDeviceSynchronize());
      dot_fold<<<1, kDotFold>>>(dP, bench::kDotPartials, dF, kDotFold);
      CK(cudaMemcpy(F.data(), dF, kDotFold * sizeof(double),
                    cudaMemcpyDeviceToHost));
      result = bench::host_sum(F.data(), F.size());
    };
    CK(cudaMemset(dF, 0xff, kDotFold * sizeof(double)));
    bench::time_host(a, dot_sync).report("stream_dot", "cuda_sync", 2 * w);
    bench::check_dot("stream_dot", "cuda_sync", result, A.data(), B.data(), n);
  }
  CK(cudaFree(dA));
  CK(cudaFree(dB));
  CK(cudaFree(dC));
  CK(cudaFree(dP));
  CK(cudaFree(dF));
  return 0;
}
