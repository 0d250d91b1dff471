//===- bench/reduce/kernel_only/kernels.cu - CUDA's last-block kernels ----===//
//
// Part of the offload project's benchmark suite (issue 16, item 4).
//
//===----------------------------------------------------------------------===//
//
// bench/reduce/cuda.cu's last_block dot and min with C names, built into a
// cubin (nvcc -cubin, whole program or -rdc + nvlink) for harness.cu, which
// times them against offload's kernels from the same program's cubin.
//
//===----------------------------------------------------------------------===//
#include <cfloat>
enum Op { Sum, Min };
template <Op O> __device__ __forceinline__ double apply(double a, double b) {
  return O == Sum ? a + b : fmin(a, b);
}
template <Op O> __device__ __forceinline__ double identity() {
  return O == Sum ? 0.0 : DBL_MAX;
}
template <Op O> __device__ __forceinline__ double warp_reduce(double v) {
  for (int off = 16; off; off /= 2)
    v = apply<O>(v, __shfl_down_sync(0xffffffffu, v, off));
  return v;
}
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
__device__ void last_block(const double *a, const double *b, size_t n,
                           double *part, unsigned *count, double *out) {
  __shared__ bool last;
  double v = identity<O>();
  size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    v = apply<O>(v, O == Sum ? a[i] * b[i] : a[i]);
  v = block_reduce<O>(v);
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
extern "C" __global__ void lb_sum(const double *a, const double *b, size_t n,
                                  double *part, unsigned *count, double *out) {
  last_block<Sum>(a, b, n, part, count, out);
}
extern "C" __global__ void lb_min(const double *a, const double *b, size_t n,
                                  double *part, unsigned *count, double *out) {
  last_block<Min>(a, b, n, part, count, out);
}
extern "C" __global__ void triad(double *a, const double *b, const double *c,
                                 double s, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = b[i] + s * c[i];
}
