//===- bench/reduce/kernel_only/harness.cu - reduction kernels alone ------===//
//
// Part of the offload project's benchmark suite (issue 16, item 4).
//
//===----------------------------------------------------------------------===//
//
// Device time of the dot and min kernels alone (CUDA events around 50
// launches back to back, best of 3 rounds), the same buffers for every
// variant: nvcc's last_block from kernels.cu (whole program, -rdc), and
// offload's dot/lowest from reduce_ours' own cubin (as clang-linker-wrapper
// linked it). offload's kernels take the slots
// of plugin/CodeGen/LaunchABI.h: the dynamic-memory pointer, each span's data
// and size, the reduction's variable and scratch, three packed launch dims.
// run.sh builds everything; results in
// bench/results/reduce-2026-11-24-h100-inplace.txt.
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <string>
#include <vector>
#define CK(x)                                                                  \
  do {                                                                         \
    auto r_ = (x);                                                             \
    if (r_) {                                                                  \
      std::printf("FAIL %s: %d line %d\n", #x, int(r_), __LINE__);             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
int main(int argc, char **argv) {
  const size_t n = size_t(1) << 25;
  CK(cudaFree(0));
  std::vector<double> A(n), B(n);
  srand(1);
  for (size_t i = 0; i < n; ++i) {
    A[i] = rand() / double(RAND_MAX) - 0.5;
    B[i] = rand() / double(RAND_MAX) - 0.5;
  }
  double want = 0, wmin = A[0];
  for (size_t i = 0; i < n; ++i) {
    want += A[i] * B[i];
    wmin = std::min(wmin, A[i]);
  }
  double *dA, *dB, *dC, *dPart, *dOut;
  unsigned *dCount;
  char *scratch;
  CK(cudaMalloc(&dA, n * 8));
  CK(cudaMalloc(&dB, n * 8));
  CK(cudaMalloc(&dC, n * 8));
  CK(cudaMalloc(&dPart, 1 << 20));
  CK(cudaMalloc(&dOut, 8));
  CK(cudaMalloc(&dCount, 8));
  CK(cudaMalloc(&scratch, 1 << 20));
  CK(cudaMemset(dCount, 0, 8));
  CK(cudaMemset(scratch, 0, 1 << 20));
  CK(cudaMemcpy(dA, A.data(), n * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, B.data(), n * 8, cudaMemcpyHostToDevice));
  struct Shape {
    unsigned g, b;
  } shapes[] = {{1056, 256}, {2112, 256}, {264, 1024}, {528, 1024}};
  const char *ourDot =
      "__ofld__Z3dotSt4spanIKdLm18446744073709551615EES1_RN4ofld3sumIdEE";
  const char *ourMin =
      "__ofld__Z6lowestSt4spanIKdLm18446744073709551615EERN4ofld3minIdEE";
  struct V {
    const char *label, *file;
    bool ours;
  } vs[] = {{"nvcc_whole", "nvcc_whole.cubin", false},
            {"nvcc_rdc", "nvcc_rdc.cubin", false},
            {"ours_linked", "ours.cubin", true}};
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int round = 0; round < 3; ++round)
    for (auto &v : vs) {
      std::string path = std::string(argc > 1 ? argv[1] : ".") + "/" + v.file;
      CUmodule m;
      CK(cuModuleLoad(&m, path.c_str()));
      for (int op = 0; op < 2; ++op) {
        CUfunction f;
        CK(cuModuleGetFunction(&f, m,
                               v.ours ? (op ? ourMin : ourDot)
                                      : (op ? "lb_min" : "lb_sum")));
        for (auto s : shapes) {
          CK(cudaMemset(dOut, 0, 8));
          double init = op ? 1e300 : 0;
          CK(cudaMemcpy(dOut, &init, 8, cudaMemcpyHostToDevice));
          size_t nn = n;
          void *pa = dA, *pb = dB, *pp = dPart, *pc = dCount, *po = dOut;
          uint64_t ourDotArgs[10] = {0,
                                     (uint64_t)dA,
                                     n,
                                     (uint64_t)dB,
                                     n,
                                     (uint64_t)dOut,
                                     (uint64_t)scratch,
                                     0,
                                     0,
                                     0};
          uint64_t ourMinArgs[10] = {
              0, (uint64_t)dA, n, (uint64_t)dOut, (uint64_t)scratch, 0, 0, 0, 0,
              0};
          void *cudaArgs[] = {&pa, &pb, &nn, &pp, &pc, &po};
          uint64_t *oa = op ? ourMinArgs : ourDotArgs;
          size_t bytes = (op ? 8 : 10) * 8;
          void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, oa,
                           CU_LAUNCH_PARAM_BUFFER_SIZE, &bytes,
                           CU_LAUNCH_PARAM_END};
          auto launch = [&] {
            if (v.ours)
              CK(cuLaunchKernel(f, s.g, 1, 1, s.b, 1, 1, 0, 0, nullptr, extra));
            else
              CK(cuLaunchKernel(f, s.g, 1, 1, s.b, 1, 1, 0, 0, cudaArgs,
                                nullptr));
          };
          for (int i = 0; i < 5; ++i)
            launch();
          CK(cudaDeviceSynchronize());
          const int L = 50;
          CK(cudaEventRecord(e0));
          for (int i = 0; i < L; ++i)
            launch();
          CK(cudaEventRecord(e1));
          CK(cudaEventSynchronize(e1));
          float ms;
          CK(cudaEventElapsedTime(&ms, e0, e1));
          double r;
          CK(cudaMemcpy(&r, dOut, 8, cudaMemcpyDeviceToHost));
          double us = ms * 1000 / L;
          double gbs = (op ? 8.0 : 16.0) * n / us / 1e3;
          // ours accumulates into *out (sum: 55 launches of the dot); nvcc's
          // overwrites
          double expect = op ? wmin : (v.ours ? 55 * want : want);
          bool ok = op ? r == expect
                       : std::abs(r - expect) < 1e-6 * (std::abs(expect) + 1e3);
          std::printf("kernel_only round=%d variant=%s op=%s grid=%u block=%u "
                      "us=%.3f gbs=%.1f %s\n",
                      round, v.label, op ? "min" : "dot", s.g, s.b, us, gbs,
                      ok ? "ok" : "WRONG");
        }
      }
      CK(cuModuleUnload(m));
    }
  // triad for reference
  return 0;
}
