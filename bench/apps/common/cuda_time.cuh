//===- bench/apps/common/cuda_time.cuh - timing of the CUDA versions ------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// A CUDA version's repetition is its launches plus cudaDeviceSynchronize,
// timed by the host clock: the same scope as ours, whose offload() returns
// when the kernel is done (impl=cuda). The same launches are then timed
// with CUDA events around them (impl=cuda_ev, device time only, for
// reference: what the launch path adds is the difference).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_APPS_COMMON_CUDA_TIME_CUH
#define OFFLOAD_BENCH_APPS_COMMON_CUDA_TIME_CUH

#include "../../common/bench.hpp"
#include "../../common/cuda_check.cuh"

#include <cuda_runtime.h>

namespace apps {

/// Exits with status 3 where no GPU can be used.
inline void require_cuda_device(const char *prog) {
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices < 1)
    bench::no_device(prog, e != cudaSuccess ? cudaGetErrorString(e)
                                            : "cudaGetDeviceCount is 0");
}

/// Times `launch` (which only launches) both ways and prints both lines.
template <class Launch>
void time_cuda(const bench::Args &a, const char *measure, const char *extra,
               Launch &&launch) {
  bench::Samples h = bench::time_host(a, [&] {
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
  });
  h.report(measure, "cuda", 0, extra);
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
  ev.report(measure, "cuda_ev", 0, extra);
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
}

/// A device copy of `v` (cudaMalloc + cudaMemcpy), freed by the caller.
template <class T> T *to_device(const T *p, std::size_t n) {
  T *d = nullptr;
  CK(cudaMalloc(&d, n * sizeof(T)));
  CK(cudaMemcpy(d, p, n * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

/// Device memory for n outputs, filled with 0xff bytes (a NaN as float, -1
/// as int), so that what a kernel leaves unwritten fails the check.
template <class T> T *poisoned_output(std::size_t n) {
  T *d = nullptr;
  CK(cudaMalloc(&d, n * sizeof(T)));
  CK(cudaMemset(d, 0xff, n * sizeof(T)));
  return d;
}

template <class T> void from_device(T *p, const T *d, std::size_t n) {
  CK(cudaMemcpy(p, d, n * sizeof(T), cudaMemcpyDeviceToHost));
}

} // namespace apps

#endif // OFFLOAD_BENCH_APPS_COMMON_CUDA_TIME_CUH
