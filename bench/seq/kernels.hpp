//===- bench/seq/kernels.hpp - the sequences' work, shared by all builds --===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The per-element work of the three sequences and their CPU references, in
// one place so that offload(), CUDA and the CPU check compute the same float
// operations in the same order. Plain inline functions: the CUDA program
// compiles them as __host__ __device__ (BENCH_SEQ_HD), the others as they
// are.
//
//   chain     x[i] += 1, 10,000 dependent launches of 1 block of 256
//   jacobi2d  PolyBench's jacobi-2d: per sweep B = stencil(A), A = stencil(B)
//   fdtd2d    PolyBench's fdtd-2d: per step ey, ex, then hz (3 kernels)
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_SEQ_KERNELS_HPP
#define OFFLOAD_BENCH_SEQ_KERNELS_HPP

#include <cmath>
#include <cstddef>
#include <vector>

#ifndef BENCH_SEQ_HD
#define BENCH_SEQ_HD
#endif

namespace seq {

constexpr int ChainLaunches = 10000, ChainElements = 256;
constexpr int JacobiSweeps = 1000, FdtdSteps = 500;
/// 2-D launches: blocks of 32 x 8 threads, x along a row (j), y down (i).
constexpr unsigned BlockX = 32, BlockY = 8;

BENCH_SEQ_HD inline void jacobi_point(const float *a, float *b, int n, int i,
                                      int j) {
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] +
                           a[(i + 1) * n + j] + a[(i - 1) * n + j]);
}

BENCH_SEQ_HD inline void fdtd_ey(float *ey, const float *hz, float fict, int nx,
                                 int ny, int i, int j) {
  if (i >= nx || j >= ny)
    return;
  if (i == 0)
    ey[j] = fict;
  else
    ey[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
}

BENCH_SEQ_HD inline void fdtd_ex(float *ex, const float *hz, int nx, int ny,
                                 int i, int j) {
  if (i < nx && j >= 1 && j < ny)
    ex[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

BENCH_SEQ_HD inline void fdtd_hz(float *hz, const float *ex, const float *ey,
                                 int nx, int ny, int i, int j) {
  if (i < nx - 1 && j < ny - 1)
    hz[i * ny + j] -= 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] +
                              ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

/// PolyBench's initial values.
inline void jacobi_init(std::vector<float> &a, std::vector<float> &b, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      a[i * n + j] = (float(i) * float(j + 2) + 2) / float(n);
      b[i * n + j] = (float(i) * float(j + 3) + 3) / float(n);
    }
}

inline void fdtd_init(std::vector<float> &ex, std::vector<float> &ey,
                      std::vector<float> &hz, std::vector<float> &fict, int nx,
                      int ny, int steps) {
  fict.resize(std::size_t(steps));
  for (int t = 0; t < steps; ++t)
    fict[t] = float(t);
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      ex[i * ny + j] = (float(i) * float(j + 1)) / float(nx);
      ey[i * ny + j] = (float(i) * float(j + 2)) / float(ny);
      hz[i * ny + j] = (float(i) * float(j + 3)) / float(nx);
    }
}

/// The CPU references, point by point in the kernels' order.
inline void jacobi_cpu(std::vector<float> &a, std::vector<float> &b, int n,
                       int sweeps) {
  for (int t = 0; t < sweeps; ++t) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        jacobi_point(a.data(), b.data(), n, i, j);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        jacobi_point(b.data(), a.data(), n, i, j);
  }
}

inline void fdtd_cpu(std::vector<float> &ex, std::vector<float> &ey,
                     std::vector<float> &hz, const std::vector<float> &fict,
                     int nx, int ny, int steps) {
  for (int t = 0; t < steps; ++t) {
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        fdtd_ey(ey.data(), hz.data(), fict[t], nx, ny, i, j);
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        fdtd_ex(ex.data(), hz.data(), nx, ny, i, j);
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        fdtd_hz(hz.data(), ex.data(), ey.data(), nx, ny, i, j);
  }
}

/// Largest difference relative to the largest magnitude of `y`: the GPU
/// compilers may contract a*b+c into one fma where the host does not, and
/// fdtd's differences of nearby values magnify that near zero.
inline double max_rel_diff(const std::vector<float> &x,
                           const std::vector<float> &y) {
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    worst = std::fmax(worst, std::fabs(double(x[i]) - double(y[i])));
    scale = std::fmax(scale, std::fabs(double(y[i])));
  }
  return scale > 0 ? worst / scale : worst;
}

inline double checksum(const std::vector<float> &x) {
  double s = 0;
  for (float v : x)
    s += double(v);
  return s;
}

} // namespace seq

#endif // OFFLOAD_BENCH_SEQ_KERNELS_HPP
