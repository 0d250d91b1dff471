//===- mark_harness.cu - launch overlap and launch marks, measured -------===//
//
// Part of the offload project's benchmark suite (issue 15, session 8). A
// diagnostic, not built by CMake: the experiment behind
// plugin/CodeGen/LaunchPrologue.h. The same Jacobi-2D (2048^2, 1000 sweeps),
// FDTD-2D and chain kernels as bench/seq (kernels.hpp), launched plainly and
// with programmatic stream serialization (PDL), with and without a launch mark
// in several forms (MODE bits below), interleaved per round; `trap N` checks
// that the mark read after a fault names launch N. Results, with the variant
// list of each run: bench/results/pdl-mark-2026-11-24-h100-session8.txt.
// (The runs used copies of kernels.hpp's formulas; it now includes them.)
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/seq/mark_harness.cu -o mark -lcuda
//   mark [ROUNDS]           the variant table
//   mark trap N [managed]   (built with -DMODE_T=...) the trap check
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>
#include <string>
#include <vector>

#define BENCH_SEQ_HD __host__ __device__
#include "../common/cuda_check.cuh"
#include "kernels.hpp"

__device__ __forceinline__ void gdwait() {
  asm volatile("griddepcontrol.wait;" ::: "memory");
}
__device__ __forceinline__ void gdtrig() {
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

__device__ __noinline__ void markfn(unsigned *mark, unsigned no) {
  *(volatile unsigned *)mark = no;
}
// MODE bits: 1 wait, 2 trigger at entry, 4 mark, 8 trap at launch==trapAt in
// last block
template <int MODE>
__global__ void jac(const float *a, float *b, int n, unsigned *mark,
                    unsigned no, unsigned trapAt) {
  bool m = false;
  if (MODE & (4 | 128))
    m = (MODE & 32)   ? blockIdx.x == 0
        : (MODE & 16) ? (blockIdx.x | blockIdx.y | blockIdx.z) == 0
                      : (threadIdx.x | threadIdx.y | threadIdx.z | blockIdx.x |
                         blockIdx.y | blockIdx.z) == 0;
  if (MODE & 2)
    gdtrig();
  if ((MODE & 128) && m)
    *(volatile unsigned *)mark = no;
  if ((MODE & 2048) && blockIdx.x == 0)
    markfn(mark, no);
  if (MODE & 1)
    gdwait();
  if ((MODE & 1024) && blockIdx.x == 0)
    markfn(mark, no);
  if (MODE & 512)
    asm volatile("{.reg .pred p; setp.eq.u32 p, %0, 0; @p "
                 "st.volatile.global.u32 [%1], %2;}" ::"r"(blockIdx.x),
                 "l"(mark), "r"(no)
                 : "memory");
  if ((MODE & 4) && m && (!(MODE & 8192) || no == 0)) {
    if (MODE & 64)
      *mark = no;
    else
      *(volatile unsigned *)mark = no;
  }
  if ((MODE & 16384) && (blockIdx.x | blockIdx.y) == 0)
    markfn(mark, no);
  if ((MODE & 8) && no == trapAt && blockIdx.x == gridDim.x - 1 &&
      blockIdx.y == gridDim.y - 1 && threadIdx.x == 0 && threadIdx.y == 0)
    __trap();
  seq::jacobi_point(a, b, n, blockIdx.y * blockDim.y + threadIdx.y,
                    blockIdx.x * blockDim.x + threadIdx.x);
  if ((MODE & 256) && blockIdx.x == 0)
    *(volatile unsigned *)mark = no;
}

#define PRO(MODE)                                                              \
  bool m = false;                                                              \
  if (MODE & 4)                                                                \
    m = (threadIdx.x | threadIdx.y | threadIdx.z | blockIdx.x | blockIdx.y |   \
         blockIdx.z) == 0;                                                     \
  if (MODE & 1)                                                                \
    gdwait();                                                                  \
  if ((MODE & 4) && m)                                                         \
    *(volatile unsigned *)mark = no;
template <int MODE>
__global__ void ey_step(float *ey, const float *hz, float fict, int nx, int ny,
                        unsigned *mark, unsigned no) {
  PRO(MODE)
  seq::fdtd_ey(ey, hz, fict, nx, ny, blockIdx.y * blockDim.y + threadIdx.y,
               blockIdx.x * blockDim.x + threadIdx.x);
}
template <int MODE>
__global__ void ex_step(float *ex, const float *hz, int nx, int ny,
                        unsigned *mark, unsigned no) {
  PRO(MODE)
  seq::fdtd_ex(ex, hz, nx, ny, blockIdx.y * blockDim.y + threadIdx.y,
               blockIdx.x * blockDim.x + threadIdx.x);
}
template <int MODE>
__global__ void hz_step(float *hz, const float *ex, const float *ey, int nx,
                        int ny, unsigned *mark, unsigned no) {
  PRO(MODE)
  seq::fdtd_hz(hz, ex, ey, nx, ny, blockIdx.y * blockDim.y + threadIdx.y,
               blockIdx.x * blockDim.x + threadIdx.x);
}
template <int MODE>
__global__ void inc(int *x, int n, unsigned *mark, unsigned no, unsigned) {
  bool m = false;
  if (MODE & 4)
    m = (threadIdx.x | blockIdx.x) == 0;
  if (MODE & 2)
    gdtrig();
  if (MODE & 1)
    gdwait();
  if ((MODE & 4) && m)
    *(volatile unsigned *)mark = no;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1;
}

static unsigned *hmark, *dmark, *devmark, *mgdmark, *MK;
static unsigned counter = 0;

template <typename K, typename... A>
void launch(K k, bool pdl, dim3 g, dim3 b, cudaStream_t s, A... args) {
  cudaLaunchConfig_t c = {};
  c.gridDim = g;
  c.blockDim = b;
  c.stream = s;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  if (pdl) {
    c.attrs = at;
    c.numAttrs = 1;
  }
  CK(cudaLaunchKernelEx(&c, k, args...));
}

#ifndef MODE_T
#define MODE_T 13
#endif
int main(int argc, char **argv) {
  const int n = 2048;
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CK(cudaHostAlloc(&hmark, 64, cudaHostAllocMapped));
  CK(cudaHostGetDevicePointer((void **)&dmark, hmark, 0));
  CK(cudaMalloc(&devmark, 64));
  CK(cudaMallocManaged(&mgdmark, 4096));
  CK(cudaMemAdvise(mgdmark, 4096, cudaMemAdviseSetPreferredLocation,
                   cudaMemLocation{cudaMemLocationTypeDevice, 0}));
  CK(cudaMemPrefetchAsync(mgdmark, 4096,
                          cudaMemLocation{cudaMemLocationTypeDevice, 0}, 0, 0));
  CK(cudaDeviceSynchronize());
  MK = dmark;
  dim3 g((n + 31) / 32, (n + 7) / 8), b(32, 8);
  if (argc > 1 && std::string(argv[1]) == "trap") {
    // trap in launch number argv[2] with PDL+trigger+mark (MODE 15)
    unsigned at = atoi(argv[2]);
    float *A, *B;
    CK(cudaMalloc(&A, 4ull * n * n));
    CK(cudaMalloc(&B, 4ull * n * n));
    bool managed = argc > 3;
    *hmark = 0;
    for (unsigned k = 1; k <= 200; ++k)
      launch(jac<MODE_T>, true, g, b, s, (const float *)A, B, n,
             managed ? mgdmark : dmark, k, at);
    cudaError_t e = cudaStreamSynchronize(s);
    unsigned got = managed ? *(volatile unsigned *)mgdmark : *hmark;
    std::printf("trap at %u (%s): sync=%s mark=%u -> %s\n", at,
                managed ? "managed" : "pinned", cudaGetErrorName(e), got,
                got == at ? "EXACT" : "WRONG");
    return 0;
  }
  std::vector<float> h(size_t(n) * n);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = float(i % 1000) / 1000.f;
  float *A, *B;
  CK(cudaMalloc(&A, 4ull * n * n));
  CK(cudaMalloc(&B, 4ull * n * n));
  CK(cudaMemcpy(A, h.data(), 4ull * n * n, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(B, h.data(), 4ull * n * n, cudaMemcpyHostToDevice));
  int *x;
  CK(cudaMalloc(&x, 1024));
  CK(cudaMemset(x, 0, 1024));
  struct V {
    const char *name;
    void (*run)(float *, float *, int, dim3, dim3, cudaStream_t);
  };
#define JV(NAME, MODE, PDL, MEMSET)                                            \
  {                                                                            \
    NAME, [](float *A, float *B, int n, dim3 g, dim3 b, cudaStream_t s) {      \
      for (int t = 0; t < 1000; ++t) {                                         \
        launch(jac<MODE>, PDL, g, b, s, (const float *)A, B, n, MK, ++counter, \
               0u);                                                            \
        if (MEMSET)                                                            \
          cuMemsetD32Async((CUdeviceptr)dmark, counter, 1, s);                 \
        launch(jac<MODE>, PDL, g, b, s, (const float *)B, A, n, MK, ++counter, \
               0u);                                                            \
        if (MEMSET)                                                            \
          cuMemsetD32Async((CUdeviceptr)dmark, counter, 1, s);                 \
      }                                                                        \
      CK(cudaStreamSynchronize(s));                                            \
    }                                                                          \
  }
#define CV(NAME, MODE, PDL)                                                    \
  {                                                                            \
    NAME, [](float *A, float *, int, dim3, dim3, cudaStream_t s) {             \
      for (int t = 0; t < 10000; ++t)                                          \
        launch(inc<MODE>, PDL, dim3(1), dim3(256), s, (int *)A, 256, dmark,    \
               ++counter, 0u);                                                 \
      CK(cudaStreamSynchronize(s));                                            \
    }                                                                          \
  }
#define FV(NAME, MODE, PDL)                                                    \
  {                                                                            \
    NAME, [](float *ex, float *ey, int n, dim3 g, dim3 b, cudaStream_t s) {    \
      float *hz = ey + size_t(n) * n;                                          \
      for (int t = 0; t < 500; ++t) {                                          \
        launch(ey_step<MODE>, PDL, g, b, s, ey, (const float *)hz, float(t),   \
               n, n, MK, ++counter);                                           \
        launch(ex_step<MODE>, PDL, g, b, s, ex, (const float *)hz, n, n, MK,   \
               ++counter);                                                     \
        launch(hz_step<MODE>, PDL, g, b, s, hz, (const float *)ex,             \
               (const float *)ey, n, n, MK, ++counter);                        \
      }                                                                        \
      CK(cudaStreamSynchronize(s));                                            \
    }                                                                          \
  }
  struct W {
    V v;
    int tgt;
    int kind;
  };
  W ws[] = {
      {JV("jac plain", 0, false, false), 0, 0},
      {JV("jac pdl wait", 1, true, false), 0, 0},
      {JV("B g6 weak device", 1 + 4 + 64, true, false), 1, 0},
      {JV("C g6 volatile device", 1 + 4, true, false), 1, 0},
      {JV("D g6 volatile pinned", 1 + 4, true, false), 0, 0},
      {JV("E g6 never stores", 1 + 4 + 8192, true, false), 0, 0},
      {JV("F fn on block (0,0)", 1 + 16384, true, false), 0, 0},
      {JV("G fn on block (0,0) dev", 1 + 16384, true, false), 1, 0},
      {JV("plain D", 4, false, false), 0, 0},
      {JV("plain E", 4 + 8192, false, false), 0, 0},
  };
  const int NV = sizeof ws / sizeof ws[0];
  V vs[NV];
  for (int i = 0; i < NV; ++i)
    vs[i] = ws[i].v;
  unsigned *tg[3] = {dmark, devmark, mgdmark};
  float *F;
  CK(cudaMalloc(&F, 12ull * n * n));
  CK(cudaMemset(F, 0, 12ull * n * n));

  const int R = argc > 1 ? atoi(argv[1]) : 7;
  std::vector<std::vector<double>> t(NV);
  auto args = [&](int v, float *&a, float *&bb) {
    a = A;
    bb = B;
    if (ws[v].kind == 1) {
      a = F;
      bb = F + size_t(n) * n;
    }
    if (ws[v].kind == 2)
      a = (float *)x;
    MK = tg[ws[v].tgt];
  };
  for (int v = 0; v < NV; ++v) {
    float *a, *bb;
    args(v, a, bb);
    vs[v].run(a, bb, n, g, b, s);
  } // warmup
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < NV; ++v) {
      float *a, *bb;
      args(v, a, bb);
      auto t0 = std::chrono::steady_clock::now();
      vs[v].run(a, bb, n, g, b, s);
      t[v].push_back(std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - t0)
                         .count());
    }
  CK(cudaGetLastError());
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s, %d rounds, median ms (min..max), ratio to plain\n", p.name,
              R);
  for (int v = 0; v < NV; ++v) {
    auto w = t[v];
    std::sort(w.begin(), w.end());
    int b0 = 0;
    while (ws[b0].kind != ws[v].kind)
      ++b0;
    double base = 0;
    {
      auto z = t[b0];
      std::sort(z.begin(), z.end());
      base = z[z.size() / 2];
    }
    std::printf("%-26s %8.3f (%.3f..%.3f) %.3f\n", vs[v].name, w[w.size() / 2],
                w.front(), w.back(), w[w.size() / 2] / base);
  }
}
