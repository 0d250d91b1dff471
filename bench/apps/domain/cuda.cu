//===- bench/apps/domain/cuda.cu - a LULESH-style step in CUDA ------------===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of domain/ours.cpp: LULESH's own CUDA form, the twenty
// fields a struct of device pointers passed by value to both kernels (the
// same math: ref.hpp), blocks of 256. One repetition is one step: both
// launches and a synchronisation.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "ref.hpp"

#include <vector>

struct domain {
  double *f[20]; ///< ref.hpp's fields, in declaration order
  int n;
};

__global__ void nodes(domain d, double dt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < d.n)
    dom::update_node(std::size_t(i), d.f[0], d.f[1], d.f[2], d.f[3], d.f[4],
                     d.f[5], d.f[6], d.f[7], d.f[8], d.f[9], d.f[10], d.f[11],
                     d.f[12], dt);
}

__global__ void elements(domain d, double dt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < d.n)
    dom::update_element(std::size_t(i), d.f[13], d.f[14], d.f[15], d.f[16],
                        d.f[17], d.f[18], d.f[19], dt);
}

int main(int argc, char **argv) {
  bench::Args a = bench::parse(argc, argv, {200, 5, 2097152, ""});
  apps::require_cuda_device(argv[0]);
  const std::size_t n = a.n;
  dom::fields host = dom::make_fields(n);
  std::vector<std::vector<double> *> all = host.all();
  domain d{};
  for (int k = 0; k < 20; ++k)
    d.f[k] = apps::to_device(all[std::size_t(k)]->data(), n);
  d.n = int(n);
  const unsigned grid = unsigned((n + dom::kBlock - 1) / dom::kBlock);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  apps::time_cuda(a, dom::kMeasure, extra, [&] {
    nodes<<<grid, dom::kBlock>>>(d, dom::kDt);
    elements<<<grid, dom::kBlock>>>(d, dom::kDt);
  });
  // time_cuda's steps: the warm-up, the host-timed and the event-timed ones.
  const int steps = a.warmup + 2 * a.reps;
  for (int k = 0; k < 20; ++k)
    apps::from_device(all[std::size_t(k)]->data(), d.f[k], n);
  dom::fields want = dom::make_fields(n);
  dom::reference(want, steps);
  dom::check("cuda", host, want, steps);
  for (double *p : d.f)
    CK(cudaFree(p));
  return 0;
}
