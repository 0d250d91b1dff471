//===- bench/common/cuda_check.cuh - CUDA error check of the baselines ----===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_CUDA_CHECK_CUH
#define OFFLOAD_BENCH_CUDA_CHECK_CUH

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

/// Stops the program, naming the call, when a CUDA call fails.
#define CK(call)                                                               \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "bench: %s:%d: %s: %s\n", __FILE__, __LINE__,       \
                   #call, cudaGetErrorString(e_));                             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#endif // OFFLOAD_BENCH_CUDA_CHECK_CUH
