//===- cubin_harness.cu - a Jacobi-2D kernel image in CUDA's harness -----===//
//
// Part of the offload project's benchmark suite (issue 15). A diagnostic,
// not built by CMake: it loads a cubin (nvcc's, or an offload() program's
// image as bench/apps/cubins.py extracts it) with the driver API and times
// seq's Jacobi-2D (2048^2, 1000 sweeps, two launches a sweep, one stream,
// one synchronisation) on cuMemAlloc'ed data, so that two kernel images are
// compared with the same memory and the same launch path. Our entries take
// eleven slots (LaunchABI.h): dyn_ptr, a, |a|, b, |b|, n, the packed dims,
// and the launch mark (0, 0: none). The launch has no overlap attribute.
//   nvcc -O2 -arch=sm_90 bench/seq/cubin_harness.cu -o harness -lcuda
//   harness CUBIN KERNEL ours|cuda [STREAM_FLAGS [GAP]]
// GAP puts both arrays in one allocation, B = A + 16 MiB + GAP bytes.
// Results: bench/results/seq-2026-11-24-h100-h15-run2-harness-raw.txt.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <vector>
#define CK(x)                                                                  \
  do {                                                                         \
    CUresult r = (x);                                                          \
    if (r) {                                                                   \
      const char *s;                                                           \
      cuGetErrorName(r, &s);                                                   \
      std::fprintf(stderr, "%s: %s\n", #x, s);                                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: harness CUBIN KERNEL ours|cuda [flags]\n");
    return 2;
  }
  const char *cubin = argv[1], *kernel = argv[2];
  bool ours = !std::strcmp(argv[3], "ours");
  unsigned sflags = argc > 4 ? std::atoi(argv[4]) : 0; // stream flags
  const int n = 2048, sweeps = 1000, reps = 7;
  CK(cuInit(0));
  CUdevice d;
  CK(cuDeviceGet(&d, 0));
  CUcontext c;
  CK(cuDevicePrimaryCtxRetain(&c, d));
  CK(cuCtxSetCurrent(c));
  CUmodule m;
  CK(cuModuleLoad(&m, cubin));
  CUfunction f;
  CK(cuModuleGetFunction(&f, m, kernel));
  std::vector<float> A(size_t(n) * n), B(size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      A[i * n + j] = (float(i) * float(j + 2) + 2) / float(n);
      B[i * n + j] = (float(i) * float(j + 3) + 3) / float(n);
    }
  long gap = argc > 5 ? std::atol(argv[5])
                      : -1; // B = A + size + gap in one allocation
  CUdeviceptr a, b;
  if (gap < 0) {
    CK(cuMemAlloc(&a, A.size() * 4));
    CK(cuMemAlloc(&b, B.size() * 4));
  } else {
    CK(cuMemAlloc(&a, 2 * A.size() * 4 + gap));
    b = a + A.size() * 4 + gap;
  }
  CK(cuMemcpyHtoD(a, A.data(), A.size() * 4));
  CK(cuMemcpyHtoD(b, B.data(), B.size() * 4));
  CUstream s;
  CK(cuStreamCreate(&s, sflags));
  unsigned gx = n / 32, gy = n / 8;
  auto launch = [&](CUdeviceptr x, CUdeviceptr y) {
    if (ours) {
      uint64_t p[11] = {0,
                        x,
                        uint64_t(n) * n,
                        y,
                        uint64_t(n) * n,
                        uint64_t(n),
                        gx | (uint64_t(gy) << 32),
                        1 | (32ull << 32),
                        8 | (1ull << 32),
                        0, // no launch mark (runtime_abi.def)
                        0};
      size_t bytes = sizeof p;
      void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, p,
                       CU_LAUNCH_PARAM_BUFFER_SIZE, &bytes,
                       CU_LAUNCH_PARAM_END};
      CK(cuLaunchKernel(f, gx, gy, 1, 32, 8, 1, 0, s, nullptr, extra));
    } else {
      int nn = n;
      void *args[] = {&x, &y, &nn};
      CK(cuLaunchKernel(f, gx, gy, 1, 32, 8, 1, 0, s, args, nullptr));
    }
  };
  std::vector<double> t;
  for (int r = 0; r < reps + 1; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < sweeps; ++k) {
      launch(a, b);
      launch(b, a);
    }
    CK(cuStreamSynchronize(s));
    double us = std::chrono::duration<double, std::micro>(
                    std::chrono::steady_clock::now() - t0)
                    .count();
    if (r)
      t.push_back(us);
  }
  std::sort(t.begin(), t.end());
  CK(cuMemcpyDtoH(A.data(), a, A.size() * 4));
  double sum = 0;
  for (float v : A)
    sum += v;
  std::printf(
      "cubin=%s median_us=%.3f min_us=%.3f checksum=%.6e a=%llx b=%llx\n",
      cubin, t[t.size() / 2], t[0], sum, (unsigned long long)a,
      (unsigned long long)b);
}
