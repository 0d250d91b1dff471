//===- bench/reduce/cuda_reduce.cuh - CUDA reductions of the baselines ---===//
//
// Part of the offload project's benchmark suite (issue 16, item 4).
//
//===----------------------------------------------------------------------===//
//
// The device code of bench/reduce's CUDA side, written once: cuda.cu wraps
// it in its kernels, kernel_only/kernels.cu in C-named kernels for a cubin.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_REDUCE_CUDA_REDUCE_CUH
#define OFFLOAD_BENCH_REDUCE_CUDA_REDUCE_CUH

#include <cfloat>
#include <cstddef>

namespace reduce_cuda {

enum Op { Sum, Min, Max };

template <Op O> __device__ __forceinline__ double apply(double a, double b) {
  if (O == Sum)
    return a + b;
  if (O == Min)
    return fmin(a, b);
  return fmax(a, b);
}
template <Op O> __device__ __forceinline__ double identity() {
  return O == Sum ? 0.0 : O == Min ? DBL_MAX : -DBL_MAX;
}

template <Op O> __device__ __forceinline__ double warp_reduce(double v) {
  for (int off = 16; off; off /= 2)
    v = apply<O>(v, __shfl_down_sync(0xffffffffu, v, off));
  return v;
}

/// Block-wide: the result in thread 0. blockDim.x a multiple of 32.
template <Op O> __device__ double block_reduce(double v) {
  __shared__ double warps[32];
  v = warp_reduce<O>(v);
  unsigned lane = threadIdx.x % 32, w = threadIdx.x / 32;
  if (lane == 0)
    warps[w] = v;
  __syncthreads();
  if (w == 0) {
    v = lane < blockDim.x / 32 ? warps[lane] : identity<O>();
    v = warp_reduce<O>(v);
  }
  __syncthreads();
  return v;
}

template <Op O>
__device__ double grid_stride(const double *a, const double *b, size_t n) {
  double v = identity<O>();
  size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    v = apply<O>(v, O == Sum ? a[i] * b[i] : a[i]);
  return v;
}

/// CUDA's threadFenceReduction: partials, a counter, the last block
/// combines.
template <Op O>
__device__ void last_block_reduce(const double *a, const double *b, size_t n,
                                  double *part, unsigned *count, double *out) {
  __shared__ bool last;
  double v = block_reduce<O>(grid_stride<O>(a, b, n));
  if (threadIdx.x == 0) {
    part[blockIdx.x] = v;
    __threadfence();
    last = atomicAdd(count, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last) {
    double r = identity<O>();
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x)
      r = apply<O>(r, ((volatile double *)part)[i]);
    r = block_reduce<O>(r);
    if (threadIdx.x == 0) {
      *out = r;
      *count = 0;
    }
  }
}

__device__ __forceinline__ void
triad_element(double *a, const double *b, const double *c, double s, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = b[i] + s * c[i];
}

} // namespace reduce_cuda

#endif // OFFLOAD_BENCH_REDUCE_CUDA_REDUCE_CUH
