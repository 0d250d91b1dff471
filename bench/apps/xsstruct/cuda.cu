//===- bench/apps/xsstruct/cuda.cu - XSBench lookups, struct of pointers --===//
//
// Part of the offload project's benchmark suite.
//
//===----------------------------------------------------------------------===//
//
// The baseline of xsstruct/ours.cpp: XSBench's own CUDA form, the arrays in
// a struct of device pointers (and their lengths) passed by value to the
// kernel, the same lookup (ref.hpp) in blocks of 256.
//
//===----------------------------------------------------------------------===//

#include "../common/cuda_time.cuh"
#include "ref.hpp"

#include <cstdint>
#include <vector>

using xs::grid_point;
using xs::macro_xs;

/// XSBench's SimulationData on the device.
struct simulation_data {
  const double *union_energy;
  int n_union;
  const int *index;
  const grid_point *nuclide;
  const int *material_nuclides;
  const int *material_list;
  const double *concentration;
  const double *material_cdf;
  int gridpoints;
  macro_xs *out;
  int n;
};

__global__ void xs_lookup(simulation_data sd) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= sd.n)
    return;
  sd.out[i] =
      xs::lookup(std::size_t(i), sd.union_energy, std::size_t(sd.n_union),
                 sd.index, sd.nuclide, sd.material_nuclides, sd.material_list,
                 sd.concentration, sd.material_cdf, sd.gridpoints);
}

int main(int argc, char **argv) {
  const std::size_t gp =
      apps::take_option(argc, argv, "gridpoints", xs::kGridPoints);
  bench::Args a = bench::parse(argc, argv, {20, 3, 17000000, ""});
  apps::require_cuda_device(argv[0]);
  if (gp < 2)
    bench::usage(argv[0], a);
  const std::size_t n = a.n;
  const xs::data d = xs::make_data(gp);
  simulation_data sd{};
  sd.union_energy =
      apps::to_device(d.union_energy.data(), d.union_energy.size());
  sd.n_union = int(d.union_energy.size());
  sd.index = apps::to_device(d.index.data(), d.index.size());
  sd.nuclide = apps::to_device(d.nuclide.data(), d.nuclide.size());
  sd.material_nuclides =
      apps::to_device(d.material_nuclides.data(), xs::kMaterials);
  sd.material_list =
      apps::to_device(d.material_list.data(), d.material_list.size());
  sd.concentration =
      apps::to_device(d.concentration.data(), d.concentration.size());
  sd.material_cdf = apps::to_device(d.material_cdf.data(), xs::kMaterials);
  sd.gridpoints = int(gp);
  sd.out = apps::poisoned_output<macro_xs>(n);
  sd.n = int(n);
  const unsigned grid = unsigned((n + xs::kBlock - 1) / xs::kBlock);
  char extra[64];
  std::snprintf(extra, sizeof extra, "size=%zu", n);
  apps::time_cuda(a, xs::kStructMeasure, extra,
                  [&] { xs_lookup<<<grid, xs::kBlock>>>(sd); });
  std::vector<macro_xs> out(n);
  apps::from_device(out.data(), sd.out, n);
  xs::check("cuda", d, out);
  for (const void *p :
       {(const void *)sd.union_energy, (const void *)sd.index,
        (const void *)sd.nuclide, (const void *)sd.material_nuclides,
        (const void *)sd.material_list, (const void *)sd.concentration,
        (const void *)sd.material_cdf, (const void *)sd.out})
    CK(cudaFree(const_cast<void *>(p)));
  return 0;
}
