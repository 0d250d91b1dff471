//===- bench/reduce/cuda.cu - the CUDA baselines of bench/reduce ---------===//
//
// Part of the offload project's benchmark suite (issue 16, item 4).
//
//===----------------------------------------------------------------------===//
//
// dot, min and max of N doubles resident on the device, the best ways we
// know to write them in CUDA, each timed as a whole (kernels + the 8-byte
// result back, cudaMemcpy synchronous), for the same grids as ours.cpp:
//   two_pass    grid-stride partials (registers, warp shuffles, one value
//               per warp in shared memory) + a one-block second kernel
//   babel       BabelStream's dot: the partials copied back, summed on the
//               host
//   atomic      one atomicAdd per block into a zeroed result (dot only;
//               not deterministic)
//   last_block  one kernel: partials, a counter, the last block combines
//               (CUDA's threadFenceReduction sample; what offload does)
// and STREAM's triad, one thread per element in blocks of 256.
//
//===----------------------------------------------------------------------===//

#include "../common/bench.hpp"
#include "../common/cuda_check.cuh"
#include "cuda_reduce.cuh"

#include <cuda_runtime.h>

#include <cfloat>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace reduce_cuda;

template <Op O>
__global__ void partials(const double *a, const double *b, size_t n,
                         double *part) {
  double v = block_reduce<O>(grid_stride<O>(a, b, n));
  if (threadIdx.x == 0)
    part[blockIdx.x] = v;
}

template <Op O>
__global__ void fold(const double *part, unsigned m, double *out) {
  double v = identity<O>();
  for (unsigned i = threadIdx.x; i < m; i += blockDim.x)
    v = apply<O>(v, part[i]);
  v = block_reduce<O>(v);
  if (threadIdx.x == 0)
    *out = v;
}

__global__ void dot_atomic(const double *a, const double *b, size_t n,
                           double *out) {
  double v = block_reduce<Sum>(grid_stride<Sum>(a, b, n));
  if (threadIdx.x == 0)
    atomicAdd(out, v);
}

template <Op O>
__global__ void last_block(const double *a, const double *b, size_t n,
                           double *part, unsigned *count, double *out) {
  last_block_reduce<O>(a, b, n, part, count, out);
}

__global__ void triad(double *a, const double *b, const double *c, double s,
                      size_t n) {
  triad_element(a, b, c, s, n);
}

