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
#include "../cuda_reduce.cuh"

using namespace reduce_cuda;

extern "C" __global__ void lb_sum(const double *a, const double *b, size_t n,
                                  double *part, unsigned *count, double *out) {
  last_block_reduce<Sum>(a, b, n, part, count, out);
}
extern "C" __global__ void lb_min(const double *a, const double *b, size_t n,
                                  double *part, unsigned *count, double *out) {
  last_block_reduce<Min>(a, b, n, part, count, out);
}
extern "C" __global__ void triad(double *a, const double *b, const double *c,
                                 double s, size_t n) {
  triad_element(a, b, c, s, n);
}