struct Shape {
  unsigned blocks, threads;
};
const Shape Shapes[] = {{264, 256},  {528, 256},  {1056, 256}, {2112, 256},
                        {132, 1024}, {264, 1024}, {528, 1024}};

} // namespace

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {200, 20, size_t(1) << 25, ""});
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1)
    bench::no_device(argv[0], "cudaGetDeviceCount");
  const size_t n = a.n;
  std::vector<double> A(n), B(n);
  bench::fill_random(A.data(), n, 1);
  bench::fill_random(B.data(), n, 2);
  double want[3] = {0, A[0], A[0]};
  for (size_t i = 0; i < n; ++i) {
    want[Sum] += A[i] * B[i];
    want[Min] = std::min(want[Min], A[i]);
    want[Max] = std::max(want[Max], A[i]);
  }
  double *dA, *dB, *dC, *dPart, *dOut;
  unsigned *dCount;
  CK(cudaMalloc(&dA, n * sizeof(double)));
  CK(cudaMalloc(&dB, n * sizeof(double)));
  CK(cudaMalloc(&dC, n * sizeof(double)));
  CK(cudaMalloc(&dPart, 4096 * sizeof(double)));
  CK(cudaMalloc(&dOut, sizeof(double)));
  CK(cudaMalloc(&dCount, sizeof(unsigned)));
  CK(cudaMemset(dCount, 0, sizeof(unsigned)));
  CK(cudaMemcpy(dA, A.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, B.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  std::vector<double> hostPart(4096);

  const char *names[3] = {"reduce_dot", "reduce_min", "reduce_max"};
  auto check = [&](Op o, const char *impl, double got) {
    double tol = o == Sum ? double(n) * 0x1p-53 * want[Sum] * 2 : 0;
    if (!(std::fabs(got - want[o]) <= tol))
      bench::fail(names[o], impl, "wrong result");
  };

  for (const Shape &S : Shapes) {
    std::string extra = "grid=" + std::to_string(S.blocks) +
                        " block=" + std::to_string(S.threads);
    for (Op o : {Sum, Min, Max}) {
      const double *b = o == Sum ? dB : nullptr;
      double r = 0;
      auto two_pass = [&] {
        if (o == Sum) {
          partials<Sum><<<S.blocks, S.threads>>>(dA, b, n, dPart);
          fold<Sum><<<1, 1024>>>(dPart, S.blocks, dOut);
        } else if (o == Min) {
          partials<Min><<<S.blocks, S.threads>>>(dA, b, n, dPart);
          fold<Min><<<1, 1024>>>(dPart, S.blocks, dOut);
        } else {
          partials<Max><<<S.blocks, S.threads>>>(dA, b, n, dPart);
          fold<Max><<<1, 1024>>>(dPart, S.blocks, dOut);
        }
        CK(cudaMemcpy(&r, dOut, sizeof(double), cudaMemcpyDeviceToHost));
      };
      auto last = [&] {
        if (o == Sum)
          last_block<Sum>
              <<<S.blocks, S.threads>>>(dA, b, n, dPart, dCount, dOut);
        else if (o == Min)
          last_block<Min>
              <<<S.blocks, S.threads>>>(dA, b, n, dPart, dCount, dOut);
        else
          last_block<Max>
              <<<S.blocks, S.threads>>>(dA, b, n, dPart, dCount, dOut);
        CK(cudaMemcpy(&r, dOut, sizeof(double), cudaMemcpyDeviceToHost));
      };
      std::vector<std::pair<const char *, std::function<void()>>> variants = {
          {"cuda_two_pass", two_pass}, {"cuda_last_block", last}};
      if (o == Sum) {
        variants.push_back(
            {"cuda_atomic", [&] {
               CK(cudaMemsetAsync(dOut, 0, sizeof(double)));
               dot_atomic<<<S.blocks, S.threads>>>(dA, dB, n, dOut);
               CK(cudaMemcpy(&r, dOut, sizeof(double), cudaMemcpyDeviceToHost));
             }});
        variants.push_back(
            {"cuda_babel", [&] {
               partials<Sum><<<S.blocks, S.threads>>>(dA, dB, n, dPart);
               CK(cudaMemcpy(hostPart.data(), dPart, S.blocks * sizeof(double),
                             cudaMemcpyDeviceToHost));
               double s = 0;
               for (unsigned i = 0; i < S.blocks; ++i)
                 s += hostPart[i];
               r = s;
             }});
      }
      for (auto &[impl, run] : variants) {
        run();
        CK(cudaGetLastError());
        check(o, impl, r);
        bench::Samples T = bench::time_host(a, run);
        check(o, impl, r);
        T.report(names[o], impl, (o == Sum ? 16.0 : 8.0) * double(n),
                 extra.c_str());
      }
    }
  }
  // Kernel throughput: 20 launches, one synchronisation (the result stays
  // on the device), as ours.cpp's reduce_dot_queued.
  for (const Shape &S : Shapes) {
    std::string extra = "grid=" + std::to_string(S.blocks) +
                        " block=" + std::to_string(S.threads) + " launches=20";
    std::vector<std::pair<const char *, std::function<void()>>> variants = {
        {"cuda_two_pass",
         [&] {
           partials<Sum><<<S.blocks, S.threads>>>(dA, dB, n, dPart);
           fold<Sum><<<1, 1024>>>(dPart, S.blocks, dOut);
         }},
        {"cuda_last_block",
         [&] {
           last_block<Sum>
               <<<S.blocks, S.threads>>>(dA, dB, n, dPart, dCount, dOut);
         }},
        {"cuda_atomic",
         [&] { dot_atomic<<<S.blocks, S.threads>>>(dA, dB, n, dOut); }}};
    for (auto &V : variants) {
      const char *impl = V.first;
      std::function<void()> &launch = V.second;
      bench::Samples T = bench::time_host(a, [&] {
        for (int I = 0; I < 20; ++I)
          launch();
        CK(cudaDeviceSynchronize());
      });
      for (double &us : T.us)
        us /= 20;
      T.report("reduce_dot_queued", impl, 16.0 * double(n), extra.c_str());
    }
  }
  auto tr = [&] {
    triad<<<unsigned((n + 255) / 256), 256>>>(dC, dA, dB, 3.0, n);
    CK(cudaDeviceSynchronize());
  };
  bench::Samples T = bench::time_host(a, tr);
  T.report("triad", "cuda", 24.0 * double(n), "grid=default block=256");
  return 0;
}
